package dev.switchboard.bench.harness;

import java.util.Arrays;
import java.util.List;

/**
 * What one Switchboard run of a benchmark recorded over time: a value per period for each of one or more
 * {@linkplain Line lines}, drawn in one chart of the HTML report and written to the JSON report. The transactional
 * list benchmark records its list actors' commits and rollbacks per period, and the threads their dispatchers gave
 * transactional messages ([TxActors] Figs. 3–6: throughput and rollbacks over time).
 *
 * @param title    what the chart shows
 * @param periodMs the length of one period; value {@code i} of a line is that of period {@code i}
 * @param lines    one or more lines, each drawn to its own scale (its label says its largest value)
 */
public record Series(String title, int periodMs, List<Line> lines) {
    /** One named line: a value per period. */
    public record Line(String label, long[] values) {
        public Line {
            values = values.clone();
        }

        /** The largest value, 0 if there is none. */
        public long max() {
            return Arrays.stream(values).max().orElse(0);
        }

        @Override
        public long[] values() {
            return values.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Line l && label.equals(l.label) && Arrays.equals(values, l.values);
        }

        @Override
        public int hashCode() {
            return 31 * label.hashCode() + Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return label + Arrays.toString(values);
        }
    }

    public Series {
        if (periodMs <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodMs + " ms in '" + title + "'");
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("a series needs at least one line: '" + title + "'");
        }
        lines = List.copyOf(lines);
    }

    /** The number of periods: the length of the longest line. */
    public int periods() {
        return lines.stream().mapToInt(l -> l.values.length).max().orElse(0);
    }
}

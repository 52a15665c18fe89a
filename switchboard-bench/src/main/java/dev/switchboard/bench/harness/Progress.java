package dev.switchboard.bench.harness;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Owns the progress line of a run: one line per benchmark, rewritten in place on a terminal, a dot per measured
 * iteration elsewhere.
 */
final class Progress {
    private final PrintStream out;
    private final String prefix;
    private final int iterations;
    private final List<Side> sides;
    private final boolean terminal = System.console() != null;

    Progress(PrintStream out, int index, int total, String name, int iterations, List<Side> sides) {
        this.out = out;
        this.prefix = String.format("[%d/%d] %-24s", index, total, name);
        this.iterations = iterations;
        this.sides = sides;
        if (!terminal) {
            out.print(prefix);
            out.flush();
        }
    }

    void update(int iteration, boolean warmup, long[] nanos) {
        if (terminal) {
            StringBuilder times = new StringBuilder();
            for (int s = 0; s < sides.size(); s++) {
                times.append(String.format(Locale.ROOT, "%s %s %8.2f ms", s == 0 ? "" : " |",
                        sides.get(s).key(), nanos[s] / 1e6));
            }
            out.printf(Locale.ROOT, "\r%s %s %3d%s %s   ", prefix, warmup ? "warm-up" : "measure", iteration,
                    warmup ? "    " : "/" + iterations, times);
        } else if (!warmup) {
            out.print('.');
        }
        out.flush();
    }

    void done() {
        out.println();
    }
}

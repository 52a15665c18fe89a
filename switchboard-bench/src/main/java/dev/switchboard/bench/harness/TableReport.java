package dev.switchboard.bench.harness;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The table printed at the end of a run: one section per kind of peer, a row per benchmark with each side's
 * median, minimum and maximum and the ratio per peer side (the headline's marked with {@code *}), and the
 * geometric mean of each ratio column.
 */
final class TableReport {
    private static final String STATS = "%9.2f %9.2f %9.2f";
    private static final int STATS_WIDTH = 29;

    private TableReport() {
    }

    static String render(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        int nameWidth = "geometric mean".length();
        for (Result r : results) {
            nameWidth = Math.max(nameWidth, r.name().length());
        }
        for (Benchmark.Peer peer : Benchmark.Peer.values()) {
            List<Result> section = results.stream().filter(r -> r.peer() == peer).toList();
            if (!section.isEmpty()) {
                section(sb, peer, section, nameWidth);
            }
        }
        sb.append("(times in ms; ratio = peer median / Switchboard median, above 1: Switchboard faster;"
                + " * marks the headline)\n");
        return sb.toString();
    }

    private static void section(StringBuilder sb, Benchmark.Peer peer, List<Result> results, int nameWidth) {
        List<Side> peers = peerSides(results);
        Side headline = results.get(0).headline();
        List<Side> sides = new ArrayList<>();
        sides.add(Side.SWITCHBOARD);
        sides.addAll(peers);
        String name = "%-" + nameWidth + "s";
        sb.append(peer == Benchmark.Peer.PEKKO ? "vs Apache Pekko" : "vs ForkJoinPool").append('\n');
        StringBuilder groups = new StringBuilder(String.format(Locale.ROOT, name, ""));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, name, "benchmark"));
        for (Side side : sides) {
            groups.append(String.format(Locale.ROOT, " %-" + STATS_WIDTH + "s", side.label() + " ms"));
            header.append(String.format(Locale.ROOT, " %9s %9s %9s", "median", "min", "max"));
        }
        groups.append(" ratio");
        for (Side side : peers) {
            header.append(String.format(Locale.ROOT, " %9s", side.key() + (side == headline ? "*" : "")));
        }
        header.append(" verified");
        sb.append(groups.toString().stripTrailing()).append('\n').append(header).append('\n')
                .append("-".repeat(header.length())).append('\n');
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, name, r.name()));
            if (!r.verified()) {
                sb.append(" FAILED: ").append(r.failure()).append('\n');
                continue;
            }
            for (Side side : sides) {
                Stats s = side == Side.SWITCHBOARD ? r.switchboard() : r.peers().get(side);
                sb.append(' ').append(s == null ? " ".repeat(STATS_WIDTH)
                        : String.format(Locale.ROOT, STATS, s.medianMs(), s.minMs(), s.maxMs()));
            }
            for (Side side : peers) {
                sb.append(r.peers().containsKey(side) ? String.format(Locale.ROOT, " %9.2f", r.ratio(side))
                        : " ".repeat(10));
            }
            sb.append(" yes\n");
        }
        sb.append(String.format(Locale.ROOT, name, "geometric mean"))
                .append(" ".repeat((STATS_WIDTH + 1) * sides.size()));
        for (Side side : peers) {
            sb.append(String.format(Locale.ROOT, " %9.2f", GeometricMean.of(results, side)));
        }
        sb.append("\n\n");
    }

    /** The peer sides the results ran on, in {@link Side} order. */
    static List<Side> peerSides(List<Result> results) {
        Set<Side> sides = EnumSet.noneOf(Side.class);
        for (Result r : results) {
            sides.addAll(r.peers().keySet());
        }
        if (sides.isEmpty()) {
            results.stream().map(Result::headline).forEach(sides::add);
        }
        return List.copyOf(sides);
    }
}

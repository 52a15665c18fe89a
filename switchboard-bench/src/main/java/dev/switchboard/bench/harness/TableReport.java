package dev.switchboard.bench.harness;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The table printed at the end of a run: one section per kind of peer (Pekko, the ForkJoinPool), a row per
 * benchmark with each side's median, minimum and maximum, the ratio per peer side (the headline's marked with
 * {@code *}) and, where the harness counted them, the threads each side's runs added; and the geometric mean of
 * each ratio column.
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
        boolean threads = results.stream().anyMatch(r -> !r.threadsAdded().isEmpty());
        String name = "%-" + nameWidth + "s";
        sb.append(peer == Benchmark.Peer.PEKKO ? "vs Apache Pekko" : "vs ForkJoinPool").append('\n');
        StringBuilder groups = new StringBuilder(String.format(Locale.ROOT, name, ""));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, name, "benchmark"));
        for (Side side : sides) {
            groups.append(String.format(Locale.ROOT, " %-" + STATS_WIDTH + "s", side.label() + " ms"));
            header.append(String.format(Locale.ROOT, " %9s %9s %9s", "median", "min", "max"));
        }
        int ratioWidth = 0;
        for (Side side : peers) {
            String title = side.key() + (side == headline ? "*" : "");
            header.append(' ').append(pad(title, ratioWidth(side)));
            ratioWidth += ratioWidth(side) + 1;
        }
        groups.append(String.format(Locale.ROOT, " %-" + (ratioWidth - 1) + "s", "ratio"));
        if (threads) {
            groups.append(" threads added");
            for (Side side : sides) {
                header.append(' ').append(side.key());
            }
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
                sb.append(' ').append(pad(r.peers().containsKey(side) ? ratio(r.ratio(side)) : "", ratioWidth(side)));
            }
            if (threads) {
                for (Side side : sides) {
                    Integer added = r.threadsAdded().get(side);
                    sb.append(' ').append(pad(added == null ? "" : added.toString(), side.key().length()));
                }
            }
            sb.append(" yes\n");
        }
        sb.append(String.format(Locale.ROOT, name, "geometric mean"))
                .append(" ".repeat((STATS_WIDTH + 1) * sides.size()));
        for (Side side : peers) {
            sb.append(' ').append(pad(ratio(GeometricMean.of(results, side)), ratioWidth(side)));
        }
        sb.append('\n');
        if (threads) {
            sb.append("threads added: the most threads one measured run added (peak live threads during it minus"
                    + " those alive when it began)\n");
        }
        sb.append('\n');
    }

    private static int ratioWidth(Side side) {
        return Math.max(9, side.key().length() + 1);
    }

    private static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** {@code s} right-aligned in {@code width} characters. */
    private static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
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

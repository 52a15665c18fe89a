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

    /**
     * The table of several runs merged ({@code --runs N}): per benchmark and side the median of the runs' medians
     * with the lowest and highest, and per peer side the median ratio over the runs with the lowest and highest;
     * per peer side the geometric mean of each run, its median and spread.
     */
    static String render(Runs runs) {
        StringBuilder sb = new StringBuilder();
        for (Benchmark.Peer peer : Benchmark.Peer.values()) {
            List<Runs.Row> section = runs.rows().stream().filter(r -> r.peer() == peer).toList();
            if (!section.isEmpty()) {
                section(sb, peer, section, runs);
            }
        }
        sb.append(String.format(Locale.ROOT, "(over %d runs, each in its own JVM: times are the median of the runs'"
                + " medians in ms, ratios the median of the runs' ratios; [lowest-highest] over the runs;"
                + " ratio = peer median / Switchboard median, above 1: Switchboard faster; * marks the headline)%n",
                runs.count()));
        return sb.toString();
    }

    private static void section(StringBuilder sb, Benchmark.Peer peer, List<Runs.Row> rows, Runs runs) {
        Set<Side> peerSet = EnumSet.noneOf(Side.class);
        rows.forEach(r -> peerSet.addAll(r.ratios().keySet()));
        List<Side> peers = List.copyOf(peerSet);
        Side headline = rows.get(0).headline();
        List<Side> sides = new ArrayList<>();
        sides.add(Side.SWITCHBOARD);
        sides.addAll(peers);
        boolean threads = rows.stream().anyMatch(r -> !r.threadsAdded().isEmpty());
        List<String[]> grid = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("benchmark"));
        sides.forEach(side -> header.add(side.label() + " ms"));
        peers.forEach(side -> header.add("ratio " + side.key() + (side == headline ? "*" : "")));
        if (threads) {
            sides.forEach(side -> header.add("threads added " + side.key()));
        }
        header.add("verified");
        grid.add(header.toArray(String[]::new));
        for (Runs.Row r : rows) {
            if (!r.verified()) {
                grid.add(new String[] {r.name(), "FAILED: " + r.failure()});
                continue;
            }
            List<String> cells = new ArrayList<>(List.of(r.name()));
            for (Side side : sides) {
                Stats s = r.medians().get(side);
                cells.add(s == null ? "" : spread(s.medianMs(), s.minMs(), s.maxMs()));
            }
            for (Side side : peers) {
                Runs.Spread s = r.ratios().get(side);
                cells.add(s == null ? "" : spread(s.median(), s.min(), s.max()));
            }
            if (threads) {
                for (Side side : sides) {
                    Integer added = r.threadsAdded().get(side);
                    cells.add(added == null ? "" : added.toString());
                }
            }
            cells.add("yes");
            grid.add(cells.toArray(String[]::new));
        }
        List<String> mean = new ArrayList<>(List.of("geometric mean"));
        sides.forEach(side -> mean.add(""));
        for (Side side : peers) {
            Runs.Spread s = runs.geometricMeans().get(side);
            mean.add(s == null ? "-" : spread(s.median(), s.min(), s.max()));
        }
        while (mean.size() < header.size()) {
            mean.add("");
        }
        grid.add(mean.toArray(String[]::new));
        sb.append(peer == Benchmark.Peer.PEKKO ? "vs Apache Pekko" : "vs ForkJoinPool").append('\n')
                .append(grid(grid));
        for (Side side : peers) {
            Runs.Spread s = runs.geometricMeans().get(side);
            if (s != null) {
                sb.append("geometric mean per run, ").append(side.key()).append(side == headline ? "*" : "")
                        .append(':');
                for (double v : s.perRun()) {
                    sb.append(String.format(Locale.ROOT, " %.2f", v));
                }
                sb.append('\n');
            }
        }
        if (threads) {
            sb.append("threads added: the most threads one measured run added, over all runs (peak live threads"
                    + " during it minus those alive when it began)\n");
        }
        sb.append('\n');
    }

    private static String spread(double median, double lo, double hi) {
        return String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", median, lo, hi);
    }

    /**
     * Rows of cells in columns as wide as their widest cell, the first column left-aligned and the others right;
     * a line under the first row. A row shorter than the first (a failure) is printed as it is.
     */
    private static String grid(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            if (row.length == columns) {
                for (int c = 0; c < columns; c++) {
                    widths[c] = Math.max(widths[c], row[c].length());
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            String[] row = rows.get(i);
            StringBuilder line = new StringBuilder();
            if (row.length != columns) {
                line.append(String.format(Locale.ROOT, "%-" + widths[0] + "s", row[0]));
                for (int c = 1; c < row.length; c++) {
                    line.append("  ").append(row[c]);
                }
            } else {
                for (int c = 0; c < columns; c++) {
                    line.append(c == 0 ? String.format(Locale.ROOT, "%-" + widths[0] + "s", row[0])
                            : "  " + pad(row[c], widths[c]));
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
            if (i == 0) {
                sb.append("-".repeat(line.length())).append('\n');
            }
        }
        return sb.toString();
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

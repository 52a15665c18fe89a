package dev.switchboard.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML report (inline SVG, no scripts, nothing fetched): a bar chart of the headline ratio per
 * benchmark, a table with every side and every ratio, and per benchmark the distribution of wall times of each
 * side.
 */
final class HtmlReport {
    private static final String SB_COLOR = "#2b6cb0";
    private static final String PK_COLOR = "#c05621";
    private static final String MATCHED_COLOR = "#d69e2e";
    private static final String POOL_COLOR = "#2f855a";

    private HtmlReport() {
    }

    static Path write(Path dir, Map<String, Object> machine, Map<String, Object> config, List<Result> results)
            throws IOException {
        Files.createDirectories(dir);
        Path page = dir.resolve("index.html");
        Files.writeString(page, render(machine, config, results));
        Files.writeString(dir.resolve("results.json"), JsonReport.render(machine, config, results));
        return page;
    }

    static String render(Map<String, Object> machine, Map<String, Object> config, List<Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Switchboard vs Pekko</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:2rem;max-width:1100px;color:#1a202c}
                table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #cbd5e0;padding:.3rem .6rem;text-align:right}
                th{background:#edf2f7}td:first-child,th:first-child{text-align:left}
                .fail{color:#c53030}.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}
                pre{background:#f7fafc;padding:.6rem;overflow-x:auto}
                </style></head><body>
                <h1>Switchboard vs Apache Pekko</h1>
                <p>ratio = peer median / Switchboard median; above 1 means Switchboard is faster.
                All sides run in one JVM, in rotating order, with the same number of workers. The headline is
                Pekko with its default dispatcher settings (what Pekko users run); Pekko matched has
                Switchboard's throughput budget.</p>
                """);
        sb.append("<h2>Ratio per benchmark</h2>\n").append(ratioChart(results));
        for (Benchmark.Peer peer : Benchmark.Peer.values()) {
            List<Result> section = results.stream().filter(r -> r.peer() == peer).toList();
            if (!section.isEmpty()) {
                sb.append("<h2>Results: ").append(peer == Benchmark.Peer.PEKKO ? "vs Apache Pekko" : "vs ForkJoinPool")
                        .append("</h2>\n").append(table(section));
            }
        }
        sb.append("<h2>Time distribution per side</h2>\n<p>Each dot one iteration; bar = median.</p>\n");
        for (Result r : results) {
            if (r.verified()) {
                sb.append("<h3>").append(esc(r.name())).append("</h3><p>").append(esc(r.description()))
                        .append(" &mdash; params ").append(esc(String.valueOf(r.params()))).append("</p>\n")
                        .append(distribution(r));
            }
        }
        sb.append("<h2>Machine</h2><pre>").append(esc(Json.write(machine))).append("</pre>\n");
        sb.append("<h2>Configuration</h2><pre>").append(esc(Json.write(config))).append("</pre>\n");
        sb.append("</body></html>\n");
        return sb.toString();
    }

    private static String ratioChart(List<Result> results) {
        int rowH = 28;
        int left = 190;
        int width = 900;
        double max = 1;
        for (Result r : results) {
            if (r.verified()) {
                max = Math.max(max, r.ratio());
            }
        }
        double scale = (width - left - 60) / (max * 1.05);
        int h = rowH * results.size() + 30;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg width='%d' height='%d' xmlns='http://www.w3.org/2000/svg' font-size='13'>%n", width, h));
        int y = 10;
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%s</text>%n", left - 8,
                    y + 17, esc(r.name())));
            if (r.verified()) {
                double w = r.ratio() * scale;
                String color = r.ratio() >= 1 ? SB_COLOR : PK_COLOR;
                sb.append(String.format(Locale.ROOT,
                        "<rect x='%d' y='%d' width='%.1f' height='%d' fill='%s'/><text x='%.1f' y='%d'>%.2f</text>%n",
                        left, y + 4, w, rowH - 8, color, left + w + 6, y + 17, r.ratio()));
            } else {
                sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' fill='#c53030'>failed</text>%n", left,
                        y + 17));
            }
            y += rowH;
        }
        double one = left + scale;
        sb.append(String.format(Locale.ROOT,
                "<line x1='%.1f' y1='5' x2='%.1f' y2='%d' stroke='#1a202c' stroke-dasharray='4 3'/>"
                        + "<text x='%.1f' y='%d' text-anchor='middle'>1.0</text>%n",
                one, one, h - 18, one, h - 4));
        return sb.append("</svg>\n").toString();
    }

    /** One section's table: every side's times, the ratio per peer side, the threads added where counted. */
    private static String table(List<Result> results) {
        List<Side> peers = TableReport.peerSides(results);
        List<Side> sides = new ArrayList<>();
        sides.add(Side.SWITCHBOARD);
        sides.addAll(peers);
        boolean threads = results.stream().anyMatch(r -> !r.threadsAdded().isEmpty());
        StringBuilder sb = new StringBuilder("<table><tr><th>benchmark</th>");
        for (Side side : sides) {
            sb.append("<th>").append(esc(side.label())).append(" median ms</th><th>min</th><th>max</th>");
        }
        for (Side side : peers) {
            sb.append("<th>ratio ").append(esc(side.key())).append(headlineMark(results, side)).append("</th>");
        }
        if (threads) {
            for (Side side : sides) {
                sb.append("<th>threads added, ").append(esc(side.label())).append("</th>");
            }
        }
        sb.append("<th>verified</th></tr>\n");
        int columns = 2 + 3 * sides.size() + peers.size() + (threads ? sides.size() : 0);
        for (Result r : results) {
            if (!r.verified()) {
                sb.append("<tr><td>").append(esc(r.name())).append("</td><td colspan=").append(columns - 1)
                        .append(" class=fail>FAILED: ").append(esc(r.failure())).append("</td></tr>\n");
                continue;
            }
            sb.append("<tr><td>").append(esc(r.name())).append("</td>").append(cells(r.switchboard()));
            for (Side side : peers) {
                sb.append(r.peers().containsKey(side) ? cells(r.peers().get(side)) : "<td></td><td></td><td></td>");
            }
            for (Side side : peers) {
                sb.append(r.peers().containsKey(side)
                        ? String.format(Locale.ROOT, "<td>%s%.2f%s</td>", side == r.headline() ? "<b>" : "",
                                r.ratio(side), side == r.headline() ? "</b>" : "")
                        : "<td></td>");
            }
            if (threads) {
                for (Side side : sides) {
                    Integer added = r.threadsAdded().get(side);
                    sb.append("<td>").append(added == null ? "" : added).append("</td>");
                }
            }
            sb.append("<td>yes</td></tr>\n");
        }
        sb.append("<tr><td>geometric mean</td><td colspan=").append(3 * sides.size()).append("></td>");
        for (Side side : peers) {
            double mean = GeometricMean.of(results, side);
            sb.append(Double.isNaN(mean) ? "<td>-</td>" : String.format(Locale.ROOT, "<td>%.2f</td>", mean));
        }
        sb.append("<td colspan=").append(1 + (threads ? sides.size() : 0)).append("></td></tr>\n</table>\n");
        if (threads) {
            sb.append("<p>Threads added: the most threads one measured run added, that is the peak number of live"
                    + " threads during the run minus those alive when it began.</p>\n");
        }
        return sb.toString();
    }

    private static String distribution(Result r) {
        int width = 900;
        int left = 130;
        double max = r.switchboard().maxMs();
        for (Stats s : r.peers().values()) {
            max = Math.max(max, s.maxMs());
        }
        max *= 1.05;
        double scale = (width - left - 40) / max;
        int height = 30 * (1 + r.peers().size()) + 30;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg width='%d' height='%d' xmlns='http://www.w3.org/2000/svg' font-size='12'>%n", width, height));
        row(sb, Side.SWITCHBOARD.label(), r.switchboard(), 10, left, scale, color(Side.SWITCHBOARD));
        int y = 40;
        for (Map.Entry<Side, Stats> e : r.peers().entrySet()) {
            row(sb, e.getKey().label(), e.getValue(), y, left, scale, color(e.getKey()));
            y += 30;
        }
        sb.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#a0aec0'/>"
                + "<text x='%d' y='%d'>0</text><text x='%d' y='%d' text-anchor='end'>%.1f ms</text>%n",
                left, y + 2, width - 40, y + 2, left, y + 16, width - 40, y + 16, max));
        return sb.append("</svg>\n").toString();
    }

    private static String cells(Stats s) {
        return String.format(Locale.ROOT, "<td>%.2f</td><td>%.2f</td><td>%.2f</td>", s.medianMs(), s.minMs(),
                s.maxMs());
    }

    private static String headlineMark(List<Result> results, Side side) {
        return results.stream().anyMatch(r -> r.headline() == side) ? " (headline)" : "";
    }

    private static String color(Side side) {
        return switch (side) {
            case SWITCHBOARD -> SB_COLOR;
            case PEKKO_DEFAULT -> PK_COLOR;
            case PEKKO_MATCHED -> MATCHED_COLOR;
            case FORK_JOIN_POOL -> POOL_COLOR;
        };
    }

    private static void row(StringBuilder sb, String label, Stats s, int y, int left, double scale, String color) {
        sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%s</text>%n", left - 8, y + 14,
                label));
        for (double v : s.samplesMs()) {
            sb.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%d' r='4' fill='%s' fill-opacity='0.45'/>%n",
                    left + v * scale, y + 10, color));
        }
        sb.append(String.format(Locale.ROOT,
                "<rect x='%.1f' y='%d' width='3' height='20' fill='%s'/><text x='%.1f' y='%d'>%.2f</text>%n",
                left + s.medianMs() * scale - 1, y, color, left + s.medianMs() * scale + 6, y + 8, s.medianMs()));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
    }
}

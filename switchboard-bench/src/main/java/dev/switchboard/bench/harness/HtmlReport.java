package dev.switchboard.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML report (inline SVG, no scripts, nothing fetched). It says when the run was made, on which
 * commit and with which settings; then the headline and every other ratio per benchmark on a logarithmic chart
 * ({@link RatioChart}), with the geometric means; a table per kind of peer with every side's times, every ratio
 * and, for the pool's benchmarks, the threads each side added; what benchmarks recorded over time ({@link
 * Series}); per benchmark the distribution of each side's wall times; and the machine and configuration as the
 * JSON report has them. Benchmarks Switchboard loses are shown and counted like the others.
 */
final class HtmlReport {
    private static final String SB_COLOR = "#2b6cb0";
    private static final String PK_COLOR = "#c05621";
    private static final String MATCHED_COLOR = "#d69e2e";
    private static final String POOL_COLOR = "#2f855a";

    private HtmlReport() {
    }

    /** Writes {@code index.html} and {@code results.json} into {@code dir}; returns the page. */
    static Path write(Path dir, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                      List<Result> results) throws IOException {
        Files.createDirectories(dir);
        Path page = dir.resolve("index.html");
        Files.writeString(page, render(run, machine, config, results));
        Files.writeString(dir.resolve("results.json"), JsonReport.render(run, machine, config, results));
        return page;
    }

    static String render(RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                         List<Result> results) {
        StringBuilder sb = new StringBuilder(head(run));
        sb.append("<h2>Ratio per benchmark</h2>\n<div class=chart>").append(RatioChart.render(chartRows(results)))
                .append("</div>\n");
        for (Benchmark.Peer peer : Benchmark.Peer.values()) {
            List<Result> section = results.stream().filter(r -> r.peer() == peer).toList();
            if (!section.isEmpty()) {
                sb.append("<h2>Results ").append(sectionTitle(peer)).append("</h2>\n").append(table(section));
            }
        }
        Map<String, List<Series>> series = new LinkedHashMap<>();
        results.forEach(r -> series.put(r.name(), r.series()));
        sb.append(overTime(series, "the last measured run"));
        sb.append("<h2>Time distribution per side</h2>\n<p>Each dot one iteration; bar = median.</p>\n");
        for (Result r : results) {
            if (r.verified()) {
                sb.append("<h3>").append(esc(r.name())).append("</h3><p>").append(esc(r.description()))
                        .append(" &mdash; params ").append(esc(String.valueOf(r.params()))).append("</p>\n")
                        .append(distribution(sides(r)));
            }
        }
        return sb.append(tail(machine, config)).toString();
    }

    /** Writes {@code index.html} and {@code results.json} for several runs merged; returns the page. */
    static Path writeRuns(Path dir, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                          Runs runs) throws IOException {
        Files.createDirectories(dir);
        Path page = dir.resolve("index.html");
        Files.writeString(page, renderRuns(run, machine, config, runs));
        Files.writeString(dir.resolve("results.json"), JsonReport.renderRuns(run, machine, config, runs));
        return page;
    }

    /**
     * The page of several runs merged: the chart's bars are the median ratios over the runs with whiskers from
     * the lowest to the highest, the tables give the same spreads and each run's headline ratio, and the
     * distributions show each run's median.
     */
    static String renderRuns(RunInfo run, Map<String, Object> machine, Map<String, Object> config, Runs runs) {
        StringBuilder sb = new StringBuilder(head(run));
        sb.append(String.format(Locale.ROOT, "<p>Merged over %d runs, each in its own JVM, one after the other."
                + " A bar is the median of the runs' ratios; its whisker spans the lowest to the highest.</p>%n",
                runs.count()));
        sb.append("<h2>Ratio per benchmark</h2>\n<div class=chart>").append(RatioChart.render(chartRows(runs)))
                .append("</div>\n");
        for (Benchmark.Peer peer : Benchmark.Peer.values()) {
            List<Runs.Row> section = runs.rows().stream().filter(r -> r.peer() == peer).toList();
            if (!section.isEmpty()) {
                sb.append("<h2>Results ").append(sectionTitle(peer)).append("</h2>\n").append(table(section, runs));
            }
        }
        sb.append("<h2>Geometric mean per run</h2>\n<table><tr><th>run</th>");
        runs.geometricMeans().keySet().forEach(side -> sb.append("<th>").append(esc(side.label())).append("</th>"));
        sb.append("</tr>\n");
        for (int i = 0; i < runs.count(); i++) {
            sb.append("<tr><td>").append(i + 1).append("</td>");
            for (Side side : runs.geometricMeans().keySet()) {
                double mean = GeometricMean.of(runs.run(i), side);
                sb.append(Double.isNaN(mean) ? "<td>-</td>" : ratioCell(mean, false));
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
        Map<String, List<Series>> series = new LinkedHashMap<>();
        runs.rows().forEach(r -> series.put(r.name(), r.series()));
        sb.append(overTime(series, "the last measured run of the last run"));
        sb.append("<h2>Median per run</h2>\n<p>Each dot one run's median; bar = the median of those.</p>\n");
        for (Runs.Row r : runs.rows()) {
            if (r.verified()) {
                sb.append("<h3>").append(esc(r.name())).append("</h3><p>").append(esc(r.description()))
                        .append(" &mdash; params ").append(esc(String.valueOf(r.params()))).append("</p>\n")
                        .append(distribution(r.medians()));
            }
        }
        return sb.append(tail(machine, config)).toString();
    }

    /**
     * The section that plots what benchmarks recorded over time ({@link Benchmark#lastRunSeries()}), a chart per
     * series; nothing when none did.
     */
    private static String overTime(Map<String, List<Series>> series, String whichRun) {
        if (series.values().stream().allMatch(List::isEmpty)) {
            return "";
        }
        StringBuilder sb = new StringBuilder("<h2>Over time</h2>\n<p>What a benchmark's Switchboard side recorded"
                + " during " + esc(whichRun) + ", per period; each line drawn to its own scale.</p>\n");
        series.forEach((name, list) -> {
            if (!list.isEmpty()) {
                sb.append("<h3>").append(esc(name)).append("</h3>\n");
                list.forEach(s -> sb.append(SeriesChart.render(s)));
            }
        });
        return sb.toString();
    }

    private static List<RatioChart.Row> chartRows(Runs runs) {
        List<RatioChart.Row> rows = new ArrayList<>();
        for (Runs.Row r : runs.rows()) {
            List<RatioChart.Bar> bars = new ArrayList<>();
            r.ratios().forEach((side, s) -> bars.add(new RatioChart.Bar(side, side == r.headline(), s.median(),
                    s.min(), s.max())));
            rows.add(new RatioChart.Row(r.name(), bars, r.failure()));
        }
        runs.geometricMeans().forEach((side, s) -> {
            boolean headline = runs.rows().stream().anyMatch(r -> r.headline() == side);
            rows.add(new RatioChart.Row("geometric mean, " + side.label(),
                    List.of(new RatioChart.Bar(side, headline, s.median(), s.min(), s.max())), null));
        });
        return rows;
    }

    /** One section's table over the runs: medians and ratios with their spreads, each run's headline ratio. */
    private static String table(List<Runs.Row> rows, Runs runs) {
        List<Side> peers = new ArrayList<>();
        for (Side side : Side.values()) {
            if (rows.stream().anyMatch(r -> r.ratios().containsKey(side))) {
                peers.add(side);
            }
        }
        List<Side> sides = new ArrayList<>();
        sides.add(Side.SWITCHBOARD);
        sides.addAll(peers);
        boolean threads = rows.stream().anyMatch(r -> !r.threadsAdded().isEmpty());
        boolean anyHeadline = false;
        StringBuilder sb = new StringBuilder("<table><tr><th>benchmark</th>");
        for (Side side : sides) {
            sb.append("<th>").append(esc(side.label())).append(" ms, median of the runs (lowest-highest)</th>");
        }
        for (Side side : peers) {
            boolean headline = rows.stream().anyMatch(r -> r.headline() == side);
            anyHeadline |= headline;
            sb.append("<th>ratio ").append(esc(side.key())).append(headline ? " (headline)" : "")
                    .append(", median (lowest-highest)</th>");
        }
        sb.append("<th>").append(anyHeadline ? "headline " : "").append("ratio per run</th>");
        if (threads) {
            for (Side side : sides) {
                sb.append("<th>threads added, ").append(esc(side.label())).append("</th>");
            }
        }
        sb.append("<th>verified</th></tr>\n");
        int columns = 3 + sides.size() + peers.size() + (threads ? sides.size() : 0);
        for (Runs.Row r : rows) {
            if (!r.verified()) {
                sb.append("<tr><td>").append(esc(r.name())).append("</td><td colspan=").append(columns - 1)
                        .append(" class=fail>FAILED: ").append(esc(r.failure())).append("</td></tr>\n");
                continue;
            }
            sb.append("<tr><td>").append(esc(r.name())).append("</td>");
            for (Side side : sides) {
                Stats s = r.medians().get(side);
                sb.append(s == null ? "<td></td>" : String.format(Locale.ROOT, "<td>%.2f (%.2f-%.2f)</td>",
                        s.medianMs(), s.minMs(), s.maxMs()));
            }
            for (Side side : peers) {
                Runs.Spread s = r.ratios().get(side);
                sb.append(s == null ? "<td></td>" : spreadCell(s, side == r.headline()));
            }
            sb.append("<td>");
            for (double v : r.ratio().perRun()) {
                sb.append(String.format(Locale.ROOT, "%.2f ", v));
            }
            sb.append("</td>");
            if (threads) {
                for (Side side : sides) {
                    Integer added = r.threadsAdded().get(side);
                    sb.append("<td>").append(added == null ? "" : added).append("</td>");
                }
            }
            sb.append("<td>yes</td></tr>\n");
        }
        sb.append("<tr><td>geometric mean</td><td colspan=").append(sides.size()).append("></td>");
        for (Side side : peers) {
            Runs.Spread s = runs.geometricMeans().get(side);
            boolean headline = rows.stream().anyMatch(r -> r.headline() == side);
            sb.append(s == null ? "<td>-</td>" : spreadCell(s, headline));
        }
        sb.append("<td colspan=").append(2 + (threads ? sides.size() : 0)).append("></td></tr>\n</table>\n");
        if (threads) {
            sb.append("<p>Threads added: the most threads one measured run added, over all runs; that is the peak"
                    + " number of live threads during a run minus those alive when it began.</p>\n");
        }
        return sb.toString();
    }

    private static String spreadCell(Runs.Spread s, boolean headline) {
        String v = String.format(Locale.ROOT, "%.2f", s.median());
        return String.format(Locale.ROOT, "<td%s>%s (%.2f-%.2f)</td>", s.median() < 1 ? " class=fail" : "",
                headline ? "<b>" + v + "</b>" : v, s.min(), s.max());
    }

    /** The page up to the chart: the title, what a ratio means, and how, when and on what the run was made. */
    static String head(RunInfo run) {
        StringBuilder sb = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Switchboard benchmarks</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:2rem;color:#1a202c}
                p,dl{max-width:1100px}
                table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #cbd5e0;padding:.3rem .6rem;text-align:right}
                th{background:#edf2f7}td:first-child,th:first-child{text-align:left;white-space:nowrap}
                .fail{color:#c53030}.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}
                dl.run{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dl.run dt{font-weight:600}
                dl.run dd{margin:0}pre{background:#f7fafc;padding:.6rem;overflow-x:auto}svg{max-width:none}
                .chart{overflow-x:auto}
                </style></head><body>
                <h1>Switchboard benchmarks</h1>
                <p>ratio = peer median / Switchboard median: above 1 Switchboard is faster, below 1 it is slower.
                All sides run in one JVM, in rotating order, with the same number of workers. The headline is Apache
                Pekko with its default dispatcher settings, because that is what Pekko users run; Pekko matched has
                Switchboard's throughput budget. Task-parallel benchmarks are compared with the JDK's ForkJoinPool.
                Every verified benchmark is in the chart and in the geometric means, the ones Switchboard loses
                too.</p>
                """);
        sb.append("<h2>This run</h2>\n<dl class=run>\n");
        item(sb, "ran", run.when());
        item(sb, "commit", run.commit());
        run.settings().forEach((label, text) -> item(sb, label, text));
        sb.append("</dl>\n");
        sb.append("<p class=legend>");
        for (Side side : Side.values()) {
            sb.append("<span style='background:").append(color(side)).append("'></span>").append(esc(side.label()));
        }
        return sb.append("</p>\n").toString();
    }

    /** The page after the results: the machine and the configuration as the JSON report has them. */
    static String tail(Map<String, Object> machine, Map<String, Object> config) {
        return "<h2>Machine</h2><pre>" + esc(ReportMapper.write(machine)) + "</pre>\n"
                + "<h2>Configuration</h2><pre>" + esc(ReportMapper.write(config)) + "</pre>\n</body></html>\n";
    }

    private static void item(StringBuilder sb, String label, String text) {
        sb.append("<dt>").append(esc(label)).append("</dt><dd>").append(esc(text)).append("</dd>\n");
    }

    static String sectionTitle(Benchmark.Peer peer) {
        return peer == Benchmark.Peer.PEKKO ? "vs Apache Pekko" : "vs ForkJoinPool";
    }

    /** A row per benchmark with a bar per peer side it ran on, then a row per peer side's geometric mean. */
    private static List<RatioChart.Row> chartRows(List<Result> results) {
        List<RatioChart.Row> rows = new ArrayList<>();
        for (Result r : results) {
            List<RatioChart.Bar> bars = new ArrayList<>();
            if (r.verified()) {
                for (Side side : r.peers().keySet()) {
                    double ratio = r.ratio(side);
                    bars.add(new RatioChart.Bar(side, side == r.headline(), ratio, ratio, ratio));
                }
            }
            rows.add(new RatioChart.Row(r.name(), bars, r.failure()));
        }
        for (Side side : TableReport.peerSides(results)) {
            double mean = GeometricMean.of(results, side);
            if (!Double.isNaN(mean)) {
                boolean headline = results.stream().anyMatch(r -> r.headline() == side);
                rows.add(new RatioChart.Row("geometric mean, " + side.label(),
                        List.of(new RatioChart.Bar(side, headline, mean, mean, mean)), null));
            }
        }
        return rows;
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
                sb.append(r.peers().containsKey(side) ? ratioCell(r.ratio(side), side == r.headline()) : "<td></td>");
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
            sb.append(Double.isNaN(mean) ? "<td>-</td>" : ratioCell(mean, headlineMark(results, side).length() > 0));
        }
        sb.append("<td colspan=").append(1 + (threads ? sides.size() : 0)).append("></td></tr>\n</table>\n");
        if (threads) {
            sb.append("<p>Threads added: the most threads one measured run added, that is the peak number of live"
                    + " threads during the run minus those alive when it began.</p>\n");
        }
        return sb.toString();
    }

    static String ratioCell(double ratio, boolean headline) {
        String v = String.format(Locale.ROOT, "%.2f", ratio);
        return "<td" + (ratio < 1 ? " class=fail" : "") + ">" + (headline ? "<b>" + v + "</b>" : v) + "</td>";
    }

    /** Dots for each side's samples, with a bar at their median, on a linear axis from 0 ms. */
    private static String distribution(Map<Side, Stats> sides) {
        int width = 900;
        int left = 130;
        double max = 0;
        for (Stats s : sides.values()) {
            max = Math.max(max, s.maxMs());
        }
        max *= 1.05;
        double scale = (width - left - 40) / max;
        int height = 30 * sides.size() + 30;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg width='%d' height='%d' xmlns='http://www.w3.org/2000/svg' font-size='12'>%n", width, height));
        int y = 10;
        for (Map.Entry<Side, Stats> e : sides.entrySet()) {
            row(sb, e.getKey().label(), e.getValue(), y, left, scale, color(e.getKey()));
            y += 30;
        }
        sb.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#a0aec0'/>"
                + "<text x='%d' y='%d'>0</text><text x='%d' y='%d' text-anchor='end'>%.1f ms</text>%n",
                left, y + 2, width - 40, y + 2, left, y + 16, width - 40, y + 16, max));
        return sb.append("</svg>\n").toString();
    }

    private static Map<Side, Stats> sides(Result r) {
        Map<Side, Stats> sides = new LinkedHashMap<>();
        sides.put(Side.SWITCHBOARD, r.switchboard());
        sides.putAll(r.peers());
        return sides;
    }

    private static String cells(Stats s) {
        return String.format(Locale.ROOT, "<td>%.2f</td><td>%.2f</td><td>%.2f</td>", s.medianMs(), s.minMs(),
                s.maxMs());
    }

    private static String headlineMark(List<Result> results, Side side) {
        return results.stream().anyMatch(r -> r.headline() == side) ? " (headline)" : "";
    }

    static String color(Side side) {
        return switch (side) {
            case SWITCHBOARD -> SB_COLOR;
            case PEKKO_DEFAULT -> PK_COLOR;
            case PEKKO_MATCHED -> MATCHED_COLOR;
            case FORK_JOIN_POOL -> POOL_COLOR;
        };
    }

    private static void row(StringBuilder sb, String label, Stats s, int y, int left, double scale, String color) {
        sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%s</text>%n", left - 8, y + 14,
                esc(label)));
        for (double v : s.samplesMs()) {
            sb.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%d' r='4' fill='%s' fill-opacity='0.45'/>%n",
                    left + v * scale, y + 10, color));
        }
        sb.append(String.format(Locale.ROOT,
                "<rect x='%.1f' y='%d' width='3' height='20' fill='%s'/><text x='%.1f' y='%d'>%.2f</text>%n",
                left + s.medianMs() * scale - 1, y, color, left + s.medianMs() * scale + 6, y + 8, s.medianMs()));
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
    }
}

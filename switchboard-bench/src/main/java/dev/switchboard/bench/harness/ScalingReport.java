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
 * The report of a scaling run ({@link Scaling}): a table, a JSON file and an HTML page with one chart per
 * benchmark. Per benchmark and side, the median time at each worker count (the median of the runs' medians, with
 * the lowest and highest) and the speedup over the first count ({@code time at the first / time at this one});
 * per peer side the ratio ({@code peer / Switchboard}) at each count. The JSON:
 * <pre>{@code
 * {"run": {...}, "machine": {"cpus": 2, "cpu_model": "...", ...}, "config": {..., "worker_counts": [1, 2]},
 *  "worker_counts": [1, 2],
 *  "results": [{"name": "Big", "description": "...", "peer": "pekko",
 *               "sides": [{"side": "switchboard", "label": "Switchboard",
 *                          "points": [{"workers": 1, "median_ms": x, "min_ms": x, "max_ms": x, "speedup": 1.0},
 *                                     {"workers": 2, ...}]}, ...],
 *               "ratios": {"default": [x, x], "matched": [x, x]},
 *               "failures": []}]}
 * }</pre>
 * A count at which the benchmark failed has null statistics, and the failure in {@code failures}.
 */
final class ScalingReport {
    /** A side's time at one worker count. */
    record PointJson(int workers, Double medianMs, Double minMs, Double maxMs, Double speedup) {
    }

    /** A side over the worker counts. */
    record SideJson(String side, String label, List<PointJson> points) {
    }

    /** A benchmark over the worker counts. */
    record BenchmarkJson(String name, String description, String peer, List<SideJson> sides,
                         Map<String, List<Double>> ratios, List<String> failures) {
    }

    /** The file. */
    record ReportFile(ReportJson.Run run, Map<String, Object> machine, Map<String, Object> config,
                      List<Integer> workerCounts, List<BenchmarkJson> results) {
    }

    private ScalingReport() {
    }

    /** The benchmarks over the points, in the order of the runs. */
    static List<BenchmarkJson> benchmarks(List<Scaling.Point> points) {
        List<BenchmarkJson> out = new ArrayList<>();
        for (int b = 0; b < points.get(0).runs().rows().size(); b++) {
            Runs.Row first = firstRow(points, b);
            List<String> failures = new ArrayList<>();
            List<Side> sides = new ArrayList<>();
            for (Scaling.Point p : points) {
                Runs.Row r = p.runs().rows().get(b);
                if (!r.verified()) {
                    failures.add(p.workers() + " workers: " + r.failure());
                }
                r.medians().keySet().stream().filter(s -> !sides.contains(s)).forEach(sides::add);
            }
            List<SideJson> sideJson = new ArrayList<>();
            for (Side side : sides) {
                Stats atFirst = firstRow(points, b).medians().get(side);      // the speedups' base
                List<PointJson> pts = new ArrayList<>();
                for (Scaling.Point p : points) {
                    Stats s = p.runs().rows().get(b).medians().get(side);
                    pts.add(s == null ? new PointJson(p.workers(), null, null, null, null)
                            : new PointJson(p.workers(), s.medianMs(), s.minMs(), s.maxMs(),
                                    atFirst == null ? null : atFirst.medianMs() / s.medianMs()));
                }
                sideJson.add(new SideJson(side.key(), side.label(), pts));
            }
            Map<String, List<Double>> ratios = new LinkedHashMap<>();
            for (Side side : sides) {
                if (side == Side.SWITCHBOARD) {
                    continue;
                }
                List<Double> perCount = new ArrayList<>();
                for (Scaling.Point p : points) {
                    Runs.Spread ratio = p.runs().rows().get(b).ratios().get(side);
                    perCount.add(ratio == null ? null : ratio.median());
                }
                ratios.put(side.key(), perCount);
            }
            out.add(new BenchmarkJson(first.name(), first.description(), JsonReport.peer(first.peer()), sideJson,
                    ratios, failures));
        }
        return out;
    }

    private static Runs.Row firstRow(List<Scaling.Point> points, int benchmark) {
        return points.get(0).runs().rows().get(benchmark);
    }

    /** The table printed at the end of a scaling run. */
    static String table(List<Scaling.Point> points) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nScaling: median ms over the runs"
                + " (speedup over %d worker%s); ratio = peer / Switchboard%n", points.get(0).workers(),
                points.get(0).workers() == 1 ? "" : "s"));
        sb.append(String.format(Locale.ROOT, "%-30s %-16s", "benchmark", "side"));
        for (Scaling.Point p : points) {
            sb.append(String.format(Locale.ROOT, " %20s", p.workers() + (p.workers() == 1 ? " worker" : " workers")));
        }
        sb.append('\n');
        for (BenchmarkJson b : benchmarks(points)) {
            String name = b.name();
            for (SideJson side : b.sides()) {
                sb.append(String.format(Locale.ROOT, "%-30s %-16s", name, side.label()));
                name = "";
                for (PointJson p : side.points()) {
                    sb.append(String.format(Locale.ROOT, " %20s", p.medianMs() == null ? "failed"
                            : String.format(Locale.ROOT, "%.2f (%.2fx)", p.medianMs(), p.speedup())));
                }
                sb.append('\n');
            }
            for (Map.Entry<String, List<Double>> e : b.ratios().entrySet()) {
                sb.append(String.format(Locale.ROOT, "%-30s %-16s", "", "ratio " + e.getKey()));
                for (Double r : e.getValue()) {
                    sb.append(String.format(Locale.ROOT, " %20s", r == null ? "-" : String.format(Locale.ROOT,
                            "%.2f", r)));
                }
                sb.append('\n');
            }
            b.failures().forEach(f -> sb.append("  failed at ").append(f).append('\n'));
        }
        return sb.toString();
    }

    static void writeJson(Path file, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                          List<Scaling.Point> points) throws IOException {
        JsonReport.writeFile(file, json(run, machine, config, points));
    }

    static String json(RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                       List<Scaling.Point> points) {
        return ReportMapper.write(new ReportFile(run.json(), machine, config,
                points.stream().map(Scaling.Point::workers).toList(), benchmarks(points)));
    }

    /** Writes {@code index.html} (and {@code results.json} beside it) into {@code dir}; returns the page. */
    static Path writeHtml(Path dir, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                          List<Scaling.Point> points) throws IOException {
        Files.createDirectories(dir);
        Path page = dir.resolve("index.html");
        Files.writeString(page, html(run, machine, config, points));
        Files.writeString(dir.resolve("results.json"), json(run, machine, config, points));
        return page;
    }

    static String html(RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                       List<Scaling.Point> points) {
        StringBuilder sb = new StringBuilder(HtmlReport.head(run));
        sb.append("<h2>Scaling</h2>\n<p>Measured on ").append(HtmlReport.esc(String.valueOf(machine.get("cpu_model"))))
                .append(", ").append(machine.get("cpus")).append(" CPUs, at ")
                .append(points.stream().map(p -> String.valueOf(p.workers())).reduce((a, b) -> a + ", " + b)
                        .orElse("")).append(" workers. Speedup = the time at ").append(points.get(0).workers())
                .append(" worker(s) / the time at N; the dashed line is a speedup in proportion to the workers."
                        + " Worker counts above the machine's CPUs measure preemption, not parallelism.</p>\n");
        for (BenchmarkJson b : benchmarks(points)) {
            sb.append("<h3>").append(HtmlReport.esc(b.name())).append("</h3><p>").append(HtmlReport.esc(
                    b.description())).append("</p>\n<div class=chart>").append(chart(b, points)).append("</div>\n");
            sb.append("<table><tr><th>side</th>");
            points.forEach(p -> sb.append("<th>").append(p.workers()).append(" workers</th>"));
            sb.append("</tr>\n");
            for (SideJson side : b.sides()) {
                sb.append("<tr><td>").append(HtmlReport.esc(side.label())).append("</td>");
                for (PointJson p : side.points()) {
                    sb.append("<td>").append(p.medianMs() == null ? "<span class=fail>failed</span>"
                            : String.format(Locale.ROOT, "%.2f ms (%.2f&times;)", p.medianMs(), p.speedup()))
                            .append("</td>");
                }
                sb.append("</tr>\n");
            }
            b.ratios().forEach((key, values) -> {
                sb.append("<tr><td>ratio ").append(HtmlReport.esc(key)).append("</td>");
                values.forEach(r -> sb.append("<td>").append(r == null ? "-" : String.format(Locale.ROOT, "%.2f", r))
                        .append("</td>"));
                sb.append("</tr>\n");
            });
            sb.append("</table>\n");
            b.failures().forEach(f -> sb.append("<p class=fail>failed at ").append(HtmlReport.esc(f)).append("</p>\n"));
        }
        return sb.append(HtmlReport.tail(machine, config)).toString();
    }

    /** Speedup against workers, one line per side, with the proportional line dashed. */
    static String chart(BenchmarkJson b, List<Scaling.Point> points) {
        int w = 420;
        int h = 220;
        int left = 50;
        int bottom = 30;
        int top = 10;
        int right = 20;
        double first = points.get(0).workers();
        double maxSpeedup = points.get(points.size() - 1).workers() / first;
        for (SideJson side : b.sides()) {
            for (PointJson p : side.points()) {
                if (p.speedup() != null) {
                    maxSpeedup = Math.max(maxSpeedup, p.speedup());
                }
            }
        }
        double yMax = Math.ceil(maxSpeedup * 1.1 * 2) / 2;
        int n = points.size();
        double xStep = n == 1 ? 0 : (w - left - right) / (double) (n - 1);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg width=%d height=%d xmlns='http://www.w3.org/2000/svg' font-size=11>", w, h));
        for (double tick = 0; tick <= yMax + 1e-9; tick += yMax <= 4 ? 0.5 : 1) {
            double y = y(tick, yMax, h, top, bottom);
            sb.append(String.format(Locale.ROOT, "<line x1=%d x2=%d y1=%.1f y2=%.1f stroke='#e2e8f0'/>"
                    + "<text x=%d y=%.1f text-anchor=end>%.1f&times;</text>", left, w - right, y, y, left - 4, y + 4,
                    tick));
        }
        for (int i = 0; i < n; i++) {
            sb.append(String.format(Locale.ROOT, "<text x=%.1f y=%d text-anchor=middle>%d</text>", left + i * xStep,
                    h - bottom + 16, points.get(i).workers()));
        }
        sb.append(String.format(Locale.ROOT, "<text x=%d y=%d text-anchor=end>workers</text>", w - right, h - 2));
        StringBuilder ideal = new StringBuilder();
        for (int i = 0; i < n; i++) {
            ideal.append(String.format(Locale.ROOT, "%.1f,%.1f ", left + i * xStep,
                    y(points.get(i).workers() / first, yMax, h, top, bottom)));
        }
        sb.append("<polyline fill=none stroke='#a0aec0' stroke-dasharray='4 3' points='").append(ideal.toString()
                .strip()).append("'/>");
        for (SideJson side : b.sides()) {
            StringBuilder line = new StringBuilder();
            String color = HtmlReport.color(Side.ofKey(side.side()));
            for (int i = 0; i < n; i++) {
                PointJson p = side.points().get(i);
                if (p.speedup() == null) {
                    continue;
                }
                double x = left + i * xStep;
                double y = y(p.speedup(), yMax, h, top, bottom);
                line.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                sb.append(String.format(Locale.ROOT, "<circle cx=%.1f cy=%.1f r=3 fill='%s'><title>%s, %d workers:"
                        + " %.2f ms, %.2f&times;</title></circle>", x, y, color, HtmlReport.esc(side.label()),
                        p.workers(), p.medianMs(), p.speedup()));
            }
            sb.append("<polyline fill=none stroke='").append(color).append("' stroke-width=2 points='")
                    .append(line.toString().strip()).append("'/>");
        }
        return sb.append("</svg>").toString();
    }

    private static double y(double speedup, double yMax, int h, int top, int bottom) {
        return top + (h - top - bottom) * (1 - speedup / yMax);
    }
}

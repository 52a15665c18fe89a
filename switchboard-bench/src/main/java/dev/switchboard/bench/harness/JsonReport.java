package dev.switchboard.bench.harness;

import dev.switchboard.bench.latency.ProbeLatency;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machine-readable report:
 * <pre>{@code
 * {"run": {"started": "2026-11-25T11:40:02Z", "finished": "...", "commit": "4b0c17d-dirty", "arguments": [...]},
 *  "machine": {"cpus": 2, "cpu_model": "...", "java_version": "...", "jvm_args": "...", ...},
 *  "config": {"headline": "default", "peer_configs": ["default", "matched"], "switchboard": {...},
 *             "pekko": {"version": "1.7.0", "configs": {"default": {"throughput": 5, "headline": true, ...},
 *                                                        "matched": {"throughput": 64, ...}}}, ...},
 *  "geometric_means": {"default": x, "matched": x},
 *  "results": [{"name": "PingPong", "description": "...", "params": {...}, "peer": "pekko",
 *               "headline": "default", "iterations": N,
 *               "switchboard_ms": {"median": x, "min": x, "max": x, "samples_ms": [...]},
 *               "peer_ms": {"default": {"median": x, ...}, "matched": {"median": x, ...}},
 *               "ratio": x, "ratios": {"default": x, "matched": x}, "verified": true}]}
 * }</pre>
 * A benchmark that records its Switchboard runs over time ({@link Benchmark#lastRunSeries()}) has, for the last
 * measured run, {@code "series": [{"title": "...", "period_ms": 50, "lines": [{"label": "commits", "values":
 * [...]}, ...]}]} (in the merged report, the last run's).
 * {@code ratio} is the headline's ratio, {@code peer median / switchboard median}; {@code ratios} has one per peer
 * side, keyed by {@link Side#key()}; {@code geometric_means} has one per peer side, over every verified
 * benchmark that ran on it. A benchmark whose peer is the pool has {@code "peer": "fork_join_pool"}, one peer side
 * {@code fork_join_pool}, and {@code "threads_added": {"switchboard": n, "fork_join_pool": n}}: per side the most
 * threads one measured run added ({@link ThreadPeak}). A failed benchmark has {@code "verified": false}, null
 * statistics and ratios, and a {@code "failure"}.
 *
 * <p>With {@code --runs N} the harness merges the reports of its N child runs ({@link #renderRuns}): the same
 * sections, where {@code ratio}, {@code ratios} and {@code geometric_means} are medians over the runs, with the
 * spreads beside them:
 * <pre>{@code
 * {"run": {...}, "machine": {...}, "config": {..., "runs": 5},
 *  "geometric_means": {"default": x, "matched": x},
 *  "geometric_mean_spreads": {"default": {"median": x, "min": x, "max": x, "per_run": [...]}, ...},
 *  "results": [{"name": "PingPong", ..., "peer": "pekko", "headline": "default", "runs": 5,
 *               "switchboard_ms": {"median": x, "run_medians": [...]},
 *               "peer_ms": {"default": {"median": x, "run_medians": [...]}, "matched": {...}},
 *               "ratio": x, "ratios": {"default": x, "matched": x},
 *               "ratio_spreads": {"default": {"median": x, "min": x, "max": x, "per_run": [...]}, ...},
 *               "verified": true}]}
 * }</pre>
 *
 * <p>The probe-latency tool ({@code --probe-latency}) writes one row per chain count instead:
 * <pre>{@code
 * {"machine": {...}, "config": {"tool": "probe-latency", "workers": 2, "chain_kind": "pairs", ...},
 *  "results": [{"chains": 3, "sent": 103, "warmup_served": 100, "served": 0, "starved": 3, "abandoned": true,
 *   "chains_running": 3, "median_us": null, "p90_us": null, "p99_us": null, "max_us": null, "samples_us": [],
 *   "problem": null}]}
 * }</pre>
 */
public final class JsonReport {
    private JsonReport() {
    }

    static void write(Path file, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                      List<Result> results) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(run, machine, config, results));
    }

    static String render(RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                         List<Result> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run.json());
        root.put("machine", machine);
        root.put("config", config);
        Map<String, Object> means = new LinkedHashMap<>();
        for (Side side : TableReport.peerSides(results)) {
            means.put(side.key(), GeometricMean.of(results, side));
        }
        root.put("geometric_means", means);
        List<Object> rs = new ArrayList<>();
        for (Result r : results) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("description", r.description());
            m.put("params", r.params());
            m.put("peer", r.peer().name().toLowerCase(Locale.ROOT));
            m.put("headline", r.headline().key());
            m.put("iterations", r.iterations());
            m.put("switchboard_ms", r.switchboard() == null ? null : stats(r.switchboard()));
            Map<String, Object> peerMs = new LinkedHashMap<>();
            Map<String, Object> ratios = new LinkedHashMap<>();
            r.peers().forEach((side, s) -> {
                peerMs.put(side.key(), stats(s));
                ratios.put(side.key(), r.ratio(side));
            });
            m.put("peer_ms", peerMs);
            m.put("ratio", r.verified() ? r.ratio() : null);
            m.put("ratios", ratios);
            if (!r.threadsAdded().isEmpty()) {
                Map<String, Object> threads = new LinkedHashMap<>();
                r.threadsAdded().forEach((side, n) -> threads.put(side.key(), n));
                m.put("threads_added", threads);
            }
            putSeries(m, r.series());
            m.put("verified", r.verified());
            if (r.failure() != null) {
                m.put("failure", r.failure());
            }
            rs.add(m);
        }
        root.put("results", rs);
        return Json.write(root);
    }

    /** Writes the merged report of several runs ({@link #renderRuns}). */
    static void writeRuns(Path file, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                          Runs runs) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, renderRuns(run, machine, config, runs));
    }

    /**
     * The merged report of several runs: the same sections, {@code ratio}, {@code ratios} and
     * {@code geometric_means} holding the medians over the runs, and the spreads beside them.
     */
    static String renderRuns(RunInfo run, Map<String, Object> machine, Map<String, Object> config, Runs runs) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run.json());
        root.put("machine", machine);
        root.put("config", config);
        Map<String, Object> means = new LinkedHashMap<>();
        Map<String, Object> meanSpreads = new LinkedHashMap<>();
        runs.geometricMeans().forEach((side, spread) -> {
            means.put(side.key(), spread.median());
            meanSpreads.put(side.key(), spread(spread));
        });
        root.put("geometric_means", means);
        root.put("geometric_mean_spreads", meanSpreads);
        List<Object> rs = new ArrayList<>();
        for (Runs.Row r : runs.rows()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("description", r.description());
            m.put("params", r.params());
            m.put("peer", r.peer().name().toLowerCase(Locale.ROOT));
            m.put("headline", r.headline().key());
            m.put("runs", runs.count());
            Stats sb = r.medians().get(Side.SWITCHBOARD);
            m.put("switchboard_ms", sb == null ? null : runMedians(sb));
            Map<String, Object> peerMs = new LinkedHashMap<>();
            Map<String, Object> ratios = new LinkedHashMap<>();
            Map<String, Object> ratioSpreads = new LinkedHashMap<>();
            r.medians().forEach((side, s) -> {
                if (side != Side.SWITCHBOARD) {
                    peerMs.put(side.key(), runMedians(s));
                }
            });
            r.ratios().forEach((side, spread) -> {
                ratios.put(side.key(), spread.median());
                ratioSpreads.put(side.key(), spread(spread));
            });
            m.put("peer_ms", peerMs);
            m.put("ratio", r.verified() ? r.ratio().median() : null);
            m.put("ratios", ratios);
            m.put("ratio_spreads", ratioSpreads);
            if (!r.threadsAdded().isEmpty()) {
                Map<String, Object> threads = new LinkedHashMap<>();
                r.threadsAdded().forEach((side, n) -> threads.put(side.key(), n));
                m.put("threads_added", threads);
            }
            putSeries(m, r.series());
            m.put("verified", r.verified());
            if (r.failure() != null) {
                m.put("failure", r.failure());
            }
            rs.add(m);
        }
        root.put("results", rs);
        return Json.write(root);
    }

    /** Adds {@code "series"} to a result's object when the benchmark recorded any. */
    private static void putSeries(Map<String, Object> m, List<Series> series) {
        if (series.isEmpty()) {
            return;
        }
        List<Object> out = new ArrayList<>();
        for (Series s : series) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("title", s.title());
            o.put("period_ms", s.periodMs());
            List<Object> lines = new ArrayList<>();
            for (Series.Line line : s.lines()) {
                Map<String, Object> l = new LinkedHashMap<>();
                l.put("label", line.label());
                l.put("values", line.values());
                lines.add(l);
            }
            o.put("lines", lines);
            out.add(o);
        }
        m.put("series", out);
    }

    private static List<Series> series(Object json) {
        List<Series> series = new ArrayList<>();
        if (json instanceof List<?> list) {
            for (Object o : list) {
                Map<?, ?> s = (Map<?, ?>) o;
                List<Series.Line> lines = new ArrayList<>();
                for (Object l : (List<?>) s.get("lines")) {
                    Map<?, ?> line = (Map<?, ?>) l;
                    List<?> values = (List<?>) line.get("values");
                    lines.add(new Series.Line((String) line.get("label"),
                            values.stream().mapToLong(v -> ((Number) v).longValue()).toArray()));
                }
                series.add(new Series((String) s.get("title"), ((Number) s.get("period_ms")).intValue(), lines));
            }
        }
        return series;
    }

    /**
     * The results of a report {@link #render} wrote.
     *
     * @throws IllegalArgumentException if {@code json} is not such a report
     */
    static List<Result> parseResults(String json) {
        try {
            Map<?, ?> root = (Map<?, ?>) Json.parse(json);
            List<Result> results = new ArrayList<>();
            for (Object o : (List<?>) root.get("results")) {
                Map<?, ?> m = (Map<?, ?>) o;
                Map<Side, Stats> peers = new LinkedHashMap<>();
                ((Map<?, ?>) m.get("peer_ms"))
                        .forEach((k, v) -> peers.put(Side.ofKey((String) k), stats((Map<?, ?>) v)));
                Map<Side, Integer> threads = new LinkedHashMap<>();
                if (m.get("threads_added") instanceof Map<?, ?> t) {
                    t.forEach((k, v) -> threads.put(Side.ofKey((String) k), ((Number) v).intValue()));
                }
                Map<String, Object> params = new LinkedHashMap<>();
                ((Map<?, ?>) m.get("params")).forEach((k, v) -> params.put((String) k, v));
                Object sb = m.get("switchboard_ms");
                results.add(new Result((String) m.get("name"), (String) m.get("description"), params,
                        Benchmark.Peer.valueOf(((String) m.get("peer")).toUpperCase(Locale.ROOT)),
                        Side.ofKey((String) m.get("headline")), ((Number) m.get("iterations")).intValue(),
                        sb == null ? null : stats((Map<?, ?>) sb), peers, threads, series(m.get("series")),
                        (Boolean) m.get("verified"),
                        (String) m.get("failure")));
            }
            return results;
        } catch (ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException("not a report of the harness: " + e, e);
        }
    }

    private static Stats stats(Map<?, ?> m) {
        List<?> samples = (List<?>) m.get("samples_ms");
        double[] ms = new double[samples.size()];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = ((Number) samples.get(i)).doubleValue();
        }
        return new Stats(((Number) m.get("median")).doubleValue(), ((Number) m.get("min")).doubleValue(),
                ((Number) m.get("max")).doubleValue(), ms);
    }

    private static Map<String, Object> runMedians(Stats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.medianMs());
        m.put("run_medians", s.samplesMs());
        return m;
    }

    private static Map<String, Object> spread(Runs.Spread s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.median());
        m.put("min", s.min());
        m.put("max", s.max());
        m.put("per_run", s.perRun());
        return m;
    }

    static void writeProbeLatency(Path file, Map<String, Object> machine, List<ProbeLatency.Result> results)
            throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, renderProbeLatency(machine, results));
    }

    static String renderProbeLatency(Map<String, Object> machine, List<ProbeLatency.Result> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", machine);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("tool", "probe-latency");
        if (!results.isEmpty()) {
            ProbeLatency.Config c = results.get(0).config();
            config.put("workers", c.workers());
            config.put("chain_kind", c.kind().label());
            config.put("probe_source", c.source().label());
            config.put("throughput", c.throughput());
            config.put("probes", c.probes());
            config.put("warmup_probes", c.warmup());
            config.put("bound_ms", c.bound().toMillis());
            config.put("starved_in_a_row_to_stop", ProbeLatency.STARVED_IN_A_ROW);
            config.put("percentiles", "nearest rank over the served measured probes, microseconds");
        }
        root.put("config", config);
        List<Object> rs = new ArrayList<>();
        for (ProbeLatency.Result r : results) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("chains", r.chains());
            m.put("sent", r.sent());
            m.put("warmup_served", r.warmupServed());
            m.put("served", r.served());
            m.put("starved", r.starved());
            m.put("abandoned", r.abandoned());
            m.put("chains_running", r.chainsRunning());
            m.put("median_us", r.medianUs());
            m.put("p90_us", r.p90Us());
            m.put("p99_us", r.p99Us());
            m.put("max_us", r.maxUs());
            m.put("samples_us", r.samplesUs());
            m.put("problem", r.problem());
            rs.add(m);
        }
        root.put("results", rs);
        return Json.write(root);
    }

    private static Map<String, Object> stats(Stats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.medianMs());
        m.put("min", s.minMs());
        m.put("max", s.maxMs());
        m.put("samples_ms", s.samplesMs());
        return m;
    }
}

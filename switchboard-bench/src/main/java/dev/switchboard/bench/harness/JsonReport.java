package dev.switchboard.bench.harness;

import com.fasterxml.jackson.core.JacksonException;
import dev.switchboard.bench.harness.ReportJson.Report;
import dev.switchboard.bench.harness.ReportJson.ResultJson;
import dev.switchboard.bench.harness.ReportJson.RowJson;
import dev.switchboard.bench.harness.ReportJson.RunMedians;
import dev.switchboard.bench.harness.ReportJson.RunsReport;
import dev.switchboard.bench.harness.ReportJson.SeriesJson;
import dev.switchboard.bench.harness.ReportJson.SpreadJson;
import dev.switchboard.bench.harness.ReportJson.StatsJson;
import dev.switchboard.bench.latency.ProbeLatency;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Owns the machine-readable report: fills the records of {@link ReportJson} from results, writes them with
 * {@link ReportMapper}, and reads a child run's report back ({@link #parseResults}). The file:
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
        writeFile(file, render(run, machine, config, results));
    }

    static String render(RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                         List<Result> results) {
        Map<String, Double> means = new LinkedHashMap<>();
        for (Side side : TableReport.peerSides(results)) {
            means.put(side.key(), GeometricMean.of(results, side));
        }
        List<ResultJson> rs = new ArrayList<>();
        for (Result r : results) {
            Map<String, Double> ratios = new LinkedHashMap<>();
            r.peers().keySet().forEach(side -> ratios.put(side.key(), r.ratio(side)));
            rs.add(new ResultJson(r.name(), r.description(), r.params(), peer(r.peer()), r.headline().key(),
                    r.iterations(), r.switchboard() == null ? null : stats(r.switchboard()),
                    keyed(r.peers(), JsonReport::stats), r.verified() ? r.ratio() : null, ratios,
                    keyed(r.threadsAdded(), n -> n), series(r.series()), r.verified(), r.failure()));
        }
        return ReportMapper.write(new Report(run.json(), machine, config, means, rs));
    }

    /** Writes the merged report of several runs ({@link #renderRuns}). */
    static void writeRuns(Path file, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                          Runs runs) throws IOException {
        writeFile(file, renderRuns(run, machine, config, runs));
    }

    /**
     * The merged report of several runs: the same sections, {@code ratio}, {@code ratios} and
     * {@code geometric_means} holding the medians over the runs, and the spreads beside them.
     */
    static String renderRuns(RunInfo run, Map<String, Object> machine, Map<String, Object> config, Runs runs) {
        Map<String, Double> means = new LinkedHashMap<>();
        runs.geometricMeans().forEach((side, spread) -> means.put(side.key(), spread.median()));
        List<RowJson> rs = new ArrayList<>();
        for (Runs.Row r : runs.rows()) {
            Stats sb = r.medians().get(Side.SWITCHBOARD);
            Map<String, RunMedians> peerMs = new LinkedHashMap<>();
            r.medians().forEach((side, s) -> {
                if (side != Side.SWITCHBOARD) {
                    peerMs.put(side.key(), runMedians(s));
                }
            });
            Map<String, Double> ratios = new LinkedHashMap<>();
            r.ratios().forEach((side, spread) -> ratios.put(side.key(), spread.median()));
            rs.add(new RowJson(r.name(), r.description(), r.params(), peer(r.peer()), r.headline().key(),
                    runs.count(), sb == null ? null : runMedians(sb), peerMs,
                    r.verified() ? r.ratio().median() : null, ratios, keyed(r.ratios(), JsonReport::spread),
                    keyed(r.threadsAdded(), n -> n), series(r.series()), r.verified(), r.failure()));
        }
        return ReportMapper.write(new RunsReport(run.json(), machine, config, means,
                keyed(runs.geometricMeans(), JsonReport::spread), rs));
    }

    /**
     * The results of a report {@link #render} wrote.
     *
     * @throws IllegalArgumentException if {@code json} is not such a report
     */
    static List<Result> parseResults(String json) {
        try {
            Report report = ReportMapper.MAPPER.readValue(json, Report.class);
            List<Result> results = new ArrayList<>();
            for (ResultJson m : report.results()) {
                Map<Side, Stats> peers = new LinkedHashMap<>();
                m.peerMs().forEach((k, v) -> peers.put(Side.ofKey(k), stats(v)));
                Map<Side, Integer> threads = new LinkedHashMap<>();
                if (m.threadsAdded() != null) {
                    m.threadsAdded().forEach((k, v) -> threads.put(Side.ofKey(k), v));
                }
                List<Series> series = m.series() == null ? List.of() : m.series().stream()
                        .map(s -> new Series(s.title(), s.periodMs(), s.lines())).toList();
                results.add(new Result(m.name(), m.description(), new LinkedHashMap<>(m.params()),
                        Benchmark.Peer.valueOf(m.peer().toUpperCase(Locale.ROOT)), Side.ofKey(m.headline()),
                        m.iterations(), m.switchboardMs() == null ? null : stats(m.switchboardMs()), peers,
                        threads, series, m.verified(), m.failure()));
            }
            return results;
        } catch (JacksonException | RuntimeException e) {
            throw new IllegalArgumentException("not a report of the harness: " + e, e);
        }
    }

    static void writeProbeLatency(Path file, Map<String, Object> machine, List<ProbeLatency.Result> results)
            throws IOException {
        writeFile(file, renderProbeLatency(machine, results));
    }

    static String renderProbeLatency(Map<String, Object> machine, List<ProbeLatency.Result> results) {
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
        List<ReportJson.ProbeRow> rows = results.stream().map(r -> new ReportJson.ProbeRow(r.chains(), r.sent(),
                r.warmupServed(), r.served(), r.starved(), r.abandoned(), r.chainsRunning(), r.medianUs(),
                r.p90Us(), r.p99Us(), r.maxUs(), r.samplesUs(), r.problem())).toList();
        return ReportMapper.write(new ReportJson.ProbeReport(machine, config, rows));
    }

    /**
     * Writes {@code json} to {@code file}, making its directory first, whole or not at all: into a file beside it,
     * then moved over it, so a JVM that ends mid-write leaves the report before, never half of one.
     */
    static void writeFile(Path file, String json) throws IOException {
        Path target = file.toAbsolutePath();
        Path parent = target.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path part = target.resolveSibling(target.getFileName() + ".writing");
        try {
            Files.writeString(part, json);
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(part);               // left only if the write or the move failed
        }
    }

    /** A peer's name in the reports: {@code pekko} or {@code fork_join_pool}. */
    static String peer(Benchmark.Peer peer) {
        return peer.name().toLowerCase(Locale.ROOT);
    }

    /** {@code map} keyed by {@link Side#key()}, its values mapped, in the map's order. */
    private static <V, J> Map<String, J> keyed(Map<Side, V> map, Function<V, J> value) {
        Map<String, J> out = new LinkedHashMap<>();
        map.forEach((side, v) -> out.put(side.key(), value.apply(v)));
        return out;
    }

    private static List<SeriesJson> series(List<Series> series) {
        return series.stream().map(s -> new SeriesJson(s.title(), s.periodMs(), s.lines())).toList();
    }

    private static StatsJson stats(Stats s) {
        return new StatsJson(s.medianMs(), s.minMs(), s.maxMs(), s.samplesMs());
    }

    private static Stats stats(StatsJson s) {
        return new Stats(s.median(), s.min(), s.max(), s.samplesMs());
    }

    private static RunMedians runMedians(Stats s) {
        return new RunMedians(s.medianMs(), s.samplesMs());
    }

    private static SpreadJson spread(Runs.Spread s) {
        return new SpreadJson(s.median(), s.min(), s.max(), s.perRun());
    }
}

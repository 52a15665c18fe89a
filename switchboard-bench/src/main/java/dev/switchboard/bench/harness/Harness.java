package dev.switchboard.bench.harness;

import dev.switchboard.bench.Suite;
import dev.switchboard.bench.latency.ProbeLatency;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Owns a run of the harness from its command line to its reports: it dispatches to the listing, a comparison, the
 * probe-latency tool, a series of runs in child JVMs or a run in this JVM, and writes the table, JSON and HTML.
 * Its parts: {@link Options} (the command line), {@link Measurement} (one benchmark on every side),
 * {@link RunDescription} (the settings and configuration), {@link ChildRuns} and {@link Runs} (several runs).
 *
 * <p>Runs every benchmark on Switchboard and on its peer (Apache Pekko, or the JDK's {@link
 * java.util.concurrent.ForkJoinPool} for task-parallel benchmarks) in this one JVM, the sides in rotating order,
 * and reports medians and ratios.
 *
 * <h2>Method</h2>
 * The runtimes are created once, all with the same number of worker threads ({@link Runtimes}): Switchboard with
 * its throughput budget ({@code --throughput}); Apache Pekko in two configurations ({@link PekkoSettings}):
 * {@code default}, Pekko's default dispatcher settings (throughput 5), the headline because it is what Pekko
 * users run, and {@code matched}, whose throughput is Switchboard's budget ({@code --peer-config} runs one of
 * them only); and a {@code new ForkJoinPool(workers)} for the benchmarks whose {@linkplain Benchmark#peer() peer}
 * it is (the Pekko configurations do not apply to them; for them the harness also reports the threads each
 * side's runs added, {@link ThreadPeak}). For each benchmark the harness runs warm-up iterations, then measured
 * iterations; an iteration runs every side once, starting one side further than the iteration before. Every run
 * returns a checksum that must equal the benchmark's expected value. Per side it reports the median, minimum
 * and maximum wall time, and per peer side {@code ratio = peer_median / switchboard_median} (above 1:
 * Switchboard faster). With {@code --runs N} it runs all that N times, each in its own JVM ({@link ChildRuns}),
 * and reports every ratio's median and spread over the runs ({@link Runs}); a run whose JVM fails is named and
 * tried once more, and left out of the merge if it fails again.
 *
 * <pre>
 * ./switchboard bench --help               (every option: {@link Options})
 * ./switchboard bench [options]
 * ./switchboard bench --compare a,b,...    (Switchboard variants against each other: {@link Comparison})
 * ./switchboard bench --scaling 1,2,4      (a set of benchmarks at each worker count: {@link Scaling})
 * ./switchboard bench --probe-latency ...  (a probe's latency under endless chains: {@link ProbeLatency})
 * </pre>
 */
public final class Harness {
    private final Options options;
    private final PrintStream out;
    private List<ChildRuns.Failure> failedRuns = List.of();

    Harness(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /**
     * Runs the harness and ends the JVM with its exit code, also when it fails: a stuck peer (a Pekko pool thread
     * that never parks again) keeps non-daemon threads alive, and a JVM whose main thread merely ended would then
     * never exit, and a series of runs ({@code --runs}) would wait for it forever.
     */
    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void run(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println();
            System.err.print(Options.usage());
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.print(Options.usage());
            return;
        }
        try {
            options.gc.check(Collector.inUse());
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.probeLatency) {
            probeLatency(options, System.out);
            return;
        }
        if (options.list) {
            for (Benchmark b : Suite.all()) {
                System.out.printf("%-28s %s%n", b.name(), b.description());
            }
            System.out.println();
            System.out.println("only when --only names them (they start a second JVM per side):");
            for (Benchmark b : Suite.optional()) {
                System.out.printf("%-28s %s%n", b.name(), b.description());
            }
            System.out.println();
            System.out.println("the request-reply grid, only when --only names them (--only " + Suite.SERVER_GRID
                    + " names all " + Suite.serverGrid().size() + "):");
            for (Benchmark b : Suite.serverGrid()) {
                System.out.printf("%-28s %s%n", b.name(), b.description());
            }
            System.out.println();
            System.out.println("for --compare only (Switchboard variants, not in the main run):");
            for (Benchmark b : Suite.compareVariants()) {
                System.out.printf("%-28s %s%n", b.name(), b.description());
            }
            return;
        }
        List<Benchmark> chosen;
        Comparison comparison = null;
        try {                                   // an unknown name is a usage error, not a stack trace
            if (options.compare != null) {
                chosen = options.compare.stream().map(Suite::forCompare).toList();
                comparison = new Comparison(chosen, options.iterations, options.warmup, options.warmupSeconds,
                        options.compareWorkers != null ? options.compareWorkers : List.of(options.workers),
                        options.throughput, System.out).idleSpin(options.idleSpin);
            } else {
                chosen = Suite.select(options.scaling != null ? Scaling.selection(options) : options.only);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (comparison != null) {
            OffsetDateTime started = RunInfo.now();
            List<Comparison.Row> rows = comparison.run();
            if (options.json != null) {
                RunInfo run = new RunInfo(started, RunInfo.now(), RunInfo.currentCommit(), options.arguments, Map.of());
                ComparisonReport.writeJson(options.json, run, Machine.describe(), comparison.configuration(), rows);
                System.out.println("JSON report: " + options.json.toAbsolutePath());
            }
            return;
        }
        if (options.scaling != null) {
            try {
                List<Scaling.Point> points = Scaling.run(options, chosen, System.out);
                boolean verified = points.size() == options.scaling.size() && points.stream()
                        .allMatch(p -> p.runs().verified() && p.failures().isEmpty());
                System.exit(verified ? 0 : 1);
            } catch (ChildRuns.Failure e) {
                System.err.println("bench: " + e.getMessage());
                System.exit(1);
            }
            return;
        }
        if (options.runs > 1) {
            try {
                Harness harness = new Harness(options, System.out);
                Runs runs = harness.runInChildren(chosen);
                System.exit(runs.verified() && harness.failedRuns().isEmpty() ? 0 : 1);
            } catch (ChildRuns.Failure e) {
                System.err.println("bench: " + e.getMessage());
                System.exit(1);
            }
            return;
        }
        List<Result> results = new Harness(options, System.out).run(chosen);
        boolean allVerified = results.stream().allMatch(Result::verified);
        System.exit(allVerified ? 0 : 1);
    }

    /** Runs {@link ProbeLatency} for every chain count of the options, prints the table, writes JSON if asked. */
    static List<ProbeLatency.Result> probeLatency(Options options, PrintStream out) throws IOException {
        List<ProbeLatency.Config> configs = new ArrayList<>();
        for (int n : options.chains) {
            configs.add(new ProbeLatency.Config(options.workers, n, options.chainKind, options.probeSource,
                    options.probes, options.probeWarmup, options.probeBound, options.throughput));
        }
        List<ProbeLatency.Result> results = ProbeLatency.table(configs, out);
        if (options.json != null) {
            JsonReport.writeProbeLatency(options.json, Machine.describe(), results);
            out.println("JSON report: " + options.json.toAbsolutePath());
        }
        return results;
    }

    List<Result> run(List<Benchmark> benchmarks) throws IOException {
        OffsetDateTime started = RunInfo.now();
        int workers = options.workers;
        int budget = options.throughput;
        RunDescription description = new RunDescription(options);
        Map<String, Object> config = description.configuration(benchmarks);
        boolean pool = benchmarks.stream().anyMatch(b -> b.peer() == Benchmark.Peer.FORK_JOIN_POOL);
        out.printf(Locale.ROOT, "Switchboard vs Apache Pekko %s%s - %d workers each; Switchboard budget %d%s; %s;"
                        + " warm-up >= %d iterations and >= %.0f s, then %d measured iterations per side;"
                        + " collector %s%n",
                RunDescription.pekkoVersion(), pool ? " and ForkJoinPool" + (options.poolFifo ? " (FIFO mode)" : "")
                        : "", workers, budget, RunDescription.describeIdleSpin(options.idleSpin),
                description.describePekko(), options.warmup, options.warmupSeconds, options.iterations,
                Collector.inUse());
        Measurement measurement = new Measurement(options, out);
        List<Result> results = new ArrayList<>();
        Map<String, Object> machine = Machine.describe();
        String commit = RunInfo.currentCommit();
        Map<String, String> settings = description.settings(machine, pool);
        long start = System.nanoTime();
        try (Runtimes runtimes = new Runtimes(workers, budget, options.idleSpin, options.peerConfigs,
                options.poolFifo)) {
            int index = 0;
            for (Benchmark b : benchmarks) {
                index++;
                results.add(measurement.measure(b, index, benchmarks.size(), runtimes));
                if (options.json != null && index < benchmarks.size()) {
                    try {
                        writePartial(new RunInfo(started, RunInfo.now(), commit, options.arguments, settings),
                                machine, config, results, benchmarks.size());
                    } catch (IOException | RuntimeException e) {   // the run goes on; the last write may do
                        out.printf("  (the report so far could not be written to %s: %s)%n", options.json, e);
                    }
                }
            }
        } catch (Exception e) {
            throw new IOException("benchmark run failed", e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        out.printf("%ncollector: %s%n", Collector.inUse());
        out.print(TableReport.render(results));
        out.printf("%nTotal time %d m %02d s.%n", took.toMinutes(), took.toSecondsPart());
        RunInfo run = new RunInfo(started, RunInfo.now(), commit, options.arguments, settings);
        if (options.json != null) {
            JsonReport.write(options.json, run, machine, config, results);
            out.println("JSON report: " + options.json.toAbsolutePath());
        }
        if (options.html != null) {
            Path page = HtmlReport.write(options.html, run, machine, config, results);
            out.println("HTML report: " + page.toAbsolutePath());
        }
        return results;
    }

    /**
     * Writes the report of the benchmarks measured so far, so that a JVM ended before the rest (a peer's fatal-error
     * handler calls {@code System.exit}) leaves them: the config's {@code "partial"} says how many of how many, and
     * the complete report replaces it at the end.
     */
    private void writePartial(RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                              List<Result> results, int total) throws IOException {
        Map<String, Object> partialConfig = new LinkedHashMap<>(config);
        partialConfig.put("partial", results.size() + " of " + total + " benchmarks measured; the JVM had not"
                + " finished the rest when this was written");
        JsonReport.write(options.json, run, machine, partialConfig, results);
    }

    /**
     * Runs the harness {@code --runs} times, each in its own JVM ({@link ChildRuns}), one after the other, then
     * prints and writes the merged results ({@link Runs}).
     *
     * <p>A run that fails (its JVM exits with anything but 0) is reported and tried once more; one that fails twice
     * is left out and the others are merged. The table's heading and both reports name every failed attempt
     * ({@link #failedRuns()}).
     *
     * @throws ChildRuns.Failure on a usage error, or if no run completed
     */
    Runs runInChildren(List<Benchmark> benchmarks) throws IOException {
        OffsetDateTime started = RunInfo.now();
        String commit = RunInfo.currentCommit();
        RunDescription description = new RunDescription(options);
        Map<String, Object> config = description.configuration(benchmarks);
        out.printf(Locale.ROOT, "%d runs of the harness, each in its own JVM, one after the other; collector %s%n",
                options.runs, Collector.inUse());
        ChildRuns children = new ChildRuns(ChildRuns.thisJvm(commit), ChildRuns.childArguments(options.arguments),
                options.runs, out);
        if (options.json != null) {
            children.keepingFailedReportsBeside(options.json);
        }
        ChildRuns.Outcome outcome = children.run();
        failedRuns = outcome.failures();
        Runs runs = new Runs(outcome.results());
        List<String> failed = failedRuns.stream().map(Throwable::getMessage).toList();
        if (failed.isEmpty()) {
            out.printf("%n=== the %d runs merged ===%n", options.runs);
        } else if (runs.count() == options.runs) {
            out.printf(Locale.ROOT, "%n=== the %d runs merged (each completed; failed attempts: %s) ===%n",
                    options.runs, String.join("; ", failed));
            config.put("failed_runs", failed);
        } else {
            out.printf(Locale.ROOT, "%n=== the %d runs that completed, of %d, merged (%s) ===%n", runs.count(),
                    options.runs, String.join("; ", failed));
            config.put("failed_runs", failed);
        }
        out.printf("collector: %s%n", Collector.inUse());
        out.print(TableReport.render(runs));
        Map<String, Object> machine = Machine.describe();
        boolean pool = benchmarks.stream().anyMatch(b -> b.peer() == Benchmark.Peer.FORK_JOIN_POOL);
        Map<String, String> settings = description.settings(machine, pool);
        if (!failed.isEmpty()) {
            settings.put("failed runs", String.join("; ", failed) + " (left out of the merge; a run that failed once"
                    + " was tried again)");
        }
        RunInfo run = new RunInfo(started, RunInfo.now(), commit, options.arguments, settings);
        if (options.json != null) {
            JsonReport.writeRuns(options.json, run, machine, config, runs);
            out.println("JSON report: " + options.json.toAbsolutePath());
        }
        if (options.html != null) {
            Path page = HtmlReport.writeRuns(options.html, run, machine, config, runs);
            out.println("HTML report: " + page.toAbsolutePath());
        }
        return runs;
    }

    /** The failed attempts of the last {@link #runInChildren} series (a run's second attempt may have completed). */
    List<ChildRuns.Failure> failedRuns() {
        return failedRuns;
    }
}

package dev.switchboard.bench.harness;

import dev.switchboard.bench.Suite;
import dev.switchboard.bench.latency.ProbeLatency;
import dev.switchboard.task.TaskRuntime;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs every benchmark on Switchboard and on its peer (Apache Pekko, or the JDK's {@link
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
 * ./switchboard bench [--quick] [--only a,b] [--json FILE] [--html DIR] [--workers N] [--throughput N]
 *                     [--peer-config default|matched|both] [--runs N] [--iterations N] [--warmup N] [--list]
 * ./switchboard bench --compare a,b,...    (Switchboard variants against each other: {@link Comparison})
 * ./switchboard bench --probe-latency ...  (a probe's latency under endless chains: {@link ProbeLatency})
 * </pre>
 */
public final class Harness {
    private static final int MAX_WARMUP = 200;
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
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
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
                chosen = Suite.select(options.only);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (comparison != null) {
            comparison.run();
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
        Map<String, Object> config = configuration(benchmarks);
        boolean pool = benchmarks.stream().anyMatch(b -> b.peer() == Benchmark.Peer.FORK_JOIN_POOL);
        out.printf(Locale.ROOT, "Switchboard vs Apache Pekko %s%s - %d workers each; Switchboard budget %d%s; %s;"
                        + " warm-up >= %d iterations and >= %.0f s, then %d measured iterations per side%n",
                pekkoVersion(), pool ? " and ForkJoinPool" + (options.poolFifo ? " (FIFO mode)" : "") : "", workers,
                budget, describeIdleSpin(options.idleSpin), describePekko(), options.warmup, options.warmupSeconds,
                options.iterations);
        List<Result> results = new ArrayList<>();
        long start = System.nanoTime();
        try (Runtimes runtimes = new Runtimes(workers, budget, options.idleSpin, options.peerConfigs,
                options.poolFifo)) {
            int index = 0;
            for (Benchmark b : benchmarks) {
                index++;
                results.add(measure(b, index, benchmarks.size(), runtimes));
            }
        } catch (Exception e) {
            throw new IOException("benchmark run failed", e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        out.println();
        out.print(TableReport.render(results));
        out.printf("%nTotal time %d m %02d s.%n", took.toMinutes(), took.toSecondsPart());
        Map<String, Object> machine = Machine.describe();
        RunInfo run = new RunInfo(started, RunInfo.now(), RunInfo.currentCommit(), options.arguments,
                settings(machine, pool));
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
        Map<String, Object> config = configuration(benchmarks);
        out.printf(Locale.ROOT, "%d runs of the harness, each in its own JVM, one after the other%n", options.runs);
        ChildRuns.Outcome outcome = new ChildRuns(ChildRuns.thisJvm(commit),
                ChildRuns.childArguments(options.arguments), options.runs, out).run();
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
        out.print(TableReport.render(runs));
        Map<String, Object> machine = Machine.describe();
        boolean pool = benchmarks.stream().anyMatch(b -> b.peer() == Benchmark.Peer.FORK_JOIN_POOL);
        Map<String, String> settings = settings(machine, pool);
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

    /** The settings of this run in words, for the HTML page. */
    private Map<String, String> settings(Map<String, Object> machine, boolean pool) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("workers", options.workers + " per runtime");
        s.put("Switchboard", String.format(Locale.ROOT, "throughput budget %d messages per turn, handoff limit %d",
                options.throughput, TaskRuntime.DEFAULT_HANDOFF_LIMIT));
        List<String> pekko = new ArrayList<>();
        for (Side side : options.peerConfigs) {
            pekko.add(String.format(Locale.ROOT, "%s: Pekko's default dispatcher settings, throughput %d%s%s",
                    side.key(), pekkoThroughput(side), side == Side.PEKKO_MATCHED ? " (Switchboard's budget)" : "",
                    side == options.headline() ? " (the headline)" : ""));
        }
        s.put("Pekko " + pekkoVersion(), String.join("; ", pekko) + String.format(Locale.ROOT,
                "; fork-join executor with parallelism %d", options.workers));
        if (pool) {
            s.put("ForkJoinPool", poolConstruction(options) + ", for the task-parallel benchmarks");
        }
        s.put("iterations", String.format(Locale.ROOT, "%d measured per side after at least %d warm-up iterations"
                + " and %.0f s; each iteration runs every side once, in rotating order", options.iterations,
                options.warmup, options.warmupSeconds));
        s.put("runs", options.runs == 1 ? "1 (this JVM)"
                : options.runs + ", each in its own JVM, one after the other; figures are medians over the runs");
        s.put("JVM", machine.get("java_vm") + " (Java " + machine.get("java_version") + "), flags: "
                + (String.valueOf(machine.get("jvm_args")).isBlank() ? "none" : machine.get("jvm_args")));
        s.put("machine", String.format(Locale.ROOT, "%s CPUs (%s), %s %s, max heap %s MB", machine.get("cpus"),
                machine.get("cpu_model"), machine.get("os"), machine.get("arch"), machine.get("max_heap_mb")));
        s.put("arguments", options.arguments.isEmpty() ? "none" : String.join(" ", options.arguments));
        return s;
    }

    /** The Pekko configurations of this run, for the first line: which is the headline, their throughput. */
    private String describePekko() {
        List<String> parts = new ArrayList<>();
        for (Side side : options.peerConfigs) {
            parts.add(String.format(Locale.ROOT, "%s (throughput %d%s)", side.label(),
                    pekkoThroughput(side), side == options.headline() ? ", the headline" : ""));
        }
        return String.join(" and ", parts);
    }

    private int pekkoThroughput(Side side) {
        return PekkoSettings.throughput(PekkoSettings.of(side, options.workers, options.throughput));
    }

    /** The sides {@code b} runs on, Switchboard first: the Pekko configurations asked for, or the pool. */
    private List<Side> sides(Benchmark b) {
        List<Side> sides = new ArrayList<>();
        sides.add(Side.SWITCHBOARD);
        if (b.peer() == Benchmark.Peer.FORK_JOIN_POOL) {
            sides.add(Side.FORK_JOIN_POOL);
        } else {
            sides.addAll(options.peerConfigs);
        }
        return sides;
    }

    private Side headline(Benchmark b) {
        return b.peer() == Benchmark.Peer.FORK_JOIN_POOL ? Side.FORK_JOIN_POOL : options.headline();
    }

    private Result measure(Benchmark b, int index, int total, Runtimes runtimes) {
        List<Side> sides = sides(b);
        long[][] nanos = new long[sides.size()][options.iterations];
        boolean countThreads = b.peer() == Benchmark.Peer.FORK_JOIN_POOL;
        int[] mostAdded = new int[sides.size()];
        String failure = null;
        Progress progress = new Progress(out, index, total, b.name(), options.iterations, sides);
        try {
            // Warm up every side: at least the requested number of rounds and at least warmupSeconds, so short
            // benchmarks get enough runs for the JIT to settle.
            long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos((long) (options.warmupSeconds * 1000));
            long[] round = new long[sides.size()];
            for (int i = 0; i < MAX_WARMUP && (i < options.warmup || System.nanoTime() < warmupEnd); i++) {
                round(b, i, sides, runtimes, round, null);
                progress.update(i + 1, true, round);
            }
            int[] added = countThreads ? new int[sides.size()] : null;
            for (int i = 0; i < options.iterations; i++) {
                round(b, i, sides, runtimes, round, added);
                for (int s = 0; s < sides.size(); s++) {
                    nanos[s][i] = round[s];
                    if (added != null) {
                        mostAdded[s] = Math.max(mostAdded[s], added[s]);
                    }
                }
                progress.update(i + 1, false, round);
            }
        } catch (Throwable t) {
            failure = t.toString();
        }
        try {
            b.close();                      // a remote benchmark ends its child JVMs here
        } catch (Throwable t) {
            if (failure == null) {
                failure = "closing it failed: " + t;
            }
        }
        progress.done();
        System.gc();
        if (failure != null) {
            out.printf("  %s FAILED: %s%n", b.name(), failure);
            try {
                List<String> replaced = runtimes.recover(Quiescence.LIMIT_NANOS);
                if (!replaced.isEmpty()) {
                    out.printf("  (%s left stuck by it: terminated and replaced by a new one for the benchmarks"
                            + " after it)%n", String.join(" and ", replaced));
                }
            } catch (RuntimeException stuck) {
                out.printf("  (and it left a runtime stuck, which the benchmarks after it will meet: %s)%n", stuck);
            }
            return Result.failed(b, headline(b), failure);
        }
        Map<Side, Stats> peers = new EnumMap<>(Side.class);
        Map<Side, Integer> threadsAdded = new EnumMap<>(Side.class);
        for (int s = 0; s < sides.size(); s++) {
            if (s > 0) {
                peers.put(sides.get(s), Stats.of(nanos[s]));
            }
            if (countThreads) {
                threadsAdded.put(sides.get(s), mostAdded[s]);
            }
        }
        return new Result(b.name(), b.description(), b.params(), b.peer(), headline(b), options.iterations,
                Stats.of(nanos[0]), peers, threadsAdded, b.lastRunSeries(), true, null);
    }

    /**
     * One run on every side. Round {@code i} starts with side {@code i mod n} and goes round the list, so over
     * the iterations every side runs first, in the middle and last equally often. Puts the wall times into
     * {@code nanos} and, unless it is null, the threads each run added into {@code added}, both in the order of
     * {@code sides}.
     */
    private static void round(Benchmark b, int i, List<Side> sides, Runtimes runtimes, long[] nanos, int[] added)
            throws Exception {
        int n = sides.size();
        for (int k = 0; k < n; k++) {
            int s = (i + k) % n;
            ThreadPeak peak = added != null ? ThreadPeak.start() : null;
            nanos[s] = time(b, sides.get(s), runtimes);
            if (peak != null) {
                added[s] = peak.added();
            }
        }
    }

    /** Runs {@code b} once on {@code side}, checks its checksum and returns its wall time. */
    private static long time(Benchmark b, Side side, Runtimes runtimes) throws Exception {
        long t0 = System.nanoTime();
        long checksum = runtimes.run(b, side);
        long t = System.nanoTime() - t0;
        if (checksum != b.expected()) {
            throw new IllegalStateException(b.name() + " on " + side.label() + " returned checksum " + checksum
                    + ", expected " + b.expected());
        }
        runtimes.awaitQuiescence();        // untimed: nothing of this run may bleed into the next
        return t;
    }

    /** ", idle spin 50 us" for a runtime whose idle workers spin, else nothing. */
    static String describeIdleSpin(Duration spin) {
        return spin.isZero() ? "" : String.format(Locale.ROOT, ", idle spin %d us", spin.toNanos() / 1_000);
    }

    private Map<String, Object> configuration(List<Benchmark> benchmarks) {
        Map<String, Object> sb = new LinkedHashMap<>();
        sb.put("workers", options.workers);
        sb.put("throughput", options.throughput);
        sb.put("handoff_limit", TaskRuntime.DEFAULT_HANDOFF_LIMIT);
        sb.put("idle_spin_us", options.idleSpin.toNanos() / 1_000);
        sb.put("scheduler", "ForkJoinPool (FIFO mode) with a per-worker handoff slot");
        Map<String, Object> configs = new LinkedHashMap<>();
        for (Side side : options.peerConfigs) {
            Map<String, Object> pc = new LinkedHashMap<>();
            pc.put("dispatcher", "default-dispatcher, fork-join-executor");
            pc.put("parallelism", options.workers);
            pc.put("throughput", pekkoThroughput(side));
            pc.put("settings", side == Side.PEKKO_DEFAULT
                    ? "Pekko's defaults; parallelism-min = parallelism-max = workers"
                    : "Pekko's defaults; parallelism-min = parallelism-max = workers; throughput = Switchboard's"
                            + " budget");
            pc.put("headline", side == options.headline());
            configs.put(side.key(), pc);
        }
        Map<String, Object> pk = new LinkedHashMap<>();
        pk.put("version", pekkoVersion());
        pk.put("configs", configs);
        pk.put("actors", "classic AbstractActor with receiveBuilder(), Props.create(Class, Creator)");
        Map<String, Object> fj = new LinkedHashMap<>();
        fj.put("construction", poolConstruction(options));
        fj.put("mode", options.poolFifo ? "fifo" : "lifo");
        fj.put("parallelism", options.workers);
        fj.put("benchmarks", "those whose peer is the pool; the Pekko configurations do not apply to them");
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("switchboard", sb);
        c.put("pekko", pk);
        c.put("fork_join_pool", fj);
        c.put("peer_configs", options.peerConfigs.stream().map(Side::key).toList());
        c.put("headline", options.headline().key());
        c.put("warmup_iterations_min", options.warmup);
        c.put("warmup_seconds_min", options.warmupSeconds);
        c.put("measured_iterations", options.iterations);
        c.put("runs", options.runs);
        c.put("quick", options.quick);
        c.put("order", "rotating: every iteration runs each side once, starting one side further than the last");
        c.put("threads_added", "benchmarks whose peer is the pool: per side, the most over the measured iterations"
                + " of (peak live JVM platform threads during the run - live threads when it began)");
        c.put("benchmarks", benchmarks.stream().map(Benchmark::name).collect(Collectors.toList()));
        return c;
    }

    /** How the ForkJoinPool peer is made, in Java. */
    static String poolConstruction(Options options) {
        return options.poolFifo ? "new ForkJoinPool(" + options.workers + ", defaultForkJoinWorkerThreadFactory, null,"
                + " true) (FIFO mode)" : "new ForkJoinPool(" + options.workers + ")";
    }

    static String pekkoVersion() {
        try {
            return org.apache.pekko.Version.current();
        } catch (Throwable t) {
            return "unknown";
        }
    }

    /** The progress line: one line per benchmark, rewritten in place on a terminal. */
    private static final class Progress {
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

    /** Command line options. */
    static final class Options {
        static final String USAGE = """
                usage: ./switchboard bench [options]
                  --quick            fewer iterations (the whole suite in a few minutes)
                  --only a,b         run only these benchmarks (names as in --list, case-insensitive);
                                     the remote ones (RemoteThroughput, RemotePingPong: a second JVM per
                                     side) run only when named here
                  --json FILE        write the results as JSON
                  --html DIR         write an HTML report with charts into DIR
                  --workers N        worker threads for both runtimes (default: available processors)
                  --throughput N     Switchboard's budget: messages an actor processes per turn (default
                                     64); also the throughput of the matched Pekko configuration
                  --idle-spin D      how long Switchboard's idle workers spin for work before they park,
                                     e.g. 50us or 1ms (TaskRuntime.Builder.idleSpin; default 0: they park)
                  --peer-config C    the Pekko configurations to run: default (Pekko's default dispatcher
                                     settings, throughput 5: the headline), matched (throughput = the
                                     Switchboard budget) or both (default); both run in this one JVM
                  --pool-mode M      the ForkJoinPool peer's local order: lifo (new ForkJoinPool(n), what
                                     its users run: the headline) or fifo (asyncMode true, the order
                                     Switchboard's pool runs in for fairness; shows what that order costs)
                  --runs N           run the harness N times, each in its own JVM (same flags), one after
                                     the other, and report the spread of every ratio over the runs
                                     (default 1); a run whose JVM fails is named and tried once
                                     more, and left out if it fails again
                  --iterations N     measured iterations per side
                  --warmup N         minimum warm-up iterations per side
                  --warmup-seconds S minimum warm-up time per benchmark (default 5, quick 2)
                  --list             list the benchmarks (and the variants for --compare) and exit
                  --compare a,b,...  compare Switchboard sides only: the listed benchmarks interleaved in
                                     rounds, each relative to the first (e.g. an actor and its selector or
                                     monitor variants); uses --iterations as rounds (default 30, quick 15);
                                     also takes the variants --list shows for it
                  --compare-workers 1,2
                                     with --compare: run every listed benchmark on a runtime of each
                                     of these worker counts, all in this JVM, in the same rounds, and
                                     relate each to the same benchmark on the first count (instead of
                                     --workers; one benchmark is enough)
                  --probe-latency    instead of the benchmarks: the latency of a probe message while N actor
                                     chains keep the workers busy forever, one table row per N; takes
                                     --workers (default 2), --throughput, --json and:
                    --chains a,b,... chain counts N (default 0,1,2,3,4,8,16)
                    --chain-kind K   pairs (ping-pong pairs, no work) or self (actors sending to themselves,
                                     ~20 us of CPU work per message); default pairs
                    --probes N       measured probes per N (default 1000)
                    --probe-warmup N unmeasured probes first (default 100)
                    --probe-bound-ms MS  a probe not served within MS counts as starved (default 2000);
                                     3 starved in a row end that N
                    --probe-source S outside (the measuring thread sends) or actor (a relay actor inside
                                     the runtime sends); default outside""";

        /** Options only --probe-latency takes. */
        private static final Set<String> PROBE_OPTIONS = Set.of("--chains", "--chain-kind", "--probes",
                "--probe-warmup", "--probe-bound-ms", "--probe-source");
        /** Options of the benchmark runs that mean nothing to --probe-latency. */
        private static final Set<String> BENCHMARK_OPTIONS = Set.of("--quick", "--only", "--compare", "--html",
                "--iterations", "--warmup", "--warmup-seconds", "--list", "--peer-config", "--runs", "--pool-mode",
                "--compare-workers", "--idle-spin");
        /** Options of the main run that mean nothing to --compare (it runs Switchboard only). */
        private static final Set<String> MAIN_RUN_OPTIONS = Set.of("--peer-config", "--runs", "--pool-mode");

        /** The arguments as given. */
        List<String> arguments = List.of();
        boolean quick;
        boolean list;
        boolean help;
        Set<String> only;
        /** Benchmarks to compare with the first, in order; null unless --compare. */
        List<String> compare;
        /** With --compare: the worker counts to run every benchmark on, one runtime each; null for --workers. */
        List<Integer> compareWorkers;
        Path json;
        Path html;
        int workers = -1;
        int throughput = TaskRuntime.DEFAULT_THROUGHPUT;
        /** Switchboard's idle spin ({@code TaskRuntime.Builder.idleSpin}). */
        Duration idleSpin = Duration.ZERO;
        /** The Pekko configurations to run, in {@link Side} order: the first is the headline. */
        List<Side> peerConfigs = List.of(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        /** Whether the ForkJoinPool peer runs in FIFO (async) mode instead of its default LIFO order. */
        boolean poolFifo;
        /** How many times to run the harness, each in its own JVM ({@link ChildRuns}). */
        int runs = 1;
        int iterations = -1;
        int warmup = -1;
        double warmupSeconds = -1;
        /** The probe-latency tool instead of the benchmarks ({@link ProbeLatency}). */
        boolean probeLatency;
        int[] chains = {0, 1, 2, 3, 4, 8, 16};
        ProbeLatency.ChainKind chainKind = ProbeLatency.ChainKind.PAIRS;
        ProbeLatency.ProbeSource probeSource = ProbeLatency.ProbeSource.OUTSIDE;
        int probes = 1000;
        int probeWarmup = 100;
        Duration probeBound = Duration.ofSeconds(2);

        static Options parse(String[] args) {
            Options o = new Options();
            o.arguments = List.of(args);
            Set<String> given = new java.util.HashSet<>();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                given.add(a);
                switch (a) {
                    case "--quick" -> o.quick = true;
                    case "--list" -> o.list = true;
                    case "--help", "-h" -> o.help = true;
                    case "--only" -> o.only = Set.of(value(args, ++i, a).toLowerCase(Locale.ROOT).split(","));
                    case "--compare" -> o.compare = List.of(value(args, ++i, a).toLowerCase(Locale.ROOT).split(","));
                    case "--json" -> o.json = Path.of(value(args, ++i, a));
                    case "--html" -> o.html = Path.of(value(args, ++i, a));
                    case "--workers" -> o.workers = positive(value(args, ++i, a), a);
                    case "--compare-workers" -> o.compareWorkers = workerCounts(value(args, ++i, a));
                    case "--throughput" -> o.throughput = positive(value(args, ++i, a), a);
                    case "--idle-spin" -> o.idleSpin = idleSpin(value(args, ++i, a));
                    case "--peer-config" -> o.peerConfigs = peerConfigs(value(args, ++i, a));
                    case "--runs" -> o.runs = positive(value(args, ++i, a), a);
                    case "--pool-mode" -> o.poolFifo = poolFifo(value(args, ++i, a));
                    case "--iterations" -> o.iterations = positive(value(args, ++i, a), a);
                    case "--warmup" -> o.warmup = Integer.parseInt(value(args, ++i, a));
                    case "--warmup-seconds" -> o.warmupSeconds = Double.parseDouble(value(args, ++i, a));
                    case "--probe-latency" -> o.probeLatency = true;
                    case "--chains" -> o.chains = chainCounts(value(args, ++i, a));
                    case "--chain-kind" -> o.chainKind = ProbeLatency.ChainKind.parse(value(args, ++i, a));
                    case "--probe-source" -> o.probeSource = ProbeLatency.ProbeSource.parse(value(args, ++i, a));
                    case "--probes" -> o.probes = positive(value(args, ++i, a), a);
                    case "--probe-warmup" -> o.probeWarmup = nonNegative(value(args, ++i, a), a);
                    case "--probe-bound-ms" -> o.probeBound = Duration.ofMillis(positive(value(args, ++i, a), a));
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            for (String a : given) {
                if (o.probeLatency && BENCHMARK_OPTIONS.contains(a)) {
                    throw new IllegalArgumentException(a + " does not go with --probe-latency");
                }
                if (!o.probeLatency && PROBE_OPTIONS.contains(a)) {
                    throw new IllegalArgumentException(a + " needs --probe-latency");
                }
                if (o.compare != null && MAIN_RUN_OPTIONS.contains(a)) {
                    throw new IllegalArgumentException(a + " does not go with --compare");
                }
            }
            if (o.compareWorkers != null && o.compare == null) {
                throw new IllegalArgumentException("--compare-workers needs --compare");
            }
            if (o.compareWorkers != null && given.contains("--workers")) {
                throw new IllegalArgumentException("--compare-workers replaces --workers; give one of them");
            }
            if (o.workers < 0) {
                o.workers = o.probeLatency ? 2 : Runtime.getRuntime().availableProcessors();
            }
            if (o.iterations < 0) {
                o.iterations = o.compare != null ? (o.quick ? 15 : 30) : o.quick ? 7 : 15;
            }
            if (o.warmup < 0) {
                o.warmup = o.quick ? 3 : 5;
            }
            if (o.warmupSeconds < 0) {
                o.warmupSeconds = o.quick ? 2 : 5;
            }
            return o;
        }

        /** The peer side whose ratio is the headline: Pekko's defaults when they run. */
        Side headline() {
            return peerConfigs.get(0);
        }

        private static List<Side> peerConfigs(String v) {
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "default" -> List.of(Side.PEKKO_DEFAULT);
                case "matched" -> List.of(Side.PEKKO_MATCHED);
                case "both" -> List.of(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
                default -> throw new IllegalArgumentException("--peer-config takes default, matched or both, got '"
                        + v + "'");
            };
        }

        /** A duration of whole microseconds or milliseconds: 50us, 1ms; 0 for none. */
        private static Duration idleSpin(String v) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(us|ms)?").matcher(v.strip());
            if (!m.matches() || (m.group(2) == null && !m.group(1).equals("0"))) {
                throw new IllegalArgumentException("--idle-spin takes a duration such as 50us or 1ms, got '" + v
                        + "'");
            }
            long n = Long.parseLong(m.group(1));
            Duration d = "ms".equals(m.group(2)) ? Duration.ofMillis(n) : Duration.ofNanos(n * 1_000);
            if (d.compareTo(TaskRuntime.Builder.MAX_IDLE_SPIN) > 0) {
                throw new IllegalArgumentException("--idle-spin is at most "
                        + TaskRuntime.Builder.MAX_IDLE_SPIN.toMillis() + "ms, got '" + v + "'");
            }
            return d;
        }

        private static boolean poolFifo(String v) {
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "lifo" -> false;
                case "fifo" -> true;
                default -> throw new IllegalArgumentException("--pool-mode takes lifo or fifo, got '" + v + "'");
            };
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        /** A comma-separated list of chain counts, each a whole number >= 0. */
        private static int[] chainCounts(String v) {
            String[] parts = v.split(",", -1);
            int[] counts = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                try {
                    counts[i] = Integer.parseInt(parts[i].trim());
                } catch (NumberFormatException e) {
                    counts[i] = -1;
                }
                if (counts[i] < 0) {
                    throw new IllegalArgumentException("--chains takes chain counts like 0,1,2,4 (whole numbers"
                            + " >= 0), got '" + v + "'");
                }
            }
            return counts;
        }

        private static int nonNegative(String v, String option) {
            int n = number(v, option);
            if (n < 0) {
                throw new IllegalArgumentException(option + " must be at least 0, got " + n);
            }
            return n;
        }

        private static int number(String v, String option) {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " takes a whole number, got '" + v + "'");
            }
        }

        /** Distinct positive worker counts, as given: "1,2". */
        private static List<Integer> workerCounts(String value) {
            List<Integer> counts = new ArrayList<>();
            for (String v : value.split(",")) {
                int n = positive(v.trim(), "--compare-workers");
                if (counts.contains(n)) {
                    throw new IllegalArgumentException("--compare-workers lists " + n + " twice: " + value);
                }
                counts.add(n);
            }
            return List.copyOf(counts);
        }

        private static int positive(String v, String option) {
            int n = number(v, option);
            if (n < 1) {
                throw new IllegalArgumentException(option + " must be at least 1, got " + n);
            }
            return n;
        }
    }

}

package dev.switchboard.bench.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The scaling mode ({@code --scaling 1,2,4}): a set of benchmarks run at each worker count, every side
 * (Switchboard, Pekko, the {@code ForkJoinPool}) with that many workers, and how each side's time changes with the
 * workers. Each count runs in JVMs of its own ({@link ChildRuns}, with {@code --workers N}), so that one count's
 * compiled code and heap do not carry over to the next; with {@code --runs R} every count runs R times, the counts
 * taking turns (1, 2, 4, 1, 2, 4, ...) so that a machine that slows down for a while slows them alike. The report
 * ({@link ScalingReport}) gives per benchmark and side the median time at each count and the speedup over the first
 * count, and per peer side the ratio at each count.
 */
final class Scaling {
    /**
     * The benchmarks {@code --scaling} runs when {@code --only} names none: independent pairs, a many-to-many
     * program, a hot server, the readers-writer dictionary, the transactional list and two task-parallel ones.
     */
    static final List<String> DEFAULT_SET = List.of("PingPongPairs8", "Big", "HotServer20Map",
            "DictRead150K-ReadersWriter", "TxList-Read-Dynamic-Tx", "FibFuture", "ParallelLoop");

    /** What the children must not be given: the parent's own options (with their values). */
    private static final Set<String> PARENT_ONLY = Set.of("--scaling", "--only");

    /** One worker count: its merged runs, and the attempts that failed. */
    record Point(int workers, Runs runs, List<String> failures) {
    }

    private Scaling() {
    }

    /** The benchmarks of a scaling run: those {@code --only} names, or {@link #DEFAULT_SET}. */
    static Set<String> selection(Options options) {
        if (options.only != null) {
            return options.only;
        }
        return DEFAULT_SET.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    }

    /**
     * Runs {@code benchmarks} at each of the options' worker counts in child JVMs, prints the table, and writes the
     * JSON and HTML reports if asked.
     *
     * @return the points, one per count that completed at least once
     * @throws ChildRuns.Failure on a usage error, or if no count completed
     */
    static List<Point> run(Options options, List<Benchmark> benchmarks, PrintStream out) throws IOException {
        OffsetDateTime started = RunInfo.now();
        String commit = RunInfo.currentCommit();
        List<String> arguments = childArguments(options.arguments, benchmarks);
        out.printf(Locale.ROOT, "Scaling: %s at %s workers, %d run%s per count, each in its own JVM; collector %s%n",
                benchmarks.stream().map(Benchmark::name).collect(Collectors.joining(", ")),
                options.scaling.stream().map(String::valueOf).collect(Collectors.joining(", ")), options.runs,
                options.runs == 1 ? "" : "s", Collector.inUse());
        Map<Integer, List<List<Result>>> results = new LinkedHashMap<>();
        Map<Integer, List<String>> failures = new LinkedHashMap<>();
        for (int workers : options.scaling) {
            results.put(workers, new ArrayList<>());
            failures.put(workers, new ArrayList<>());
        }
        ChildRuns.Failure first = null;
        for (int run = 1; run <= options.runs; run++) {
            for (int workers : options.scaling) {
                out.printf(Locale.ROOT, "%n=== %d worker%s, run %d of %d ===%n", workers, workers == 1 ? "" : "s",
                        run, options.runs);
                List<String> args = new ArrayList<>(arguments);
                args.add("--workers");
                args.add(String.valueOf(workers));
                try {
                    ChildRuns.Outcome outcome = new ChildRuns(ChildRuns.thisJvm(commit), args, 1, out).run();
                    results.get(workers).addAll(outcome.results());
                    outcome.failures().forEach(f -> failures.get(workers).add(f.getMessage()));
                } catch (ChildRuns.Failure f) {
                    if (f.exitCode() == ChildRuns.USAGE_ERROR) {
                        throw f;
                    }
                    failures.get(workers).add(f.getMessage());
                    first = first == null ? f : first;
                }
            }
        }
        List<Point> points = new ArrayList<>();
        for (int workers : options.scaling) {
            if (results.get(workers).isEmpty()) {
                out.printf("bench: no run at %d workers completed: %s%n", workers, failures.get(workers));
            } else {
                points.add(new Point(workers, new Runs(results.get(workers)), List.copyOf(failures.get(workers))));
            }
        }
        if (points.isEmpty()) {
            throw first;
        }
        out.printf("%ncollector: %s%n", Collector.inUse());
        out.print(ScalingReport.table(points));
        Map<String, Object> machine = Machine.describe();
        RunDescription description = new RunDescription(options);
        Map<String, Object> config = withWorkerCounts(description.configuration(benchmarks), options.scaling);
        config.put("worker_counts", options.scaling);
        config.put("runs", options.runs);
        boolean pool = benchmarks.stream().anyMatch(b -> b.peer() == Benchmark.Peer.FORK_JOIN_POOL);
        Map<String, String> settings = new LinkedHashMap<>();
        String counts = options.scaling.stream().map(String::valueOf).collect(Collectors.joining(", "));
        description.settings(machine, pool).forEach((label, text) -> settings.put(label, label.equals("workers")
                ? counts + " per runtime, one count at a time, each in JVMs of its own"
                : text.replace("parallelism " + options.workers, "parallelism = the workers")));
        RunInfo info = new RunInfo(started, RunInfo.now(), commit, options.arguments, settings);
        if (options.json != null) {
            ScalingReport.writeJson(options.json, info, machine, config, points);
            out.println("JSON report: " + options.json.toAbsolutePath());
        }
        if (options.html != null) {
            Path page = ScalingReport.writeHtml(options.html, info, machine, config, points);
            out.println("HTML report: " + page.toAbsolutePath());
        }
        return points;
    }

    /**
     * {@code config} with each worker count in it (a runtime's {@code workers}, a pool's {@code parallelism}) replaced
     * by the list of counts: a scaling run's configuration is every count's.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withWorkerCounts(Map<String, Object> config, List<Integer> counts) {
        Map<String, Object> out = new LinkedHashMap<>();
        config.forEach((key, value) -> out.put(key, key.equals("workers") || key.equals("parallelism") ? counts
                : value instanceof Map<?, ?> m ? withWorkerCounts((Map<String, Object>) m, counts) : value));
        return out;
    }

    /**
     * The arguments of every child: the parent's without {@code --scaling}, {@code --only} (and those
     * {@link ChildRuns#childArguments} leaves out), plus {@code --only} naming {@code benchmarks}.
     */
    static List<String> childArguments(List<String> parent, List<Benchmark> benchmarks) {
        List<String> kept = new ArrayList<>();
        List<String> rest = ChildRuns.childArguments(parent);
        for (int i = 0; i < rest.size(); i++) {
            if (PARENT_ONLY.contains(rest.get(i))) {
                i++;
            } else {
                kept.add(rest.get(i));
            }
        }
        kept.add("--only");
        kept.add(benchmarks.stream().map(Benchmark::name).collect(Collectors.joining(",")));
        return kept;
    }
}

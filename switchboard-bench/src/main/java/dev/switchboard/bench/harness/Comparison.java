package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Compares Switchboard variants of one workload with each other: the Switchboard sides of several benchmarks,
 * interleaved in this one JVM, each relative to the first. This is how the claims "a one-mailbox selector costs
 * what an actor costs" or "a mutex monitor costs a few percent over the plain actor" are measured: those sides
 * differ by a few percent, less than what separates two benchmarks run minutes apart on a shared machine, so
 * the harness's per-benchmark medians cannot show it, but rounds that run every variant once, in an order that
 * reverses every round, can.
 *
 * <pre>
 * ./switchboard bench --compare ForkJoinThroughput,ForkJoinThroughputSelector1,ForkJoinThroughputSelector32
 * </pre>
 *
 * Reports per variant the median and quartiles of its wall time and {@code vs first = median / first median}
 * (above 1: slower than the first). Every run's checksum is checked. With {@code --json FILE} the rows, each
 * with every measured round's time, go to a JSON report ({@link ComparisonReport}).
 *
 * <p>With several worker counts ({@code --compare-workers 1,2}), every benchmark runs on a runtime of each count,
 * all of them open in this JVM, in the same rounds: the question "is this program slower on two workers than on
 * one" is then answered within one JVM, on the same data in the same memory and the same compiled code, where
 * runs in separate JVMs add the difference between two JVMs to it. Each row then also gives
 * {@code vs 1st count = median / median of the same benchmark on the first count}.
 *
 * <pre>
 * ./switchboard bench --compare HotServer20Map,FilterBankAnyOrder --compare-workers 1,2
 * </pre>
 */
final class Comparison {
    /**
     * One variant's result: its wall times in milliseconds (the median, the quartiles, and every measured round's
     * in round order), its median relative to the first variant's, and relative to the same benchmark's on the
     * first worker count (1 with one count).
     */
    record Row(String name, int workers, double medianMs, double q1Ms, double q3Ms, double vsFirst,
               double vsFirstWorkers, double[] samplesMs) {
    }

    /** A benchmark on the runtime of one worker count. */
    private record Variant(Benchmark benchmark, int workers) {
    }

    private final List<Benchmark> benchmarks;
    private final List<Integer> workerCounts;
    private final List<Variant> variants = new ArrayList<>();
    private final int rounds;
    private final int warmupRounds;
    private final double warmupSeconds;
    private final int throughput;
    private final PrintStream out;
    private Duration idleSpin = Duration.ZERO;

    Comparison(List<Benchmark> benchmarks, int rounds, int warmupRounds, double warmupSeconds, int workers,
               int throughput, PrintStream out) {
        this(benchmarks, rounds, warmupRounds, warmupSeconds, List.of(workers), throughput, out);
    }

    /** Every benchmark on a runtime of each of {@code workerCounts} (distinct, positive), benchmark by benchmark. */
    Comparison(List<Benchmark> benchmarks, int rounds, int warmupRounds, double warmupSeconds,
               List<Integer> workerCounts, int throughput, PrintStream out) {
        if (workerCounts.isEmpty() || workerCounts.stream().anyMatch(w -> w < 1)
                || workerCounts.stream().distinct().count() != workerCounts.size()) {
            throw new IllegalArgumentException("--compare needs distinct positive worker counts, got " + workerCounts);
        }
        if (benchmarks.size() * workerCounts.size() < 2) {
            throw new IllegalArgumentException("--compare needs at least two benchmarks, or one on two worker counts,"
                    + " got " + benchmarks.size() + " on " + workerCounts);
        }
        this.benchmarks = benchmarks;
        this.workerCounts = List.copyOf(workerCounts);
        for (Benchmark b : benchmarks) {
            for (int w : workerCounts) {
                variants.add(new Variant(b, w));
            }
        }
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
        this.warmupSeconds = warmupSeconds;
        this.throughput = throughput;
        this.out = out;
    }

    /** What the comparison ran with, for the {@code config} section of its JSON report. */
    Map<String, Object> configuration() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("benchmarks", benchmarks.stream().map(Benchmark::name).toList());
        config.put("worker_counts", workerCounts);
        config.put("throughput", throughput);
        config.put("idle_spin_micros", idleSpin.toNanos() / 1_000);
        config.put("rounds", rounds);
        config.put("warmup_rounds", warmupRounds);
        config.put("warmup_seconds", warmupSeconds);
        return config;
    }

    /** Runs the benchmarks on runtimes whose idle workers spin for {@code spin} before they park. */
    Comparison idleSpin(Duration spin) {
        this.idleSpin = spin;
        return this;
    }

    /**
     * Closes the runtimes and every benchmark (a remote one ends its child JVMs), each whatever the others do. A
     * failure to close is added to {@code failed}, the run's own failure, if there is one, and thrown otherwise.
     */
    private void closeAll(Collection<TaskRuntime> runtimes, Throwable failed) throws Exception {
        Exception closing = null;
        for (TaskRuntime runtime : runtimes) {
            runtime.close();
        }
        for (Benchmark b : benchmarks) {
            try {
                b.close();
            } catch (Exception e) {
                if (failed != null) {
                    failed.addSuppressed(e);
                } else if (closing == null) {
                    closing = e;
                } else {
                    closing.addSuppressed(e);
                }
            }
        }
        if (closing != null) {
            throw closing;
        }
    }

    List<Row> run() throws Exception {
        int n = variants.size();
        double[][] ms = new double[n][rounds];
        boolean counts = workerCounts.size() > 1;
        String workers = workerCounts.stream().map(String::valueOf).collect(Collectors.joining(" and "));
        out.printf(Locale.ROOT, "Switchboard variants, %s workers%s, throughput %d%s: warm-up >= %d rounds and >="
                + " %.0f s, then %d rounds, each running every variant once (order reversed every round)%n",
                workers, counts ? " (a runtime of each, in this JVM)" : "", throughput,
                RunDescription.describeIdleSpin(idleSpin), warmupRounds, warmupSeconds, rounds);
        Map<Integer, TaskRuntime> runtimes = new LinkedHashMap<>();
        Map<Integer, Quiescence> quiescence = new LinkedHashMap<>();
        Throwable failed = null;
        try {
            for (int w : workerCounts) {
                TaskRuntime runtime = TaskRuntime.builder().name(counts ? "switchboard-" + w + "w" : "switchboard")
                        .workers(w).throughput(throughput).idleSpin(idleSpin).build();
                runtimes.put(w, runtime);
                quiescence.put(w, new Quiescence(runtime, List.of(), null));
            }
            long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos((long) (warmupSeconds * 1000));
            for (int r = 0; r < warmupRounds || System.nanoTime() < warmupEnd; r++) {
                round(runtimes, quiescence, r, null);
                out.print('w');
            }
            for (int r = 0; r < rounds; r++) {
                round(runtimes, quiescence, r, ms);
                out.print('.');
            }
        } catch (Throwable t) {
            failed = t;
            throw t;
        } finally {
            closeAll(runtimes.values(), failed);
        }
        out.println();
        List<Row> rows = new ArrayList<>();
        double first = 0;
        double firstCount = 0;
        for (int i = 0; i < n; i++) {
            double[] sorted = ms[i].clone();
            Arrays.sort(sorted);
            double median = quantile(sorted, 0.5);
            if (i == 0) {
                first = median;
            }
            if (i % workerCounts.size() == 0) {
                firstCount = median;                 // the same benchmark on the first worker count
            }
            Variant v = variants.get(i);
            rows.add(new Row(v.benchmark().name(), v.workers(), median, quantile(sorted, 0.25),
                    quantile(sorted, 0.75), median / first, median / firstCount, ms[i].clone()));
        }
        String count = "vs " + workerCounts.get(0) + (workerCounts.get(0) == 1 ? " worker" : " workers");
        out.printf("%-40s %10s %10s %10s %9s%s%n", "benchmark (Switchboard side)", "median", "q1", "q3", "vs first",
                counts ? String.format("%12s", count) : "");
        for (Row row : rows) {
            String name = counts ? row.name() + " (" + row.workers() + (row.workers() == 1 ? " worker)" : " workers)")
                    : row.name();
            out.printf(Locale.ROOT, "%-40s %10.2f %10.2f %10.2f %9.3f%s%n", name, row.medianMs(), row.q1Ms(),
                    row.q3Ms(), row.vsFirst(), counts ? String.format(Locale.ROOT, "%12.3f", row.vsFirstWorkers())
                            : "");
        }
        out.println("(times in ms; vs first = median / median of " + rows.get(0).name()
                + (counts ? " on " + workerCounts.get(0) + "; " + count + " = median / median of the same benchmark"
                        + " on " + workerCounts.get(0) : "") + ")");
        return rows;
    }

    /**
     * Runs every variant once, forwards in even rounds and backwards in odd ones, each on the runtime of its worker
     * count; records times if asked.
     */
    private void round(Map<Integer, TaskRuntime> runtimes, Map<Integer, Quiescence> quiescence, int r,
                       double[][] ms) throws Exception {
        int n = variants.size();
        for (int j = 0; j < n; j++) {
            int i = r % 2 == 0 ? j : n - 1 - j;
            Variant v = variants.get(i);
            Benchmark b = v.benchmark();
            long start = System.nanoTime();
            long checksum = b.runSwitchboard(runtimes.get(v.workers()));
            long took = System.nanoTime() - start;
            if (checksum != b.expected()) {
                throw new IllegalStateException(b.name() + " on " + v.workers() + " workers computed " + checksum
                        + ", expected " + b.expected());
            }
            if (ms != null) {
                ms[i][r] = took / 1e6;
            }
            // untimed; a runtime still busy after ten seconds is stuck, and the comparison fails naming it
            quiescence.get(v.workers()).await(Quiescence.LIMIT_NANOS);
        }
    }

    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }
}

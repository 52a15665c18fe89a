package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

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
 * (above 1: slower than the first). Every run's checksum is checked.
 */
final class Comparison {
    /** One variant's result: its wall times in milliseconds, and its median relative to the first variant's. */
    record Row(String name, double medianMs, double q1Ms, double q3Ms, double vsFirst) {
    }

    private final List<Benchmark> variants;
    private final int rounds;
    private final int warmupRounds;
    private final double warmupSeconds;
    private final int workers;
    private final int throughput;
    private final PrintStream out;

    Comparison(List<Benchmark> variants, int rounds, int warmupRounds, double warmupSeconds, int workers,
               int throughput, PrintStream out) {
        if (variants.size() < 2) {
            throw new IllegalArgumentException("--compare needs at least two benchmarks, got " + variants.size());
        }
        this.variants = variants;
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
        this.warmupSeconds = warmupSeconds;
        this.workers = workers;
        this.throughput = throughput;
        this.out = out;
    }

    List<Row> run() throws Exception {
        int n = variants.size();
        double[][] ms = new double[n][rounds];
        out.printf(Locale.ROOT, "Switchboard variants, %d workers, throughput %d: warm-up >= %d rounds and >= %.0f s,"
                + " then %d rounds, each running every variant once (order reversed every round)%n",
                workers, throughput, warmupRounds, warmupSeconds, rounds);
        try (TaskRuntime runtime = TaskRuntime.builder().name("switchboard").workers(workers)
                .throughput(throughput).build()) {
            Quiescence quiescence = new Quiescence(runtime, List.of(), null);
            long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos((long) (warmupSeconds * 1000));
            for (int r = 0; r < warmupRounds || System.nanoTime() < warmupEnd; r++) {
                round(runtime, quiescence, r, null);
                out.print('w');
            }
            for (int r = 0; r < rounds; r++) {
                round(runtime, quiescence, r, ms);
                out.print('.');
            }
        } finally {
            for (Benchmark b : variants) {
                b.close();
            }
        }
        out.println();
        List<Row> rows = new ArrayList<>();
        double first = 0;
        for (int i = 0; i < n; i++) {
            double[] sorted = ms[i].clone();
            Arrays.sort(sorted);
            double median = quantile(sorted, 0.5);
            if (i == 0) {
                first = median;
            }
            rows.add(new Row(variants.get(i).name(), median, quantile(sorted, 0.25), quantile(sorted, 0.75),
                    median / first));
        }
        out.printf("%-40s %10s %10s %10s %9s%n", "benchmark (Switchboard side)", "median", "q1", "q3", "vs first");
        for (Row row : rows) {
            out.printf(Locale.ROOT, "%-40s %10.2f %10.2f %10.2f %9.3f%n", row.name(), row.medianMs(), row.q1Ms(),
                    row.q3Ms(), row.vsFirst());
        }
        out.println("(times in ms; vs first = median / median of " + variants.get(0).name() + ")");
        return rows;
    }

    /** Runs every variant once, forwards in even rounds and backwards in odd ones; records times if asked. */
    private void round(TaskRuntime runtime, Quiescence quiescence, int r, double[][] ms) throws Exception {
        int n = variants.size();
        for (int j = 0; j < n; j++) {
            int i = r % 2 == 0 ? j : n - 1 - j;
            Benchmark b = variants.get(i);
            long start = System.nanoTime();
            long checksum = b.runSwitchboard(runtime);
            long took = System.nanoTime() - start;
            if (checksum != b.expected()) {
                throw new IllegalStateException(b.name() + " computed " + checksum + ", expected " + b.expected());
            }
            if (ms != null) {
                ms[i][r] = took / 1e6;
            }
            // untimed; a runtime still busy after ten seconds is stuck, and the comparison fails naming it
            quiescence.await(Quiescence.LIMIT_NANOS);
        }
    }

    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }
}

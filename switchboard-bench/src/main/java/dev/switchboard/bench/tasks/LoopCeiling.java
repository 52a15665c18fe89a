package dev.switchboard.bench.tasks;

import static dev.switchboard.Switchboard.forasync;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.Rounds;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * What {@link ParallelLoop}'s two runtimes add to its loops on this machine: for each, the time its run would take
 * if the runtime cost nothing (its ceiling), beside the benchmark's own two programs, the sides taking turns round
 * after round in one JVM. That JVM first runs the suite's other task-parallel benchmarks, as the harness's JVM has
 * before ParallelLoop, so that the JIT has seen their tasks too; it does not recreate the harness's JVM.
 *
 * <p>Four sides take turns: the benchmark's Switchboard and pool programs as the harness runs them, and a copy of
 * each that also times every chunk's loop. For a timed side, the sum of its chunks' times over the workers is its
 * ceiling: its copy of the loop, as the JIT compiled it, split between the workers with nothing spent on spawning,
 * stealing or joining. The tool reports the fraction of that ceiling each timed side reaches (1: the runtime added
 * nothing), from the medians of the run's time and of its loops' time. The copies are compiled apart from the
 * benchmark's programs, so what they show is what each runtime adds, not the benchmark's own ratio; their time per
 * iteration says what the JIT made of each copy of the same source.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.tasks.LoopCeiling [ROUNDS (60)] [--alone]
 * </pre>
 *
 * {@code --alone} skips the other task-parallel benchmarks first.
 */
public final class LoopCeiling {
    /** Medians over the measured rounds (the second half), in milliseconds; per iteration in nanoseconds. */
    record Result(int workers, double switchboardMs, double poolMs, double timedSwitchboardMs,
            double switchboardLoopMs, double timedPoolMs, double poolLoopMs, int iterations) {
        /** The harness's ratio: the pool's time over Switchboard's. */
        double ratio() {
            return poolMs / switchboardMs;
        }

        /** The timed Switchboard side's ceiling over its time: 1 when the runtime cost nothing. */
        double switchboardOfCeiling() {
            return switchboardLoopMs / workers / timedSwitchboardMs;
        }

        /** The same for the pool. */
        double poolOfCeiling() {
            return poolLoopMs / workers / timedPoolMs;
        }

        double switchboardNsPerIteration() {
            return switchboardLoopMs * 1e6 / iterations;
        }

        double poolNsPerIteration() {
            return poolLoopMs * 1e6 / iterations;
        }
    }

    private LoopCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 60;
        boolean alone = false;
        for (String arg : args) {
            if (arg.equals("--alone")) {
                alone = true;
            } else {
                rounds = Rounds.positive(arg, "ROUNDS");
            }
        }
        Result r = measure(new ParallelLoop(), 2, rounds, alone ? 0 : 40);
        System.out.printf(Locale.ROOT, "ParallelLoop, %d workers, %s, median of %d rounds:%n", r.workers(),
                alone ? "alone in its JVM" : "after the suite's other task-parallel benchmarks", rounds - rounds / 2);
        System.out.printf(Locale.ROOT, "  the benchmark's programs: Switchboard %.2f ms, pool %.2f ms, ratio %.3f%n",
                r.switchboardMs(), r.poolMs(), r.ratio());
        System.out.printf(Locale.ROOT, "  timed Switchboard: %.2f ms, its loops %.2f ms (%.2f ns an iteration),"
                + " of its ceiling %.3f%n", r.timedSwitchboardMs(), r.switchboardLoopMs(),
                r.switchboardNsPerIteration(), r.switchboardOfCeiling());
        System.out.printf(Locale.ROOT, "  timed pool:        %.2f ms, its loops %.2f ms (%.2f ns an iteration),"
                + " of its ceiling %.3f%n", r.timedPoolMs(), r.poolLoopMs(), r.poolNsPerIteration(),
                r.poolOfCeiling());
    }

    /**
     * Runs {@code warmRuns} runs of each side of the suite's other task-parallel benchmarks, then the four sides of
     * {@code loop} for {@code rounds} rounds, on {@code workers} workers and a pool of as many threads; checks every
     * checksum.
     */
    static Result measure(ParallelLoop loop, int workers, int rounds, int warmRuns) throws Exception {
        int iterations = (int) loop.params().get("iterations");
        int chunk = (int) loop.params().get("chunk");
        int chunks = (int) loop.params().get("chunks");
        long[][] times;
        long[][] loopNanos = new long[2][rounds];
        int[] round = new int[1];
        try (TaskRuntime runtime = TaskRuntime.create(workers); ForkJoinPool pool = new ForkJoinPool(workers)) {
            for (Benchmark other : List.<Benchmark>of(new FibFuture(), new FibFinish(), new Sort())) {
                for (int i = 0; i < warmRuns; i++) {
                    check(other.name(), other.runSwitchboard(runtime), other.expected());
                    check(other.name(), other.runForkJoin(pool), other.expected());
                }
            }
            long[] switchboardChunks = new long[chunks];
            long[] poolChunks = new long[chunks];
            Rounds.Run[] runs = {
                () -> loop.runSwitchboard(runtime),
                () -> loop.runForkJoin(pool),
                () -> {
                    Arrays.fill(switchboardChunks, 0);
                    long sum = timedSwitchboard(runtime, iterations, chunk, chunks, switchboardChunks);
                    loopNanos[0][round[0]] = totalOfEvery(switchboardChunks, "Switchboard");
                    return sum;
                },
                () -> {
                    Arrays.fill(poolChunks, 0);
                    long sum = pool.invoke(new TimedChunks(iterations, chunk, poolChunks));
                    loopNanos[1][round[0]] = totalOfEvery(poolChunks, "the pool");
                    return sum;
                },
            };
            times = Rounds.takeTurns("ParallelLoop", runs, rounds, loop.expected(), () -> round[0]++);
        }
        return new Result(workers, Rounds.medianOfSecondHalfMs(times[0]), Rounds.medianOfSecondHalfMs(times[1]),
                Rounds.medianOfSecondHalfMs(times[2]), Rounds.medianOfSecondHalfMs(loopNanos[0]),
                Rounds.medianOfSecondHalfMs(times[3]), Rounds.medianOfSecondHalfMs(loopNanos[1]), iterations);
    }

    private static void check(String what, long sum, long expected) {
        if (sum != expected) {
            throw new IllegalStateException(what + " summed " + sum + ", expected " + expected);
        }
    }

    /**
     * The sum of every chunk's time.
     *
     * @throws IllegalStateException naming {@code side} if a chunk's time is missing (a chunk that was not timed)
     */
    private static long totalOfEvery(long[] nanos, String side) {
        for (int c = 0; c < nanos.length; c++) {
            if (nanos[c] <= 0) {
                throw new IllegalStateException("LoopCeiling: " + side + "'s timed run left chunk " + c + " untimed");
            }
        }
        return Arrays.stream(nanos).sum();
    }

    /** {@link SwitchboardParallelLoop}'s program, each chunk's loop timed into {@code nanos}. */
    private static long timedSwitchboard(TaskRuntime runtime, int iterations, int chunk, int chunks, long[] nanos) {
        long[] partial = new long[chunks];
        runtime.finish(() -> forasync(0, chunks, 1, c -> {
            long start = System.nanoTime();
            int from = c * chunk;
            int to = (int) Math.min(iterations, (long) from + chunk);
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += ParallelLoop.term(i);
            }
            partial[c] = sum;
            nanos[c] = Math.max(1, System.nanoTime() - start);          // 0 means untimed
        }));
        return Arrays.stream(partial).sum();
    }

    /** {@link ForkJoinParallelLoop}'s program, each chunk's loop timed into {@code nanos}. */
    private static final class TimedChunks extends RecursiveTask<Long> {
        private final int iterations;
        private final int chunk;
        private final long[] nanos;

        TimedChunks(int iterations, int chunk, long[] nanos) {
            this.iterations = iterations;
            this.chunk = chunk;
            this.nanos = nanos;
        }

        @Override
        protected Long compute() {
            List<TimedChunk> chunks = new ArrayList<>();
            for (long from = 0; from < iterations; from += chunk) {
                chunks.add(new TimedChunk((int) from, (int) Math.min(iterations, from + chunk), chunks.size(), nanos));
            }
            long total = 0;
            for (TimedChunk c : invokeAll(chunks)) {
                total += c.join();
            }
            return total;
        }
    }

    private static final class TimedChunk extends RecursiveTask<Long> {
        private final int from;
        private final int to;
        private final int index;
        private final long[] nanos;

        TimedChunk(int from, int to, int index, long[] nanos) {
            this.from = from;
            this.to = to;
            this.index = index;
            this.nanos = nanos;
        }

        @Override
        protected Long compute() {
            long start = System.nanoTime();
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += ParallelLoop.term(i);
            }
            nanos[index] = Math.max(1, System.nanoTime() - start);      // 0 means untimed
            return sum;
        }
    }
}

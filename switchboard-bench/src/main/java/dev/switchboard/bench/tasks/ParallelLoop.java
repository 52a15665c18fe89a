package dev.switchboard.bench.tasks;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * A parallel loop with a reduction: the sum of {@link #term}{@code (i)} (a 64-bit hash, a few nanoseconds) over
 * {@code [0, iterations)}, the range cut into chunks of {@code chunk} iterations, each chunk summed into its own
 * accumulator and the accumulators added at the end. Switchboard runs one iteration of a
 * {@code forasync(0, chunks, 1, ...)} in the run's finish per chunk (what {@code forall} does); the peer forks one
 * {@code RecursiveTask} per chunk with {@code invokeAll} and adds their results.
 */
public final class ParallelLoop implements Benchmark {
    private final int iterations;
    private final int chunk;
    private Long expected;

    /**
     * @param iterations  the loop's range is {@code [0, iterations)} (at least 1)
     * @param chunk       iterations per chunk (task) and accumulator (at least 1)
     */
    public ParallelLoop(int iterations, int chunk) {
        if (iterations < 1) {
            throw new IllegalArgumentException("ParallelLoop: iterations must be at least 1, got " + iterations);
        }
        if (chunk < 1) {
            throw new IllegalArgumentException("ParallelLoop: chunk must be at least 1, got " + chunk);
        }
        this.iterations = iterations;
        this.chunk = chunk;
    }

    /** 2^24 iterations in 256 chunks of 65,536. */
    public ParallelLoop() {
        this(1 << 24, 1 << 16);
    }

    @Override
    public String name() {
        return "ParallelLoop";
    }

    @Override
    public String description() {
        return "sum of a hash over " + iterations + " iterations in chunks of " + chunk + ": forasync over the"
                + " chunks in a finish (Switchboard) vs invokeAll of one RecursiveTask per chunk";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", iterations);
        m.put("chunk", chunk);
        m.put("chunks", chunks());
        return m;
    }

    @Override
    public Peer peer() {
        return Peer.FORK_JOIN_POOL;
    }

    /** The sum by one sequential loop over the whole range. */
    @Override
    public synchronized long expected() {
        if (expected == null) {
            long sum = 0;
            for (int i = 0; i < iterations; i++) {
                sum += term(i);
            }
            expected = sum;
        }
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardParallelLoop.run(runtime, iterations, chunk, chunks());
    }

    @Override
    public long runForkJoin(ForkJoinPool pool) {
        return ForkJoinParallelLoop.run(pool, iterations, chunk);
    }

    private int chunks() {
        return (int) (((long) iterations + chunk - 1) / chunk);
    }

    /** The per-iteration work: SplitMix64's finalizer of the index. */
    static long term(int i) {
        long z = i * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

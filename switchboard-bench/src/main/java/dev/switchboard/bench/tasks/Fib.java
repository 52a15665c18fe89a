package dev.switchboard.bench.tasks;

import dev.switchboard.bench.harness.Benchmark;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * Recursive Fibonacci, the classic fork/join micro benchmark: {@code fib(n)} spawns {@code fib(n - 1)}, computes
 * {@code fib(n - 2)} itself and adds the two; below {@code threshold} it recurses sequentially. The two
 * Switchboard variants ({@link FibFuture}, {@link FibFinish}) differ in how they spawn and join; the peer of both is
 * the same {@code RecursiveTask} (fork, compute, join). The checksum is {@code fib(n)}.
 */
abstract sealed class Fib implements Benchmark permits FibFuture, FibFinish {
    /** The largest n accepted: fib(50) already makes some 40 billion calls. */
    static final int MAX_N = 50;

    final int n;
    final int threshold;
    private final long expected;

    Fib(int n, int threshold) {
        if (n < 0 || n > MAX_N) {
            throw new IllegalArgumentException(getClass().getSimpleName() + ": n must be between 0 and " + MAX_N
                    + ", got " + n);
        }
        if (threshold < 2) {
            throw new IllegalArgumentException(getClass().getSimpleName() + ": threshold must be at least 2 (a"
                    + " parallel call computes fib(n - 2)), got " + threshold);
        }
        this.n = n;
        this.threshold = threshold;
        this.expected = iterative(n);
    }

    @Override
    public Peer peer() {
        return Peer.FORK_JOIN_POOL;
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", n);
        m.put("threshold", threshold);
        return m;
    }

    @Override
    public long expected() {
        return expected;
    }

    @Override
    public long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new ForkJoinFib(n, threshold));
    }

    /** The sequential recursion both sides run below the threshold. */
    static long sequential(int n) {
        return n < 2 ? n : sequential(n - 1) + sequential(n - 2);
    }

    /** fib(n) by iteration, independently of either side's recursion. */
    static long iterative(int n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n; i++) {
            long next = a + b;
            a = b;
            b = next;
        }
        return a;
    }
}

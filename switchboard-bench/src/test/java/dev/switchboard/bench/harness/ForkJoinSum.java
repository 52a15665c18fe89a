package dev.switchboard.bench.harness;

import dev.switchboard.Switchboard;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.atomic.LongAdder;

/**
 * A small task-parallel benchmark for the harness's tests, whose peer is the {@link ForkJoinPool}: the sum of
 * {@code 0 .. n-1}, split in halves down to {@code leaf} numbers; a {@link RecursiveTask} on the pool, {@code
 * async} tasks in a {@code finish} on Switchboard.
 */
final class ForkJoinSum implements Benchmark {
    private final int n;
    private final int leaf;

    ForkJoinSum(int n, int leaf) {
        this.n = n;
        this.leaf = leaf;
    }

    @Override
    public String name() {
        return "ForkJoinSum";
    }

    @Override
    public String description() {
        return "sum of 0..n-1 by recursive halving";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("n", n, "leaf", leaf);
    }

    @Override
    public long expected() {
        return (long) n * (n - 1) / 2;
    }

    @Override
    public Peer peer() {
        return Peer.FORK_JOIN_POOL;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        LongAdder sum = new LongAdder();
        runtime.finish(() -> sum(0, n, sum));
        return sum.sum();
    }

    private void sum(int from, int to, LongAdder sum) {
        if (to - from <= leaf) {
            long s = 0;
            for (int i = from; i < to; i++) {
                s += i;
            }
            sum.add(s);
            return;
        }
        int mid = (from + to) >>> 1;
        Switchboard.async(() -> sum(from, mid, sum));
        sum(mid, to, sum);
    }

    @Override
    public long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new Half(0, n));
    }

    private final class Half extends RecursiveTask<Long> {
        private final int from;
        private final int to;

        Half(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long compute() {
            if (to - from <= leaf) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += i;
                }
                return s;
            }
            int mid = (from + to) >>> 1;
            Half left = new Half(from, mid);
            left.fork();
            return new Half(mid, to).compute() + left.join();
        }
    }
}

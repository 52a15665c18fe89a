package dev.switchboard.bench.tasks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/** The loop on the pool: one {@code RecursiveTask} per chunk, all forked by {@code invokeAll}, then joined. */
final class ForkJoinParallelLoop {
    private ForkJoinParallelLoop() {
    }

    static long run(ForkJoinPool pool, int iterations, int chunk) {
        return pool.invoke(new RecursiveTask<Long>() {
            @Override
            protected Long compute() {
                List<ChunkSum> chunks = new ArrayList<>();
                for (long from = 0; from < iterations; from += chunk) {
                    chunks.add(new ChunkSum((int) from, (int) Math.min(iterations, from + chunk)));
                }
                long total = 0;
                for (ChunkSum c : invokeAll(chunks)) {
                    total += c.join();
                }
                return total;
            }
        });
    }

    /** The sum of one chunk's terms. */
    static final class ChunkSum extends RecursiveTask<Long> {
        private final int from;
        private final int to;

        ChunkSum(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long compute() {
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += ParallelLoop.term(i);
            }
            return sum;
        }
    }
}

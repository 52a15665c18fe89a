package dev.switchboard.bench.tasks;

import java.util.concurrent.RecursiveTask;

/** Fibonacci as the {@code RecursiveTask} of the {@code ForkJoinTask} documentation: fork, compute, join. */
final class ForkJoinFib extends RecursiveTask<Long> {
    private final int n;
    private final int threshold;

    ForkJoinFib(int n, int threshold) {
        this.n = n;
        this.threshold = threshold;
    }

    @Override
    protected Long compute() {
        if (n < threshold) {
            return Fib.sequential(n);
        }
        ForkJoinFib first = new ForkJoinFib(n - 1, threshold);
        first.fork();
        long second = new ForkJoinFib(n - 2, threshold).compute();
        return first.join() + second;
    }
}

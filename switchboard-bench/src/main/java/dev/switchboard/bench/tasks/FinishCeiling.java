package dev.switchboard.bench.tasks;

import dev.switchboard.bench.harness.Rounds;
import dev.switchboard.task.TaskRuntime;
import java.util.Locale;
import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinPool;

/**
 * What a finish costs at the least on this machine: {@link FibFinish}'s recursion written with the fewest operations
 * a finish needs, on the JDK's {@code ForkJoinPool}, beside the benchmark's two programs (Switchboard's finish and the
 * pool's {@code RecursiveTask}), the three taking turns round after round in one JVM.
 *
 * <p>A finish waits for every task its body spawned and every task those spawned; a {@code RecursiveTask}'s join
 * waits for one task. The least finish is a {@link CountedCompleter} per call: a child of the finish it is nested
 * in (so that a worker waiting for it can help with its tasks wherever they are queued), counting its one
 * {@code async} as a pending child, completed by the end of its body and by its child's completion, and joined
 * ({@code quietlyJoin} helps with its queued tasks). It keeps no diagnostics, collects no failures, checks no
 * runtime state, and is handed its enclosing node as an argument where Switchboard finds it from the thread. So its
 * time is what a finish with the fewest operations costs on this pool, and the pool's time over it is the highest
 * ratio such a finish shows against the pool in this benchmark.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.tasks.FinishCeiling [ROUNDS (300)]
 * </pre>
 */
public final class FinishCeiling {
    /** Medians over the measured rounds (the second half), in milliseconds. */
    record Result(int workers, double switchboardMs, double poolMs, double leastFinishMs) {
        /** The harness's ratio: the pool's time over Switchboard's. */
        double ratio() {
            return poolMs / switchboardMs;
        }

        /** The ratio's ceiling: the pool's time over the least finish's. */
        double ceiling() {
            return poolMs / leastFinishMs;
        }

        /** The fraction of the ceiling Switchboard reaches: the least finish's time over Switchboard's. */
        double ofCeiling() {
            return leastFinishMs / switchboardMs;
        }
    }

    private FinishCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Rounds.positive(args[0], "ROUNDS") : 300;
        Result r = measure(new FibFinish(), 2, rounds);
        System.out.printf(Locale.ROOT, "FibFinish, %d workers, median of %d rounds:%n", r.workers(),
                rounds - rounds / 2);
        System.out.printf(Locale.ROOT, "  Switchboard %.2f ms, pool %.2f ms, least finish %.2f ms%n",
                r.switchboardMs(), r.poolMs(), r.leastFinishMs());
        System.out.printf(Locale.ROOT, "  ratio %.3f, its ceiling %.3f, Switchboard at %.3f of the ceiling%n",
                r.ratio(), r.ceiling(), r.ofCeiling());
    }

    /** Runs the three sides of {@code fib} for {@code rounds} rounds, on {@code workers} workers and a pool of as many. */
    static Result measure(FibFinish fib, int workers, int rounds) throws Exception {
        long[][] times;
        try (TaskRuntime runtime = TaskRuntime.create(workers); ForkJoinPool pool = new ForkJoinPool(workers)) {
            Rounds.Run[] runs = {
                () -> fib.runSwitchboard(runtime),
                () -> fib.runForkJoin(pool),
                () -> {
                    LeastRoot root = new LeastRoot(fib.n, fib.threshold);
                    pool.invoke(root);
                    return root.value;
                },
            };
            times = Rounds.takeTurns("FinishCeiling", runs, rounds, fib.expected(), () -> { });
        }
        return new Result(workers, Rounds.medianOfSecondHalfMs(times[0]), Rounds.medianOfSecondHalfMs(times[1]),
                Rounds.medianOfSecondHalfMs(times[2]));
    }

    /**
     * fib(n) with a least finish per call: {@code finish { async(fib(n - 1)); fib(n - 2) }}, where {@code enclosing}
     * is the node the finish is nested in.
     */
    static long leastFinish(int n, int threshold, CountedCompleter<?> enclosing) {
        if (n < threshold) {
            return Fib.sequential(n);
        }
        long[] r = new long[2];
        enclosing.addToPendingCount(1);               // the finish counts in the node it is nested in
        LeastScope scope = new LeastScope(enclosing);
        scope.addToPendingCount(1);                   // its async
        new LeastAsync(scope, n - 1, threshold, r).fork();
        r[1] = leastFinish(n - 2, threshold, scope);
        scope.tryComplete();                          // the body has ended
        scope.quietlyJoin();
        return r[0] + r[1];
    }

    /** A finish: done once its body has ended and its children have completed. */
    private static final class LeastScope extends CountedCompleter<Void> {
        LeastScope(CountedCompleter<?> enclosing) {
            super(enclosing);
        }

        @Override
        public void compute() {
            throw new AssertionError("a scope is never forked");
        }

        /** The pool marks only a root done; a nested scope marks itself, which ends its join. */
        @Override
        public void onCompletion(CountedCompleter<?> caller) {
            quietlyComplete();
        }
    }

    /** The finish's async: {@code fib(n)} into {@code r[0]}. */
    private static final class LeastAsync extends CountedCompleter<Void> {
        private final int n;
        private final int threshold;
        private final long[] r;

        LeastAsync(CountedCompleter<?> scope, int n, int threshold, long[] r) {
            super(scope);
            this.n = n;
            this.threshold = threshold;
            this.r = r;
        }

        @Override
        public void compute() {
            r[0] = leastFinish(n, threshold, this);
            tryComplete();
        }
    }

    /** The run's root task, as the benchmark's programs start the recursion in a task. */
    private static final class LeastRoot extends CountedCompleter<Void> {
        private final int n;
        private final int threshold;
        long value;

        LeastRoot(int n, int threshold) {
            this.n = n;
            this.threshold = threshold;
        }

        @Override
        public void compute() {
            value = leastFinish(n, threshold, this);
            tryComplete();
        }
    }
}

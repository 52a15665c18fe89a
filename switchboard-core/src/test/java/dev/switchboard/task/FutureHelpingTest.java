package dev.switchboard.task;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.future;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.testing.Runtimes;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code get()} on a worker helps before it blocks ({@link TaskFuture#get}): it runs the future's task itself if
 * nobody has started it, else helps with the tasks that task spawned. A recursion on futures then runs on the
 * workers the runtime has, instead of a new thread per blocked {@code get()} (fib(24) used to peak at 162 live
 * threads on 2 workers, fib(28) at 831).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FutureHelpingTest {
    /** Threads a pool of {@code workers} may add for waits with nothing to help (see docs/architecture.md). */
    static final int SPARE_THREADS = 4;

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        TaskFuture<Long> first = future(() -> fib(n - 1));
        long second = fib(n - 2);
        return first.get() + second;
    }

    static long sequentialFib(int n) {
        return n < 2 ? n : sequentialFib(n - 1) + sequentialFib(n - 2);
    }

    /** A future no thread has started runs on the thread that asks for its value. */
    @Test
    void getRunsAnUnstartedFutureOnTheCallingWorker() {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            AtomicReference<Thread> caller = new AtomicReference<>();
            AtomicReference<Thread> producer = new AtomicReference<>();
            rt.finish(() -> async(() -> {
                caller.set(Thread.currentThread());
                TaskFuture<Thread> f = future(Thread::currentThread);
                producer.set(f.get());
            }));
            assertThat(producer.get()).isSameAs(caller.get());
            assertThat(rt.scheduler().pool().getPoolSize()).as("threads of a 1-worker runtime").isEqualTo(1);
        }
    }

    /**
     * A future run by its getter is taken out of the worker's deque first, as {@code ForkJoinTask.join} takes its
     * task: nothing stays queued behind it for the worker to pop and skip later.
     */
    @Test
    void aFutureRunByItsGetterLeavesNothingQueued() {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            int[] queued = new int[2];
            rt.finish(() -> async(() -> {
                TaskFuture<Integer> f = future(() -> 7);
                queued[0] = ForkJoinTask.getQueuedTaskCount();
                f.get();
                queued[1] = ForkJoinTask.getQueuedTaskCount();
            }));
            assertThat(queued).as("tasks in the worker's deque before and after get()").containsExactly(1, 0);
        }
    }

    /** A future that fails when run inline fails its get() and is reported to the finish exactly once. */
    @Test
    void aFutureThatFailsWhileRunInlineFailsTheGetAndTheFinishOnce() {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            AtomicReference<Throwable> seenByGet = new AtomicReference<>();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> async(() -> {
                TaskFuture<Integer> f = future(() -> {
                    throw new IllegalStateException("boom");
                });
                try {
                    f.get();
                } catch (CompletionException e) {
                    seenByGet.set(e.getCause());
                }
            })));
            assertThat(seenByGet.get()).isInstanceOf(IllegalStateException.class).hasMessage("boom");
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        }
    }

    /**
     * Recursive Fibonacci with a future per call (about 75,000 futures per run), five runs on 2 workers: the pool
     * never grows beyond the workers and a few spare threads.
     */
    @Test
    void aRecursionOnFuturesRunsOnTheWorkers() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            for (int run = 0; run < 5; run++) {
                long[] result = new long[1];
                rt.finish(() -> async(() -> result[0] = fib(24)));
                assertThat(result[0]).isEqualTo(sequentialFib(24));
            }
            ForkJoinPool pool = rt.scheduler().pool();
            assertThat(pool.getPoolSize()).as("threads of a 2-worker runtime after 5 runs of fib(24)")
                    .isLessThanOrEqualTo(2 + SPARE_THREADS);
        }
    }

    /**
     * A chain of futures 3,000 deep, each waiting for the next: the waits nest on one thread up to a depth, past
     * which a thread blocks and another continues; no stack overflows, and the threads grow with the depth / 128,
     * not with the depth.
     */
    @Test
    void aDeepChainOfFuturesNeedsAThreadPer128Levels() {
        int depth = 3_000;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            long[] result = new long[1];
            rt.finish(() -> async(() -> result[0] = chain(depth)));
            assertThat(result[0]).isEqualTo(depth);
            assertThat(rt.scheduler().pool().getPoolSize()).as("threads for a chain %d deep", depth)
                    .isLessThanOrEqualTo(2 + depth / 128 + SPARE_THREADS);
        }
    }

    static long chain(int n) {
        if (n == 0) {
            return 0;
        }
        return future(() -> chain(n - 1)).get() + 1;
    }
}

package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Nested finish on worker threads never deadlocks, even with one or two workers and deep nesting. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NestedFinishTest {

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void deeplyNestedFinishOnWorkers(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            AtomicInteger leaves = new AtomicInteger();
            rt.finish(() -> rt.async(() -> nest(rt, 200, leaves)));
            assertThat(leaves.get()).isEqualTo(200);
        }
    }

    private static void nest(TaskRuntime rt, int depth, AtomicInteger leaves) {
        if (depth == 0) {
            return;
        }
        rt.finish(() -> {
            rt.async(leaves::incrementAndGet);
            rt.async(() -> nest(rt, depth - 1, leaves));
        });
    }

    /** A finish in a finish ... each with a task, for ever: a recursion missing its base case. */
    private static void endless(TaskRuntime rt, AtomicInteger deepest, int depth) {
        deepest.accumulateAndGet(depth, Math::max);
        rt.finish(() -> {
            rt.async(() -> { });
            endless(rt, deepest, depth + 1);
        });
    }

    /**
     * A recursion of finishes that runs into the stack's edge ends, every time, with the StackOverflowError, and
     * leaves the thread outside every finish: on a thread of the program's and on a worker. One round in a few
     * left a count a StackOverflowError had cut short, and its top finish waited for ever with nothing running.
     */
    @Test
    void aRecursionOfFinishesIntoTheStacksEdgeEndsEveryTime() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().name("edge").workers(2).noFailureLogging().build()) {
            AtomicInteger deepest = new AtomicInteger();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            AtomicInteger rounds = new AtomicInteger();
            Thread caller = new Thread(null, () -> {
                for (int round = 0; round < 20; round++) {
                    Throwable t = catchThrowable(
                            () -> rt.finish(Duration.ofSeconds(30), () -> endless(rt, deepest, 0)));
                    if (!(t instanceof StackOverflowError)) {
                        unexpected.set(t);
                        return;
                    }
                    rounds.incrementAndGet();
                }
            }, "caller", 512 * 1024);
            caller.start();
            caller.join(TimeUnit.SECONDS.toMillis(100));
            assertThat(caller.isAlive()).as("the rounds ended").isFalse();
            assertThat(unexpected.get()).as("what a round threw instead").isNull();
            assertThat(rounds).hasValue(20);
            assertThat(deepest.get()).as("nested past the checked depth")
                    .isGreaterThan(dev.switchboard.internal.StackRoom.CHECKED_DEPTH);
            for (int round = 0; round < 5; round++) {
                Throwable onWorker = catchThrowable(() -> rt.finish(Duration.ofSeconds(30),
                        () -> rt.async(() -> endless(rt, deepest, 0))));
                assertThat(onWorker).as("round %d on a worker", round).isInstanceOf(StackOverflowError.class);
            }
            rt.finish(Duration.ofSeconds(30), () -> rt.async(() -> { }));      // the threads are outside every finish
            assertThat(rt.diagnose()).isEmpty();
        }
    }

    /** fib-like, but with no base case: each level waits for a future of the next. */
    private static int endlessFutures(TaskRuntime rt, int depth) {
        return rt.future(() -> endlessFutures(rt, depth + 1)).get();
    }

    /**
     * A recursion of futures missing its base case stops once the pool has its spare threads: the get() that would
     * need one more is refused, naming the future and the likely cause, the task that would have computed its value
     * never runs, and the finish ends with the refusal. It added a thread per 128 levels until the JVM ran out of
     * memory (6,000 threads in 9 s) and could no longer be stopped but by SIGKILL.
     */
    @Test
    void aRecursionOfFuturesWithoutABaseCaseIsRefusedAtTheSpareThreads() {
        TaskRuntime rt = TaskRuntime.builder().name("runaway").workers(2).noFailureLogging().build();
        RuntimeInternals.schedulerOf(rt).finishes().maxSpareThreads(8);
        try {
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(60), () -> endlessFutures(rt, 0)));
            // one refusal, or a few when threads reached the limit at once: nothing else failed
            Throwable refused = thrown instanceof MultiException m ? m.failures().get(0) : thrown;
            if (thrown instanceof MultiException m) {
                assertThat(m.failureCount()).as("refusals that raced").isLessThan(10);
                assertThat(m.failures()).allSatisfy(f -> assertThat(f).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("refused get() of"));
            }
            assertThat(refused).as("the recursion ended where the refusal cut it")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("runtime 'runaway' refused get() of DataDrivenFuture@")
                    .hasMessageContaining("threads beyond its 2 workers already")
                    .hasMessageContaining("is a recursion of futures missing its base case?");
            assertThat(RuntimeInternals.schedulerOf(rt).pool().getPoolSize()).as("bounded, give or take racing waits")
                    .isLessThan(2 + 8 + 8);
        } finally {
            assertThat(rt.close(Duration.ofSeconds(10))).as("the close ended the recursion").isTrue();
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void treeOfNestedFinishes(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            for (int round = 0; round < 5; round++) {
                assertThat(FinishTest.fib(rt, 18)).isEqualTo(2584);
            }
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void nestedFinishWaitingOnABlockingGetElsewhere(int workers) {
        // Every worker may end up waiting in an inner finish whose task waits for a value that only another
        // task produces; compensation must keep the pool live.
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            LongAdder sum = new LongAdder();
            rt.finish(() -> {
                for (int i = 0; i < 8; i++) {
                    DataDrivenFuture<Integer> value = new DataDrivenFuture<>();
                    rt.async(() -> rt.finish(() -> rt.async(() -> sum.add(value.get()))));
                    rt.async(() -> value.put(1));
                }
            });
            assertThat(sum.sum()).isEqualTo(8);
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void manyConcurrentNestedFinishes(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            LongAdder leaves = new LongAdder();
            rt.finish(() -> {
                for (int i = 0; i < 200; i++) {
                    rt.async(() -> rt.finish(() -> {
                        for (int j = 0; j < 10; j++) {
                            rt.async(() -> rt.finish(() -> rt.async(leaves::increment)));
                        }
                    }));
                }
            });
            assertThat(leaves.sum()).isEqualTo(2000);
        }
    }

    /**
     * finish { async { finish { async { ... } } } }, 10,000 levels: a waiting worker stops helping (which would
     * grow its stack by a level each time) past a depth and lets the pool run the rest on other threads.
     */
    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2, 4})
    void tenThousandFinishesNestedInsideAsyncs(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            AtomicInteger deepest = new AtomicInteger();
            rt.finish(() -> rt.async(() -> chain(rt, 1, 10_000, deepest)));
            assertThat(deepest.get()).isEqualTo(10_000);
        }
    }

    private static void chain(TaskRuntime rt, int depth, int levels, AtomicInteger deepest) {
        deepest.accumulateAndGet(depth, Math::max);
        if (depth < levels) {
            rt.finish(() -> rt.async(() -> chain(rt, depth + 1, levels, deepest)));
        }
    }

    /** Nesting beyond the supported depth fails early, naming the depth, instead of overflowing a stack. */
    @org.junit.jupiter.api.Test
    void nestingBeyondTheLimitFailsWithTheDepth() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
            // nested directly on one thread (no tasks), with a stack big enough for the limit
            Thread t = new Thread(null, () -> thrown.set(org.assertj.core.api.Assertions.catchThrowable(
                    () -> direct(rt, 1))), "deep", 1L << 30);
            t.start();
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).isFalse();
            assertThat(thrown.get()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("finish nested 100001 deep");
        }
    }

    private static void direct(TaskRuntime rt, int depth) {
        rt.finish(() -> direct(rt, depth + 1));
    }

    @Test
    void anEnclosingFinishWaitsForTheWorkOfATimedOutInnerFinish() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            AtomicBoolean innerDone = new AtomicBoolean();
            AtomicBoolean timedOut = new AtomicBoolean();
            CountDownLatch release = new CountDownLatch(1);
            Throwable t = catchThrowable(() -> rt.finish(() -> {
                try {
                    rt.finish(Duration.ofMillis(100), () -> rt.async(() -> {
                        try {
                            release.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        innerDone.set(true);
                        throw new IllegalStateException("late failure");
                    }));
                } catch (FinishTimeoutException expected) {
                    timedOut.set(true);
                }
                release.countDown();
            }));
            assertThat(timedOut).isTrue();
            assertThat(innerDone).as("the outer finish waited for the inner work").isTrue();
            assertThat(t).as("the late failure reached the outer finish").hasMessage("late failure");
        }
    }

    /**
     * A worker waiting in a finish whose task another worker took helps with that task's work, the tasks of a finish
     * nested in it included, as a join of a stolen task helps its thief: the nested task runs on the waiting
     * worker, not on a thread the pool adds while the waiter blocks.
     */
    @Test
    void aWaitingFinishHelpsWithTheFinishesNestedInItsStolenTask() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            AtomicReference<Thread> waiter = new AtomicReference<>();
            AtomicReference<Thread> thief = new AtomicReference<>();
            AtomicReference<Thread> nestedRanOn = new AtomicReference<>();
            AtomicBoolean nestedQueued = new AtomicBoolean();
            rt.finish(() -> rt.async(() -> {
                waiter.set(Thread.currentThread());
                rt.finish(() -> {
                    rt.async(() -> {                            // taken by the other worker
                        thief.set(Thread.currentThread());
                        rt.finish(() -> {
                            rt.async(() -> nestedRanOn.compareAndSet(null, Thread.currentThread()));
                            nestedQueued.set(true);
                            // this worker does not run it: only a helper from outside can
                            Await.until("the nested task to run elsewhere", () -> nestedRanOn.get() != null);
                        });
                    });
                    Await.until("the other worker to queue the nested task", nestedQueued::get);
                });
            }));
            assertThat(thief.get()).as("the task was taken by the other worker").isNotSameAs(waiter.get());
            assertThat(nestedRanOn.get()).as("the thread that ran the nested task").isSameAs(waiter.get());
        }
    }

    /**
     * Recursive Fibonacci with a finish per call, five runs on 2 workers: waiting finishes help (their own tasks,
     * and those of the finishes nested in them on other workers), so the pool never grows beyond the workers and
     * the few spare threads it may add for waits with nothing to help (docs/architecture.md); twice the futures'
     * margin, as a finish waits far more often than a get().
     */
    @Test
    void aRecursionOnNestedFinishesRunsOnTheWorkers() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            for (int run = 0; run < 5; run++) {
                assertThat(FinishTest.fib(rt, 22)).isEqualTo(17711);
            }
            assertThat(rt.scheduler().pool().getPoolSize()).as("threads of a 2-worker runtime after 5 runs of fib(22)")
                    .isLessThanOrEqualTo(2 + 2 * FutureHelpingTest.SPARE_THREADS);
        }
    }

    /**
     * A worker waiting in a finish with a timeout helps with its tasks on the other worker through the pool's join,
     * which runs every task of the finish it finds before it returns; here they never end (the other worker keeps
     * about 100 of them queued until told to stop, faster than they run). Whether the join returns by itself or the
     * waiter stops it ({@code WorkerWaits.helpThrough}), the finish times out at its deadline instead of helping
     * forever.
     */
    @Test
    void aFinishHelpingWithEndlessWorkElsewhereStillTimesOut() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Thread> waiter = new AtomicReference<>();
            AtomicReference<Thread> thief = new AtomicReference<>();
            AtomicReference<Throwable> timedOut = new AtomicReference<>();
            AtomicInteger queued = new AtomicInteger();
            LongAdder ranByWaiter = new LongAdder();
            rt.finish(() -> rt.async(() -> {
                waiter.set(Thread.currentThread());
                try {
                    rt.finish(Duration.ofMillis(300), () -> {
                        rt.async(() -> {                        // taken by the other worker
                            thief.set(Thread.currentThread());
                            rt.finish(() -> {
                                while (!stop.get()) {           // this worker only queues; the waiter runs them
                                    if (queued.get() < 100) {
                                        queued.incrementAndGet();
                                        rt.async(() -> {
                                            if (Thread.currentThread() == waiter.get()) {
                                                ranByWaiter.increment();
                                            }
                                            work(20_000);               // longer than queueing one
                                            queued.decrementAndGet();
                                        });
                                    } else {
                                        Thread.onSpinWait();
                                    }
                                }
                            });
                        });
                        Await.until("the other worker to take the task", () -> thief.get() != null);
                    });
                } catch (FinishTimeoutException e) {
                    timedOut.set(e);
                } finally {
                    stop.set(true);                             // ends the queueing, so the outer finish ends
                }
            }));
            assertThat(thief.get()).as("the task was taken by the other worker").isNotSameAs(waiter.get());
            assertThat(ranByWaiter.sum()).as("tasks the waiter ran for the other worker").isPositive();
            assertThat(timedOut.get()).as("the finish that helped with endless work").isNotNull();
        }
    }

    /** Busy for about {@code nanos}: work that takes time, not a wait for another thread. */
    private static void work(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}

package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataDrivenFutureTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    @Test
    void putThenGet() {
        DataDrivenFuture<String> f = new DataDrivenFuture<>();
        assertThat(f.isDone()).isFalse();
        assertThat(f.toString()).contains("not put");
        f.put("v");
        assertThat(f.isDone()).isTrue();
        assertThat(f.get()).isEqualTo("v");
        assertThat(f.toString()).contains("(put)");
    }

    /**
     * A get that times out takes its waiter off the future's stack: a future that threads poll with timeouts and
     * nobody puts keeps none of them (each left a waiter, holding its thread, until the put), and the waiters
     * that still wait are all told at the put.
     */
    @Test
    void timedGetsThatGiveUpLeaveNoWaiterBehind() throws Exception {
        DataDrivenFuture<String> f = new DataDrivenFuture<>();
        CompletableFuture<String> before = f.toCompletableFuture();
        Thread[] pollers = new Thread[4];
        AtomicInteger timeouts = new AtomicInteger();
        for (int t = 0; t < pollers.length; t++) {
            pollers[t] = new Thread(() -> {
                for (int i = 0; i < 5_000; i++) {
                    try {
                        f.get(Duration.ofNanos(1));
                    } catch (TimeoutException e) {
                        timeouts.incrementAndGet();
                    }
                }
            }, "poller-" + t);
            pollers[t].start();
        }
        CompletableFuture<String> during = f.toCompletableFuture();
        for (Thread p : pollers) {
            p.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(p.isAlive()).as(p.getName() + " ended").isFalse();
        }
        assertThat(timeouts).hasValue(20_000);
        // racing removals may each leave an entry the other removed above it; one more get cleans them up
        assertThatThrownBy(() -> f.get(Duration.ofNanos(1))).isInstanceOf(TimeoutException.class);
        assertThat(f.waiting()).as("the two copies wait; no poller does").isEqualTo(2);
        f.put("v");
        assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo("v");
        assertThat(during.get(10, TimeUnit.SECONDS)).isEqualTo("v");
        assertThat(f.waiting()).isZero();
    }

    /** An exception whose text cannot be made, as a lazily formatted one's may not be. */
    static final class Lazy extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("no context to format the message from");
        }
    }

    /** A value whose text cannot be made. */
    record Unprintable(int n) {
        @Override
        public String toString() {
            throw new IllegalStateException("no text");
        }
    }

    /**
     * A future failed with an exception whose text throws gives its get() a CompletionException with that cause,
     * and a finish whose task rethrows it one failure; a second put of a future whose value cannot be printed is
     * still the IllegalStateException the API names. get() threw the exception of getMessage(), which the finish
     * counted as a second failure, and the second put threw the value's.
     */
    @Test
    void objectsWhoseTextThrowsChangeNoOutcome() {
        Lazy lazy = new Lazy();
        DataDrivenFuture<String> failed = new DataDrivenFuture<>();
        failed.fail(lazy);
        assertThatThrownBy(failed::get).isInstanceOf(CompletionException.class).hasCause(lazy);
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> rt.finish(() -> {
            TaskFuture<String> f = rt.future(() -> {
                throw new Lazy();
            });
            rt.async(f::get);
        }));
        assertThat(thrown).as("one failure, rethrown as itself").isInstanceOf(Lazy.class);
        DataDrivenFuture<Unprintable> put = new DataDrivenFuture<>();
        put.put(new Unprintable(1));
        assertThatThrownBy(() -> put.put(new Unprintable(2))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("assigned twice").hasMessageContaining("(its toString() threw ");
    }

    @Test
    void nullIsAValue() {
        DataDrivenFuture<String> f = new DataDrivenFuture<>();
        f.put(null);
        assertThat(f.isDone()).isTrue();
        assertThat(f.get()).isNull();
    }

    @Test
    void secondPutIsAnError() {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        f.put(1);
        assertThatThrownBy(() -> f.put(2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("assigned twice").hasMessageContaining("existing 1").hasMessageContaining("new 2");
        assertThatThrownBy(() -> f.fail(new RuntimeException())).isInstanceOf(IllegalStateException.class);
        assertThat(f.get()).isEqualTo(1);
    }

    @Test
    void failedFutureThrowsOnGet() {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        f.fail(new ArithmeticException("x"));
        assertThat(f.isFailed()).isTrue();
        assertThatThrownBy(f::get).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ArithmeticException.class);
    }

    @Test
    void asyncAwaitRunsAfterPutAndCountsTowardFinishFromCreation() {
        // The awaiting task is registered when created: the finish waits for it although the put comes from a
        // task that is only spawned later.
        AtomicReference<String> seen = new AtomicReference<>();
        DataDrivenFuture<String> f = new DataDrivenFuture<>();
        rt.finish(() -> {
            rt.asyncAwait(f, () -> seen.set(f.get()));
            rt.async(() -> f.put("late"));
        });
        assertThat(seen.get()).isEqualTo("late");
    }

    @Test
    void asyncAwaitOnSeveralInputsAndOnAlreadyPutInputs() {
        DataDrivenFuture<Integer> a = new DataDrivenFuture<>();
        DataDrivenFuture<Integer> b = new DataDrivenFuture<>();
        DataDrivenFuture<Integer> c = new DataDrivenFuture<>();
        a.put(1);
        AtomicInteger sum = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        rt.finish(() -> {
            rt.asyncAwait(a, b, c, () -> {
                runs.incrementAndGet();
                sum.set(a.get() + b.get() + c.get());
            });
            rt.async(() -> b.put(2));
            rt.async(() -> c.put(3));
        });
        assertThat(sum.get()).isEqualTo(6);
        assertThat(runs.get()).isEqualTo(1);

        AtomicInteger none = new AtomicInteger();
        rt.finish(() -> rt.asyncAwait(List.of(), none::incrementAndGet));
        assertThat(none.get()).isEqualTo(1);
    }

    @Test
    void quicksortWithDataDrivenFutures() {
        java.util.Random random = new java.util.Random(7);
        List<Integer> input = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            input.add(random.nextInt(1000));
        }
        DataDrivenFuture<List<Integer>> result = new DataDrivenFuture<>();
        rt.finish(() -> quicksort(input, result));
        List<Integer> expected = new ArrayList<>(input);
        expected.sort(null);
        assertThat(result.get()).isEqualTo(expected);
    }

    private static void quicksort(List<Integer> data, DataDrivenFuture<List<Integer>> out) {
        if (data.size() < 2) {
            out.put(data);
            return;
        }
        int pivot = data.get(data.size() / 2);
        DataDrivenFuture<List<Integer>> left = new DataDrivenFuture<>();
        DataDrivenFuture<List<Integer>> right = new DataDrivenFuture<>();
        rt.async(() -> quicksort(data.stream().filter(x -> x < pivot).toList(), left));
        rt.async(() -> quicksort(data.stream().filter(x -> x > pivot).toList(), right));
        List<Integer> equal = data.stream().filter(x -> x == pivot).toList();
        rt.asyncAwait(left, right, () -> {
            List<Integer> all = new ArrayList<>(left.get());
            all.addAll(equal);
            all.addAll(right.get());
            out.put(all);
        });
    }

    @Test
    void getWaitsOnAWorkerWithoutDeadlockingASingleWorkerPool() {
        try (TaskRuntime one = Runtimes.workers(1)) {
            AtomicInteger got = new AtomicInteger();
            DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
            one.finish(() -> {
                one.async(() -> got.set(f.get()));      // blocks the only worker ...
                one.async(() -> f.put(9));               // ... which must not stop this one from running
            });
            assertThat(got.get()).isEqualTo(9);
        }
    }

    @Test
    void getWaitsOnAnExternalThread() throws Exception {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        AtomicInteger got = new AtomicInteger();
        Thread t = new Thread(() -> got.set(f.get()));
        t.start();
        rt.finish(() -> rt.async(() -> f.put(5)));
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(got.get()).isEqualTo(5);
    }

    @Test
    void anInputRepeatedAmongTheInputsIsAwaitedOnceForEachTime() {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        DataDrivenFuture<Integer> g = new DataDrivenFuture<>();
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger sum = new AtomicInteger();
        rt.finish(() -> {
            rt.asyncAwait(f, f, () -> {
                runs.incrementAndGet();
                sum.addAndGet(f.get() * 2);
            });
            rt.asyncAwait(f, g, f, () -> {
                runs.incrementAndGet();
                sum.addAndGet(f.get() + g.get() + f.get());
            });
            rt.asyncAwait(List.of(g, f, g, f), () -> {
                runs.incrementAndGet();
                sum.addAndGet(g.get() + f.get() + g.get() + f.get());
            });
            rt.async(() -> f.put(10));
            rt.async(() -> g.put(100));
        });
        assertThat(runs.get()).isEqualTo(3);
        assertThat(sum.get()).isEqualTo(20 + 120 + 220);
    }

    /**
     * One future's waiter stack holds awaiting tasks as their own entries (this future their first or second
     * input) and records (a third input, a blocked thread, a CompletableFuture copy): every one is told once.
     */
    @Test
    @Timeout(30)
    void everyKindOfWaiterOnOneFutureIsToldOnce() throws Exception {
        for (int round = 0; round < 200; round++) {
            DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
            DataDrivenFuture<Integer> other = new DataDrivenFuture<>();
            other.put(1);
            AtomicInteger fired = new AtomicInteger();
            CompletableFuture<Integer> copy = f.toCompletableFuture();
            CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(f::get);
            rt.finish(() -> {
                rt.asyncAwait(f, fired::incrementAndGet);                    // first input
                rt.asyncAwait(other, f, fired::incrementAndGet);             // second input
                rt.asyncAwait(other, other, f, fired::incrementAndGet);      // third: a record
                rt.async(() -> rt.asyncAwait(f, other, fired::incrementAndGet));
                rt.async(() -> f.put(7));
                rt.async(() -> rt.asyncAwait(other, f, fired::incrementAndGet));
            });
            assertThat(fired.get()).isEqualTo(5);
            assertThat(copy.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(blocked.get(10, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }

    /**
     * Once a put has taken the waiter stack, a task keeps no link to the entries that were below it: a task stays
     * reachable after it ran (a hang report's list holds it until pruned), and a link would keep the tasks below
     * it, their bodies and their futures alive with it.
     */
    @Test
    void aTaskTakenOffTheWaiterStackKeepsNoLinkToTheEntriesBelowIt() throws Exception {
        Scheduler scheduler = rt.scheduler();
        Node global = scheduler.globalScope();
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        CountDownLatch ran = new CountDownLatch(2);
        AwaitTask below = new AwaitBodyTask(global.attachChild(), scheduler, global, ran::countDown, f, null, null);
        AwaitTask above = new AwaitBodyTask(global.attachChild(), scheduler, global, ran::countDown, f, null, null);
        f.whenDone(below, true);
        f.whenDone(above, true);
        assertThat(above.nextWaiter(f)).isSameAs(below);
        f.put(1);                        // this thread takes the stack and tells both tasks
        assertThat(above.nextWaiter(f)).isNull();
        assertThat(below.nextWaiter(f)).isNull();
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void racingPutsAndRegistrationsFireEveryWaiterExactlyOnce() {
        for (int round = 0; round < 500; round++) {
            DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
            AtomicInteger fired = new AtomicInteger();
            ConcurrentLinkedQueue<Throwable> putFailures = new ConcurrentLinkedQueue<>();
            rt.finish(() -> {
                for (int i = 0; i < 8; i++) {
                    rt.async(() -> rt.asyncAwait(f, fired::incrementAndGet));
                }
                for (int i = 0; i < 3; i++) {
                    int v = i;
                    rt.async(() -> {
                        try {
                            f.put(v);
                        } catch (IllegalStateException e) {
                            putFailures.add(e);
                        }
                    });
                }
            });
            assertThat(fired.get()).isEqualTo(8);
            assertThat(putFailures).hasSize(2);
        }
    }

    @Test
    void aTimedGetReturnsTheValueOrFailsAtTheDeadlineNamingTheFuture() throws Exception {
        DataDrivenFuture<String> put = new DataDrivenFuture<>();
        put.put("now");
        assertThat(put.get(Duration.ZERO)).isEqualTo("now");

        DataDrivenFuture<String> never = new DataDrivenFuture<>();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> never.get(Duration.ofMillis(50))).isInstanceOf(TimeoutException.class)
                .hasMessageContaining("DataDrivenFuture@").hasMessageContaining("not put; created by thread '")
                .hasMessageEndingWith("was not put within 50 ms");
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThatThrownBy(() -> never.get(Duration.ZERO)).isInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> never.get(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative timeout");

        DataDrivenFuture<String> failed = new DataDrivenFuture<>();
        failed.fail(new IllegalStateException("no quote"));
        assertThatThrownBy(() -> failed.get(Duration.ofSeconds(1))).isInstanceOf(CompletionException.class)
                .hasRootCauseMessage("no quote");
    }

    @Test
    void aTimedGetOnAWorkerWaitsForAValuePutLater() {
        AtomicReference<String> seen = new AtomicReference<>();
        rt.finish(() -> {
            DataDrivenFuture<String> later = new DataDrivenFuture<>();
            CountDownLatch waiting = new CountDownLatch(1);
            rt.async(() -> {
                waiting.countDown();
                try {
                    seen.set(later.get(Duration.ofSeconds(30)));    // blocks this worker; the other puts
                } catch (TimeoutException e) {
                    throw new AssertionError(e);
                }
            });
            rt.async(() -> {
                try {
                    assertThat(waiting.await(20, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                later.put("late");
            });
        });
        assertThat(seen).hasValue("late");
    }

    @Test
    void aCompletableFutureCopyCompletesWithTheValueOrTheFailure() throws Exception {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        CompletableFuture<Integer> copy = f.toCompletableFuture();
        CompletableFuture<Integer> doubled = copy.thenApply(v -> v * 2);
        assertThat(copy).isNotDone();
        f.put(21);
        assertThat(doubled.get(10, TimeUnit.SECONDS)).isEqualTo(42);
        assertThat(f.toCompletableFuture()).isCompletedWithValue(21);      // already done: completed at once
        copy.complete(7);                                                   // a copy: the future keeps its value
        assertThat(f.get()).isEqualTo(21);

        DataDrivenFuture<Object> failing = new DataDrivenFuture<>();
        CompletableFuture<Object> failed = failing.toCompletableFuture();
        failing.fail(new IllegalStateException("no stock"));
        assertThatThrownBy(failed::join).isInstanceOf(CompletionException.class).hasRootCauseMessage("no stock");

        DataDrivenFuture<String> nothing = new DataDrivenFuture<>();
        CompletableFuture<String> copyOfNull = nothing.toCompletableFuture();
        nothing.put(null);
        assertThat(copyOfNull).isCompletedWithValue(null);
    }

    @Test
    void aTasksFutureCanBeJoinedAsACompletableFuture() {
        AtomicReference<CompletableFuture<Integer>> copy = new AtomicReference<>();
        rt.finish(() -> copy.set(rt.future(() -> 20 + 22).toCompletableFuture()));
        assertThat(copy.get().join()).isEqualTo(42);
    }
    /**
     * A consumer fails a {@code future(...)} before its task ends (a cancellation): the consumer wins, the task's
     * value is dropped and its finish ends without a failure; a task that then fails still reports to the finish.
     * Before, the task's own put threw "assigned twice" into the finish.
     */
    @Test
    void codeThatCompletesAComputedFutureFirstWinsOverItsTask() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicReference<TaskFuture<Integer>> kept = new AtomicReference<>();
        rt.finish(() -> {
            TaskFuture<Integer> f = rt.future(() -> {
                cancelled.await(20, TimeUnit.SECONDS);
                return 1;
            });
            kept.set(f);
            assertThat(((DataDrivenFuture<Integer>) f).tryFail(new CancellationException("no")))
                    .isTrue();
            cancelled.countDown();
        });
        assertThatThrownBy(() -> kept.get().get()).isInstanceOf(CancellationException.class).hasMessage("no");
        CountDownLatch failedLater = new CountDownLatch(1);
        assertThatThrownBy(() -> rt.finish(() -> {
            TaskFuture<Integer> f = rt.future(() -> {
                failedLater.await(20, TimeUnit.SECONDS);
                throw new IllegalStateException("computation failed later");
            });
            ((DataDrivenFuture<Integer>) f).tryFail(new CancellationException("no"));
            failedLater.countDown();
        })).isInstanceOf(IllegalStateException.class).hasMessage("computation failed later");
    }

    @Test
    void getTakesAnyTimeoutAndNamesANullOne() throws Exception {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        f.put(7);
        assertThat(f.get(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(7);   // overflowed toNanos() before
        assertThatThrownBy(() -> f.get(null)).isInstanceOf(NullPointerException.class).hasMessage("timeout");
    }

    /**
     * asyncAwait given no collection, or one with a null input, says which; a runtime's blank name is refused. The
     * first was a NullPointerException from toArray, the second did not say which input, and a blank name made
     * messages name "runtime ''".
     */
    @Test
    void badInputsAreNamed() {
        rt.finish(() -> {
            assertThatThrownBy(() -> rt.asyncAwait((java.util.Collection<TaskFuture<?>>) null, () -> { }))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("asyncAwait inputs is null");
            DataDrivenFuture<Integer> done = new DataDrivenFuture<>();
            done.put(1);
            assertThatThrownBy(() -> rt.asyncAwait(java.util.Arrays.asList(done, null, done), () -> { }))
                    .isInstanceOf(NullPointerException.class).hasMessage("asyncAwait input 1 of 3 is null");
        });
        assertThatThrownBy(() -> TaskRuntime.builder().name(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be blank");
    }

    /**
     * cancel() of a future whose task no thread has started: the task never runs, the finish does not wait for it
     * and hears of no failure, and get() throws the CancellationException as itself.
     */
    @Test
    void aCancelledFutureWhoseTaskHasNotStartedNeverRunsIt() throws Exception {
        try (TaskRuntime one = TaskRuntime.builder().name("cancel").workers(1).build()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            AtomicReference<TaskFuture<Integer>> kept = new AtomicReference<>();
            AtomicReference<Boolean> cancelled = new AtomicReference<>();
            CountDownLatch holding = new CountDownLatch(1);
            one.finish(() -> {
                one.async(() -> {                               // holds the one worker
                    holding.countDown();
                    release.await(20, TimeUnit.SECONDS);
                });
                assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
                TaskFuture<Integer> f = one.future(() -> ran.incrementAndGet());
                kept.set(f);
                cancelled.set(f.cancel());
                assertThat(f.cancel()).as("a second cancel").isFalse();
                release.countDown();
            });
            assertThat(cancelled.get()).isTrue();
            assertThat(ran.get()).as("the computation never ran").isZero();
            assertThatThrownBy(() -> kept.get().get()).isInstanceOf(CancellationException.class)
                    .hasMessageContaining("was cancelled");
            assertThat(kept.get().toCompletableFuture().isCancelled()).isTrue();
        }
    }

    /** cancel() while the task runs: it runs to its end, its value is dropped, and awaiting tasks see the cancel. */
    @Test
    void aCancelledFutureWhoseTaskRunsDropsItsValue() {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<Throwable> seenByAwaiter = new AtomicReference<>();
        AtomicReference<TaskFuture<Integer>> kept = new AtomicReference<>();
        rt.finish(() -> {
            TaskFuture<Integer> f = rt.future(() -> {
                running.countDown();
                release.await(20, TimeUnit.SECONDS);
                return ran.incrementAndGet();
            });
            kept.set(f);
            rt.asyncAwait(f, () -> seenByAwaiter.set(org.assertj.core.api.Assertions.catchThrowable(f::get)));
            assertThat(running.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cancel()).isTrue();
            release.countDown();
        });
        assertThat(ran.get()).as("the running computation ran to its end").isEqualTo(1);
        assertThat(kept.get().isDone()).isTrue();
        assertThatThrownBy(() -> kept.get().get()).isInstanceOf(CancellationException.class);
        assertThat(seenByAwaiter.get()).isInstanceOf(CancellationException.class);
        assertThat(kept.get().cancel()).as("done: nothing to cancel").isFalse();
    }
}

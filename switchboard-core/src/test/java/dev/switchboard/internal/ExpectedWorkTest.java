package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.MutexMonitor;
import dev.switchboard.monitor.ReadersWriterMonitor;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Workers that spin while parallel work is expected ({@code Scheduler.expectParallelWork}): an actor whose
 * messages run in parallel, cut by messages that run alone, has the other worker spin between its batches instead
 * of parking, on a runtime built without an idle spin; the spin ends once the actor stops; an actor whose messages
 * run one at a time, and a runtime of one worker, never spin for it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExpectedWorkTest {
    sealed interface Op permits Read, Write, Stop {
    }

    record Read() implements Op {
    }

    record Write() implements Op {
    }

    record Stop() implements Op {
    }

    static final Category READS = Category.of("read", Read.class);
    static final Category WRITES = Category.of("write", Write.class, Stop.class);

    /** Each message about 5 µs of work; counts what it processed and any write that overlapped another message. */
    static final class Store extends Actor<Op> {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger processed = new AtomicInteger();
        volatile CountDownLatch done = new CountDownLatch(0);

        @Override
        protected void process(Op op) {
            if (op instanceof Stop) {
                exit();
                return;
            }
            int others = running.getAndIncrement();
            if (op instanceof Write && others != 0) {
                overlaps.incrementAndGet();
            }
            IdleSpinTest.work(5_000);
            if (op instanceof Write && running.get() != 1) {
                overlaps.incrementAndGet();
            }
            running.decrementAndGet();
            processed.incrementAndGet();
            done.countDown();
        }
    }

    /** Runs the store in a finish on another thread until it gets a {@link Stop}; returns that finish's outcome. */
    static CompletableFuture<Void> started(TaskRuntime rt, Store store) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> {
            store.start();
            started.countDown();
        }));
        assertThat(started.await(30, TimeUnit.SECONDS)).as("the store started").isTrue();
        return done;
    }

    /** Sends {@code count} messages at once (every tenth a write) and waits until all are processed. */
    static void burst(Store store, int count) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(count);
        store.done = done;
        for (int i = 1; i <= count; i++) {
            store.ref().send(i % 10 == 0 ? new Write() : new Read());
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all %d processed", count).isTrue();
    }

    /** Stops the store and waits for its finish. */
    static void stop(Store store, CompletableFuture<Void> done) throws Exception {
        store.ref().send(new Stop());
        done.get(30, TimeUnit.SECONDS);
    }

    @Test
    void readsInParallelHaveAnIdleWorkerSpinForTheNextBatchUntilTheyStop() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            assertThat(rt.idleSpin()).as("built without an idle spin").isEqualTo(java.time.Duration.ZERO);
            Store store = new Store();
            new ReadersWriterMonitor(READS, WRITES).alwaysParallel().bind(store);
            CompletableFuture<Void> done = started(rt, store);
            // each write runs alone, and the reads after it are started beside one another: the other worker,
            // spinning, takes some of them. A machine that keeps that worker off its core for a whole burst
            // makes it find none, so up to 20 bursts
            for (int series = 0; series < 20 && s.idleSpin.finds() == 0; series++) {
                burst(store, 400);
            }
            stop(store, done);
            assertThat(store.overlaps).as("writes that overlapped another message").hasValue(0);
            assertThat(s.idleSpin.expectations()).as("windows of expected work").isPositive();
            assertThat(s.idleSpin.finds()).as("letters found by a spinning worker").isPositive();
            Await.until("the workers stop spinning once the reads stop",
                    () -> !s.idleSpin.spinsNow() && s.idleSpin.spinningWorkers() == 0);
        }
    }

    @Test
    void messagesStartedOneAtATimeExpectNothing() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            Store store = new Store();
            new MutexMonitor().bind(store);
            CompletableFuture<Void> done = started(rt, store);
            burst(store, 400);
            stop(store, done);
            assertThat(store.processed).hasValue(400);
            assertThat(store.overlaps).hasValue(0);
            assertThat(s.idleSpin.expectations()).as("windows of expected work").isZero();
            assertThat(s.idleSpin.finds()).isZero();
            assertThat(s.idleSpin.spinsNow()).isFalse();
        }
    }

    @Test
    void aRuntimeOfOneWorkerNeverSpinsForExpectedWork() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            Store store = new Store();
            new ReadersWriterMonitor(READS, WRITES).alwaysParallel().bind(store);
            CompletableFuture<Void> done = started(rt, store);
            burst(store, 400);
            stop(store, done);
            s.expectParallelWork();
            assertThat(store.overlaps).hasValue(0);
            assertThat(s.idleSpin.expectations()).isZero();
            assertThat(s.idleSpin.spinsNow()).isFalse();
            assertThat(s.idleSpin.finds()).isZero();
        }
    }

    @Test
    void aForkIsTakenAtOnceOnlyWhileAWorkerSpins() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            assertThat(s.forksTakenAtOnce()).as("no worker spins").isFalse();
            s.idleSpin.started();                         // as a worker that spins for expected work
            try {
                assertThat(s.forksTakenAtOnce()).as("one worker spinning").isTrue();
                assertThat(s.spinsWhenIdle()).as("the runtime's configuration").isFalse();
            } finally {
                s.idleSpin.ended();
            }
            assertThat(s.forksTakenAtOnce()).isFalse();
        }
    }
}

package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.task.RuntimeInternals;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared queue's pumps stay in step with its entries, and a dying worker hands its tasks over. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunQueueTest {

    /** Sends itself the next message up to a limit, sampling how many tasks wait in the pool's queues. */
    static final class SelfSender extends Actor<Integer> {
        final int limit;
        final TaskRuntime rt;
        final AtomicLong mostQueued;

        SelfSender(int limit, TaskRuntime rt, AtomicLong mostQueued) {
            this.limit = limit;
            this.rt = rt;
            this.mostQueued = mostQueued;
        }

        @Override
        protected void process(Integer n) {
            if (n % 1024 == 0) {
                mostQueued.accumulateAndGet(RuntimeInternals.schedulerOf(rt).pool().getQueuedTaskCount(), Math::max);
            }
            if (n < limit) {
                self().send(n + 1);
            } else {
                exit();
            }
        }
    }

    /**
     * Two busy actors on one worker take turns through the shared queue, the worker taking entries itself every few
     * turns: at most one pump is pending, so pumps do not pile up (with one pump per entry they grew by one per 512
     * messages).
     */
    @Test
    void pumpsDoNotPileUpWhileBusyWorkersTakeEntriesThemselves() {
        try (TaskRuntime rt = TaskRuntime.builder().name("pumps").workers(1).build()) {
            AtomicLong mostQueued = new AtomicLong();
            int limit = 1_000_000;
            SelfSender a = new SelfSender(limit, rt, mostQueued);
            SelfSender b = new SelfSender(limit, rt, mostQueued);
            rt.finish(() -> {
                a.start().send(0);
                b.start().send(0);
            });
            assertThat(a.processedCount() + b.processedCount()).isEqualTo(2L * (limit + 1));
            assertThat(mostQueued.get()).as("tasks queued in the pool at once (turns: %d)", 2L * limit / 64)
                    .isLessThan(64);
        }
    }

    /** A worker that dies moves the tasks of its deque to the shared queue, where other workers run them. */
    @Test
    void aDyingWorkerHandsItsTasksOver() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().name("rescue").workers(2).build()) {
            CountDownLatch handedOver = new CountDownLatch(1);
            CountDownLatch ran = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            rt.async(() -> {
                rt.async(() -> {                                  // forked into this worker's deque
                    runs.incrementAndGet();
                    ran.countDown();
                });
                ((Worker) Thread.currentThread()).onTermination(new Error("a simulated death"));
                handedOver.countDown();
            });
            assertThat(handedOver.await(20, TimeUnit.SECONDS)).as("the hand-over returned").isTrue();
            assertThat(ran.await(20, TimeUnit.SECONDS)).as("the task ran elsewhere").isTrue();
            assertThat(runs.get()).isEqualTo(1);
        }
    }

    /** A node that counts its runs and keeps why it was refused. */
    static final class Recorded extends Node {
        final CountDownLatch ran = new CountDownLatch(1);
        volatile Throwable refused;

        Recorded(Scheduler scheduler) {
            super(null, scheduler);
        }

        @Override
        protected void run() {
            ran.countDown();
        }

        @Override
        protected void refused(Throwable cause) {
            refused = cause;
        }
    }

    /**
     * JDK 25's {@code ForkJoinPool.externalSubmit} takes a task from a thread that submitted before even once the
     * pool has terminated, and never runs it: an entry offered then saw its pump "submitted" and waited for good (in
     * the soak, an actor's activation holding its token, with a message queued that was neither processed nor a
     * dead letter). It is refused now.
     */
    @Test
    void anEntryOfferedAfterThePoolHasEndedIsRefusedNotLeftToAPumpThatNeverRuns() throws Exception {
        Scheduler s = new Scheduler("late-offer", 1, 64, 64, 0);
        Recorded first = new Recorded(s);
        s.share(first, false);                 // this thread submits a pump: its submission queue now exists
        assertThat(first.ran.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(s.close(30, TimeUnit.SECONDS)).isTrue();
        Recorded late = new Recorded(s);
        s.share(late, false);
        assertThat(late.refused).as("refused, not left in the shared queue").isNotNull();
        assertThat(s.runQueue.isEmpty()).isTrue();
        assertThat(late.ran.getCount()).isEqualTo(1);
    }
}

package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.monitor.MutexMonitor;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stopping from outside: {@code stop()} ends an actor of any kind after the messages queued before it, and
 * {@code stopNow()} after the message it is processing; both as {@code exit()} does, heard as STOPPED.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StopTest {
    static TaskRuntime rt;
    static Queue<DeadLetter> dead = new ConcurrentLinkedQueue<>();
    static AutoCloseable subscription;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
        subscription = DeadLetter.subscribe(rt, dead::add);
    }

    @AfterAll
    static void close() throws Exception {
        subscription.close();
        rt.close();
    }

    /** Counts what it processes; may block on a latch first; onExit records. */
    static class Counter extends Actor<Integer> {
        final AtomicInteger processed = new AtomicInteger();
        final CountDownLatch gate;
        /** Counted down when the first message starts: its place in a bounded mailbox is given back by then. */
        final CountDownLatch started = new CountDownLatch(1);
        final AtomicInteger exits = new AtomicInteger();

        Counter(CountDownLatch gate) {
            this.gate = gate;
        }

        Counter(CountDownLatch gate, BoundedMailbox bound) {
            super(bound);
            this.gate = gate;
        }

        @Override
        protected void process(Integer n) {
            if (n == 0) {
                started.countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            processed.incrementAndGet();
        }

        @Override
        protected void onExit() {
            exits.incrementAndGet();
        }
    }

    private static long deadFor(ActorRef<?> ref, DeadLetter.Reason reason) {
        return dead.stream().filter(d -> d.recipient().equals(ref) && d.reason() == reason).count();
    }

    @Test
    void stopEndsTheActorAfterWhatWasQueuedAndLaterSendsAreDeadLetters() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Counter c = new Counter(gate);
        ActorRef<Integer> ref = c.ref();
        rt.finish(() -> {
            ref.send(0);                                    // holds the actor until the gate opens
            for (int i = 1; i <= 1_000; i++) {
                ref.send(i);
            }
            c.start();
            ref.stop();
            ref.stop();                                     // a second stop ends it once
            gate.countDown();                               // (nothing above waits or throws)
        });
        assertThat(c.processed).hasValue(1_001);
        assertThat(c.exits).hasValue(1);
        assertThat(ref.whenTerminated().toCompletableFuture().get().reason()).isEqualTo(Terminated.Reason.STOPPED);
        ref.send(7);
        ref.stop();                                         // a no-op now
        assertThat(deadFor(ref, DeadLetter.Reason.RECIPIENT_TERMINATED)).isEqualTo(1);
        assertThat(deadFor(ref, DeadLetter.Reason.UNPROCESSED_AT_EXIT)).isZero();
    }

    @Test
    void stopNowEndsTheActorAfterTheMessageItIsProcessing() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Counter c = new Counter(gate);
        ActorRef<Integer> ref = c.ref();
        rt.finish(() -> {
            try {
                c.start();
                ref.send(0);
                for (int i = 1; i <= 10; i++) {
                    ref.send(i);
                }
                Await.until("the actor is processing the first message", () -> c.started.getCount() == 0);
                ref.stopNow();
            } finally {
                gate.countDown();                           // whatever failed above, the actor is not left blocked
            }
        });
        assertThat(c.processed).as("the message it was processing").hasValue(1);
        assertThat(deadFor(ref, DeadLetter.Reason.UNPROCESSED_AT_EXIT)).isEqualTo(10);
        assertThat(c.exits).hasValue(1);
        assertThat(ref.whenTerminated().toCompletableFuture().get().reason()).isEqualTo(Terminated.Reason.STOPPED);
    }

    @Test
    void aFullBoundedMailboxTakesTheStopWithoutWaitingOrThrowing() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Counter c = new Counter(gate, BoundedMailbox.failing(2));
        ActorRef<Integer> ref = c.ref();
        rt.finish(() -> {
            try {
                c.start();
                ref.send(0);
                Await.until("the actor is processing the first message", () -> c.started.getCount() == 0);
                ref.send(1);
                ref.send(2);                                // full now: a third send would throw
                ref.stop();
            } finally {
                gate.countDown();
            }
        });
        assertThat(c.processed).hasValue(3);
        assertThat(deadFor(ref, DeadLetter.Reason.MAILBOX_FULL)).isZero();
    }

    enum Box { A, B }

    /** Records what it processes; keeps B disabled if told to at construction. */
    static final class Two extends Selector<String, Box> {
        final Queue<String> seen = new ConcurrentLinkedQueue<>();

        Two(boolean keepBClosed) {
            super(Box.class);
            if (keepBClosed) {
                disable(Box.B);
            }
        }

        @Override
        protected void process(String s) {
            seen.add(s);
        }
    }

    @Test
    void aSelectorTakesTheStopInEveryMailboxAndCloseEachBehindIt() throws Exception {
        Two sel = new Two(false);
        SelectorRef<String, Box> ref = sel.ref();
        rt.finish(() -> {
            for (int i = 0; i < 100; i++) {
                ref.send(Box.A, "a" + i);
                ref.send(Box.B, "b" + i);
            }
            ref.stop();
            sel.start();
        });
        assertThat(sel.seen).hasSize(200);
        assertThat(ref.whenTerminated().toCompletableFuture().get().reason()).isEqualTo(Terminated.Reason.STOPPED);
        assertThat(deadFor(ref, DeadLetter.Reason.UNPROCESSED_AT_EXIT)).isZero();
    }

    @Test
    void aSelectorThatKeepsAMailboxDisabledEndsOnceIdleAndThatMailboxsMessagesAreDeadLetters() throws Exception {
        Two sel = new Two(true);
        SelectorRef<String, Box> ref = sel.ref();
        rt.finish(() -> {                                   // no StalledSelectorException reaches it
            sel.start();
            ref.send(Box.A, "a");
            ref.send(Box.B, "b1");
            ref.send(Box.B, "b2");
            ref.stop();
        });
        assertThat(sel.seen).containsExactly("a");
        assertThat(deadFor(ref, DeadLetter.Reason.UNPROCESSED_AT_EXIT)).isEqualTo(2);
        assertThat(ref.whenTerminated().toCompletableFuture().get().reason()).isEqualTo(Terminated.Reason.STOPPED);
    }

    static final class Parallel extends StatelessActor<Integer> {
        final AtomicInteger processed = new AtomicInteger();

        @Override
        protected void process(Integer n) {
            processed.incrementAndGet();
        }
    }

    @Test
    void aStatelessActorStopsAfterEveryMessageQueuedBeforeItHasRun() throws Exception {
        Parallel p = new Parallel();
        ActorRef<Integer> ref = p.ref();
        rt.finish(() -> {
            for (int i = 0; i < 10_000; i++) {
                ref.send(i);
            }
            ref.stop();
            p.start();
        });
        assertThat(p.processed).hasValue(10_000);
        assertThat(ref.whenTerminated().toCompletableFuture().get().reason()).isEqualTo(Terminated.Reason.STOPPED);
    }

    @Test
    void aMonitorBoundActorStopsOnceItsPolicyHasStartedEveryEarlierMessage() throws Exception {
        Counter c = new MutexMonitor().bind(new Counter(new CountDownLatch(0)));
        ActorRef<Integer> ref = c.ref();
        rt.finish(() -> {
            c.start();
            for (int i = 1; i <= 1_000; i++) {
                ref.send(i);
            }
            ref.stop();
        });
        assertThat(c.processed).hasValue(1_000);
        assertThat(c.exits).hasValue(1);
        ref.send(1);
        assertThat(deadFor(ref, DeadLetter.Reason.RECIPIENT_TERMINATED)).isEqualTo(1);
        assertThat(deadFor(ref, DeadLetter.Reason.UNPROCESSED_AT_EXIT)).isZero();
        assertThat(ref.whenTerminated().toCompletableFuture().get().reason()).isEqualTo(Terminated.Reason.STOPPED);
    }
}

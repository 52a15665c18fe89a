package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A bounded mailbox never holds more than its capacity, and a full one does what its overflow says. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedMailboxTest {

    /** Records what it processes and the most messages it ever saw waiting; "stop" exits. */
    static final class Recorder extends Actor<Integer> {
        final List<Integer> seen = new CopyOnWriteArrayList<>();
        final AtomicInteger mostQueued = new AtomicInteger();
        final CountDownLatch firstTaken = new CountDownLatch(1);
        volatile CountDownLatch hold;

        Recorder(BoundedMailbox bound) {
            super(bound);
        }

        @Override
        protected void process(Integer m) {
            mostQueued.accumulateAndGet(mailboxSize(), Math::max);
            firstTaken.countDown();
            CountDownLatch h = hold;
            if (h != null) {
                await(h);
            }
            if (m < 0) {
                exit();
            } else {
                seen.add(m);
            }
        }
    }

    static TaskRuntime runtime(List<DeadLetter> dead) {
        TaskRuntime rt = TaskRuntime.create(2);
        DeadLetter.subscribe(rt, dead::add);
        return rt;
    }

    @Test
    void aFailingMailboxRefusesTheSendThatWouldOverfillIt() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = runtime(dead)) {
            Recorder r = new Recorder(BoundedMailbox.failing(3));
            r.self.send(1);                            // before start(): the actor's ref, from its field
            r.self.send(2);
            r.self.send(3);
            assertThatThrownBy(() -> r.self.send(4)).isInstanceOf(MailboxFullException.class)
                    .hasMessage("the mailbox of " + r + " is full (capacity 3, FAIL): 4 was not sent")
                    .satisfies(e -> assertThat(((MailboxFullException) e).capacity()).isEqualTo(3))
                    .satisfies(e -> assertThat(((MailboxFullException) e).recipient()).isEqualTo(r.self));
            rt.finish(() -> {
                ActorRef<Integer> ref = r.start();
                for (;;) {                             // room again as soon as the actor takes a message
                    try {
                        ref.send(-1);
                        break;
                    } catch (MailboxFullException stillFull) {
                        Thread.onSpinWait();
                    }
                }
            });
            assertThat(r.seen).containsExactly(1, 2, 3);
            assertThat(dead).isEmpty();
        }
    }

    @Test
    void aDroppingMailboxTurnsTheOverflowIntoCountedDeadLetters() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = runtime(dead)) {
            Recorder r = new Recorder(BoundedMailbox.dropping(10));
            for (int i = 0; i < 100; i++) {
                r.self.send(i);                        // not started: the first 10 wait, the rest are dropped
            }
            assertThat(r.mailboxSize()).isEqualTo(10);
            assertThat(r.deadLetterCount()).isEqualTo(90);    // counted by the actor at once
            assertThat(rt.deadLetterCount()).isZero();        // and by its runtime once it has one
            AtomicInteger stopAttempts = new AtomicInteger();
            rt.finish(() -> {
                ActorRef<Integer> ref = r.start();
                for (int i = 100; i < 200; i++) {
                    ref.send(i);                       // started: the ones dropped now reach the listener too
                }
                stopAttempts.set(sendUntilAccepted(r, ref, -1));
            });
            assertThat(r.seen).startsWith(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
            // every message sent was processed or dropped: 200, plus the stops that were dropped
            assertThat(r.seen.size() + r.deadLetterCount()).isEqualTo(200 + stopAttempts.get() - 1);
            assertThat(rt.deadLetterCount()).isEqualTo(r.deadLetterCount());
            assertThat(dead).hasSize((int) r.deadLetterCount() - 90)
                    .allSatisfy(d -> assertThat(d.reason()).isEqualTo(DeadLetter.Reason.MAILBOX_FULL));
        }
    }

    @Test
    void aSenderOutsideTheRuntimeWaitsForRoomAndTheBoundHolds() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Recorder r = new Recorder(BoundedMailbox.waiting(10, Duration.ofSeconds(30)));
            AtomicReference<ActorRef<Integer>> ref = new AtomicReference<>();
            int total = 20_000;
            Thread producer = new Thread(() -> {
                ActorRef<Integer> to = ref.get();
                for (int i = 0; i < total; i++) {
                    to.send(i);
                }
                to.send(-1);
            });
            rt.finish(() -> {
                ref.set(r.start());
                producer.start();
            });
            producer.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(r.seen).hasSize(total);
            for (int i = 0; i < total; i++) {
                assertThat(r.seen.get(i)).isEqualTo(i);
            }
            assertThat(r.mostQueued.get()).isLessThanOrEqualTo(10);
            assertThat(r.deadLetterCount()).isZero();
        }
    }

    @Test
    void aSenderThatWaitsTooLongGetsAnExceptionNamingTheWait() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Recorder r = new Recorder(BoundedMailbox.waiting(1, Duration.ofMillis(100)));
            r.self.send(1);                            // before start()
            assertThatThrownBy(() -> r.self.send(2)).isInstanceOf(MailboxFullException.class)
                    .hasMessageContaining("capacity 1, WAIT").hasMessageContaining("no room within 100 ms");
            rt.finish(() -> {
                ActorRef<Integer> ref = r.start();
                ref.send(-1);
            });
            assertThat(r.seen).containsExactly(1);
        }
    }

    @Test
    void aSenderOnAWorkerNeverWaits() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Recorder r = new Recorder(BoundedMailbox.waiting(1, Duration.ofSeconds(30)));
            r.self.send(1);                            // before start()
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            rt.finish(() -> rt.async(() -> thrown.set(catchThrowable(() -> r.self.send(2)))));
            assertThat(thrown.get()).isInstanceOf(MailboxFullException.class)
                    .hasMessageContaining("a sender on a worker never waits for room");
            rt.finish(() -> {
                ActorRef<Integer> ref = r.start();
                ref.send(-1);
            });
        }
    }

    /**
     * A sender waiting for room is released as the actor is terminated from outside (a close, a stopNow), not when
     * the message it is stuck in returns: its message is a dead letter at once.
     */
    @Test
    void aWaitingSenderIsReleasedByACloseOrStopNowWhileTheActorIsStuckInAMessage() throws Exception {
        for (boolean byClose : new boolean[] {true, false}) {
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            TaskRuntime rt = runtime(dead);
            Recorder r = new Recorder(BoundedMailbox.waiting(1, Duration.ofMinutes(5)));
            r.hold = new CountDownLatch(1);
            ActorRef<Integer> ref = r.self;
            CompletableFuture<Void> owner = CompletableFuture.runAsync(() -> catchThrowable(() -> rt.finish(() -> {
                ref.send(0);
                r.start();
            })));
            assertThat(r.firstTaken.await(20, TimeUnit.SECONDS)).isTrue();     // stuck in 0 until hold opens
            ref.send(1);                                                       // the one place
            CompletableFuture<Void> waiting = new CompletableFuture<>();
            Thread sender = new Thread(() -> {
                ref.send(2);                                                   // waits: 1 holds the place
                waiting.complete(null);
            }, "waiting-sender");
            sender.start();
            Await.until("the sender waits for room", () -> sender.getState() == Thread.State.TIMED_WAITING);
            CompletableFuture<Boolean> closed = new CompletableFuture<>();
            if (byClose) {
                CompletableFuture.runAsync(() -> closed.complete(rt.close(Duration.ofMinutes(1))));
            } else {
                ref.stopNow();
            }
            Await.until("the waiting sender was released while the actor is still stuck", waiting::isDone);
            assertThat(r.hold.getCount()).isEqualTo(1);
            assertThat(dead).extracting(DeadLetter::message).contains(2);
            assertThat(dead).filteredOn(d -> d.message().equals(2)).singleElement().extracting(DeadLetter::reason)
                    .isEqualTo(byClose ? DeadLetter.Reason.RUNTIME_CLOSED : DeadLetter.Reason.RECIPIENT_TERMINATED);
            r.hold.countDown();
            owner.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (byClose) {
                assertThat(closed.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            } else {
                rt.close();
            }
        }
    }

    @Test
    void aWaitingSenderIsReleasedWhenTheActorExitsAndItsMessageIsADeadLetter() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = runtime(dead)) {
            Recorder r = new Recorder(BoundedMailbox.waiting(1, Duration.ofSeconds(30)));
            // -1 is sent before start(), and 1 and 2 possibly before start() has returned: the field's ref
            ActorRef<Integer> ref = r.self;
            r.hold = new CountDownLatch(1);
            CountDownLatch sentSecond = new CountDownLatch(1);
            AtomicReference<Throwable> senderFailure = new AtomicReference<>();
            Thread sender = new Thread(() -> {
                try {
                    ref.send(2);                       // waits: -1 is being processed, 1 is queued
                    sentSecond.countDown();
                } catch (Throwable t) {
                    senderFailure.set(t);
                }
            });
            Thread owner = new Thread(() -> rt.finish(() -> {
                ref.send(-1);
                r.start();
            }));
            owner.start();
            assertThat(r.firstTaken.await(20, TimeUnit.SECONDS)).isTrue();
            ref.send(1);                               // the one place
            sender.start();
            while (sender.getState() != Thread.State.WAITING && sender.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            r.hold.countDown();                        // -1 exits: 1 is a dead letter, and so is the waiting 2
            sender.join(TimeUnit.SECONDS.toMillis(20));
            owner.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(senderFailure.get()).isNull();
            assertThat(sentSecond.getCount()).isZero();
            // 2 may have taken the place 1 freed and gone into the mailbox just after the drain looked: the
            // draining activation counts it as it gives the actor up, which may be after the finish has ended
            Await.until("two dead letters (" + dead + ")", () -> dead.size() >= 2);
            assertThat(dead).extracting(DeadLetter::message).containsExactlyInAnyOrder(1, 2);
        }
    }

    @Test
    void concurrentSendersNeverPassTheBoundAndEveryMessageIsCounted() throws Exception {
        LongAdder deadCount = new LongAdder();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, d -> deadCount.increment());
            Recorder r = new Recorder(BoundedMailbox.dropping(100));
            AtomicInteger stopAttempts = new AtomicInteger();
            int senders = 4;
            int each = 20_000;
            Thread[] threads = new Thread[senders];
            rt.finish(() -> {
                ActorRef<Integer> ref = r.start();
                for (int s = 0; s < senders; s++) {
                    threads[s] = new Thread(() -> {
                        for (int i = 0; i < each; i++) {
                            ref.send(i);
                        }
                    });
                    threads[s].start();
                }
                for (Thread t : threads) {
                    try {
                        t.join(TimeUnit.SECONDS.toMillis(30));
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
                stopAttempts.set(sendUntilAccepted(r, ref, -1));
            });
            assertThat(r.mostQueued.get()).isLessThanOrEqualTo(100);
            // every message was processed or dropped, the stops that were dropped included
            assertThat(r.seen.size() + r.deadLetterCount()).isEqualTo((long) senders * each + stopAttempts.get() - 1);
            assertThat(r.deadLetterCount()).isEqualTo(deadCount.sum());
        }
    }

    enum Box { HIGH, LOW }

    static final class TwoBoxes extends Selector<String, Box> {
        final List<String> seen = new CopyOnWriteArrayList<>();

        TwoBoxes() {
            super(Box.class, SelectionPolicy.PRIORITY, BoundedMailbox.failing(2));
        }

        @Override
        protected void process(String m) {
            if (m.equals("stop")) {
                exit();
            } else {
                seen.add(m);
            }
        }
    }

    @Test
    void eachMailboxOfASelectorHasItsOwnBound() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            TwoBoxes s = new TwoBoxes();
            SelectorRef<String, Box> ref = s.self();   // sent to before start()
            ref.send(Box.HIGH, "h1");
            ref.send(Box.HIGH, "h2");
            assertThatThrownBy(() -> ref.send(Box.HIGH, "h3")).isInstanceOf(MailboxFullException.class)
                    .hasMessageStartingWith("mailbox HIGH of " + s + " is full (capacity 2, FAIL)");
            ref.send(Box.LOW, "l1");                   // another mailbox: room
            ref.send(Box.LOW, "stop");
            rt.finish(() -> s.start());
            assertThat(s.seen).containsExactly("h1", "h2", "l1");
        }
    }

    /** A request carrying its reply's destination. */
    record Question(String text, ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            return text;
        }
    }

    @Test
    void aRequestToAFullFailingMailboxIsRefusedAtTheCall() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Actor<Object> server = new Actor<>(BoundedMailbox.failing(1)) {
                @Override
                protected void process(Object m) {
                    if (m.equals("stop")) {
                        exit();
                    } else if (m instanceof Question q) {
                        q.replyTo().reply(q.text());
                    }
                }
            };
            ActorRef<Object> serverRef = server.self;  // sent to (and requested from) before its start()
            serverRef.send("occupies the only place");
            AtomicReference<Throwable> atCall = new AtomicReference<>();
            List<String> after = new CopyOnWriteArrayList<>();
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    if (m.equals("ask")) {
                        atCall.set(catchThrowable(() -> awaitReply(serverRef, r -> new Question("question", r),
                                (String a) -> after.add(a))));
                    } else {
                        after.add(m);                 // not held: the refused request is not awaited
                        exit();
                    }
                }
            };
            rt.finish(() -> {
                ActorRef<String> c = client.start();
                c.send("ask");
                c.send("next");
            });
            assertThat(atCall.get()).isInstanceOf(MailboxFullException.class);
            assertThat(after).containsExactly("next");
            rt.finish(() -> {
                ActorRef<Object> ref = server.start();
                for (;;) {
                    try {
                        ref.send("stop");
                        break;
                    } catch (MailboxFullException stillFull) {
                        Thread.onSpinWait();
                    }
                }
            });
        }
    }

    @Test
    void aDroppedRequestFailsItsRequester() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Actor<Object> server = new Actor<>(BoundedMailbox.dropping(1)) {
                @Override
                protected void process(Object m) {
                    exit();
                }
            };
            ActorRef<Object> serverRef = server.self;  // sent to (and requested from) before its start()
            serverRef.send("occupies the only place");
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    awaitReply(serverRef, r -> new Question("question", r), (String a) -> exit());
                }
            };
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(20), () -> {
                ActorRef<String> c = client.start();
                c.send("ask");
            }));
            assertThat(thrown).isInstanceOf(NoReplyException.class).hasMessageContaining("question");
            assertThat(server.deadLetterCount()).isEqualTo(1);
            rt.finish(() -> server.start());
        }
    }

    /** A stateless actor starts each message as a task: the place is given back when that task ends, not before. */
    @Test
    void aBoundHoldsBackTheSendersOfAStatelessActor() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicInteger inFlight = new AtomicInteger();
            AtomicInteger mostInFlight = new AtomicInteger();
            LongAdder processed = new LongAdder();
            StatelessActor<Integer> parallel = new StatelessActor<>(BoundedMailbox.waiting(10, Duration.ofSeconds(30))) {
                @Override
                protected void process(Integer m) {
                    mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    long end = System.nanoTime() + 200_000;
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    processed.increment();
                    inFlight.decrementAndGet();
                    if (m < 0) {
                        exit();
                    }
                }
            };
            AtomicReference<ActorRef<Integer>> ref = new AtomicReference<>();
            Thread producer = new Thread(() -> {
                ActorRef<Integer> to = ref.get();
                for (int i = 0; i < 1000; i++) {
                    to.send(i);
                }
            });
            rt.finish(() -> {
                ref.set(parallel.start());
                producer.start();
                try {
                    producer.join(TimeUnit.SECONDS.toMillis(30));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                ref.get().send(-1);
            });
            assertThat(processed.sum()).isEqualTo(1001);
            assertThat(mostInFlight.get()).as("messages being processed at once").isLessThanOrEqualTo(10);
        }
    }

    @Test
    void invalidBoundsAreRejectedClearly() {
        assertThatThrownBy(() -> BoundedMailbox.dropping(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 message");
        assertThatThrownBy(() -> BoundedMailbox.waiting(10, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxWait must be positive");
        assertThatThrownBy(() -> new BoundedMailbox(10, BoundedMailbox.Overflow.DROP, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zero otherwise");
    }

    /**
     * Sends {@code m} to a dropping mailbox (of {@code actor}, whose ref is {@code to}) until it is not dropped (no
     * other sender); returns the attempts.
     */
    static int sendUntilAccepted(Actor<Integer> actor, ActorRef<Integer> to, int m) {
        for (int attempts = 1; ; attempts++) {
            long dropped = actor.deadLetterCount();
            to.send(m);
            if (actor.deadLetterCount() == dropped) {
                return attempts;
            }
            Thread.onSpinWait();
        }
    }

    static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}

package dev.switchboard.seamtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.actor.StatelessActor;
import dev.switchboard.seamtest.LaneActor.Lane;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.Dispatcher;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The dispatch seam is enough for an actor kind outside the core: {@link LaneActor}, in this package, uses only
 * the public API and {@code dev.switchboard.spi}, and gets two lanes chosen by the mailbox of arrival, parallel
 * messages, re-executed attempts whose sends are held until the attempt completes, outcomes per message, and a
 * periodic timer that changes its decisions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeamTest {
    sealed interface Op {
    }

    /** Sends {@code note} to {@code log}; rolls back {@code rollbacks} times first (sending a note each time). */
    record Write(String note, int rollbacks, ActorRef<String> log) implements Op {
    }

    /** Meets another Read at the barrier: two of them can only both pass if they run at once. */
    record Read(CyclicBarrier barrier) implements Op {
    }

    record Boom() implements Op {
    }

    /** Sends {@link Started} to its own actor (held until this message's attempt completes). */
    record Spawn(java.util.concurrent.CountDownLatch started) implements Op {
    }

    record Started(java.util.concurrent.CountDownLatch started) implements Op {
    }

    record Stop() implements Op {
    }

    static final class Ledger extends LaneActor<Op> {
        private final AtomicInteger[] attempts = {new AtomicInteger(), new AtomicInteger()};
        final List<Integer> readWidths = new CopyOnWriteArrayList<>();

        Ledger(int initialWidth, int maxWidth, Duration period) {
            super(initialWidth, maxWidth, period);
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Write w -> {
                    w.log().send(w.note() + " attempt " + attempts[0].incrementAndGet());
                    if (attempts[0].get() <= w.rollbacks()) {
                        throw new Retry();
                    }
                    attempts[0].set(0);
                }
                case Read r -> {
                    readWidths.add(width());
                    try {
                        r.barrier().await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                        throw new IllegalStateException("the two reads did not run at once", e);
                    }
                }
                case Boom b -> throw new IllegalArgumentException("boom");
                case Spawn sp -> {
                    self().send(Lane.SHARED, new Started(sp.started()));   // held until this attempt completes
                    if (sp.started().getCount() == 0) {
                        throw new IllegalStateException("a held message ran before its sender's attempt completed");
                    }
                }
                case Started st -> st.started().countDown();
                case Stop s -> exit();
            }
        }
    }

    /** Collects what it is sent, until a note of "b". */
    static final class Log extends Actor<String> {
        final List<String> notes = new CopyOnWriteArrayList<>();

        @Override
        protected void process(String m) {
            notes.add(m);
            if (m.startsWith("b ")) {
                exit();
            }
        }
    }

    /** A policy that holds nothing and does nothing at a finish or a turn: the tests override what they need. */
    abstract static class QuietPolicy implements DispatchPolicy {
        @Override
        public void finished(Object ticket, Object result, Throwable failure) {
        }

        @Override
        public void turn() {
        }

        @Override
        public void terminated(Consumer<Object> deadLetters) {
        }

        @Override
        public int held() {
            return 0;
        }
    }

    @Test
    void aKindBuiltOnTheSeamRunsLanesRetriesHoldsSendsAndUsesTheTimer() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Ledger ledger = new Ledger(0, 2, Duration.ofMillis(5));
            Log log = new Log();
            rt.finish(() -> {
                ActorRef<String> logRef = log.start("log");
                SelectorRef<Op, Lane> ref = ledger.start("ledger");
                CyclicBarrier barrier = new CyclicBarrier(2);
                ref.send(Lane.SHARED, new Read(barrier));           // wait for the timer to open the shared lane
                ref.send(Lane.SHARED, new Read(barrier));
                Await.until("both reads", () -> ledger.outcomes.size() == 2);   // the main thread, not a worker
                ref.send(Lane.EXCLUSIVE, new Write("a", 2, logRef));
                ref.send(Lane.EXCLUSIVE, new Write("b", 0, logRef));
                ref.send(Lane.EXCLUSIVE, new Stop());
            });
            // the rolled-back attempts' sends were dropped; the completed attempt's went out once
            assertThat(log.notes).containsExactly("a attempt 3", "b attempt 1");
            assertThat(ledger.outcomes).filteredOn(o -> o.lane() == Lane.EXCLUSIVE)
                    .extracting(LaneActor.Outcome::attempts).containsExactly(3, 1, 1);
            assertThat(ledger.outcomes).filteredOn(o -> o.lane() == Lane.SHARED).hasSize(2)
                    .allSatisfy(o -> assertThat(o.failure()).isNull());
            // the reads waited for the timer to open the lane, then ran at once (the barrier needs both)
            assertThat(ledger.readWidths).allSatisfy(w -> assertThat(w).isGreaterThanOrEqualTo(1));
            assertThat(ledger.periods.get()).isGreaterThanOrEqualTo(1);
            assertThat(ledger.maxRunning.get()).isEqualTo(2);
            assertThat(ledger.exclusiveOverlaps.get()).isZero();
            assertThat(ledger.timer.isCancelled()).as("the policy cancelled its timer at exit").isTrue();
            assertThat(ledger.state()).isEqualTo(ActorState.TERMINATED);
        }
    }

    @Test
    void aMessageSentToItsOwnActorGoesOutWhenTheAttemptCompletesAndALateTurnRequestEndsQuietly() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Ledger ledger = new Ledger(2, 2, Duration.ofHours(1));
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
            rt.finish(() -> {
                SelectorRef<Op, Lane> ref = ledger.start("ledger");
                ref.send(Lane.SHARED, new Spawn(started));
                Await.until("the spawn and what it started", () -> ledger.outcomes.size() == 2);
                ref.send(Lane.EXCLUSIVE, new Stop());
            });
            // the send was held while the Spawn attempt ran, so Started could not begin before Spawn completed
            assertThat(ledger.outcomes).extracting(LaneActor.Outcome::failure).containsExactly(null, null, null);
            assertThat(started.getCount()).isZero();
            // after the end: a turn asked for by a timer that fired late is ignored, and returns
            CompletableFuture.runAsync(ledger::requestTurn).get(20, TimeUnit.SECONDS);
            ledger.requestTurn();
            assertThat(ledger.terminations.get()).isEqualTo(1);
        }
    }

    @Test
    void aFailureEscapingTheProcessingTerminatesTheKindAndReachesTheFinish() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Ledger ledger = new Ledger(1, 1, Duration.ofSeconds(1));
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                SelectorRef<Op, Lane> ref = ledger.start("ledger");
                ref.send(Lane.EXCLUSIVE, new Boom());
                ref.send(Lane.EXCLUSIVE, new Stop());       // a dead letter: the ledger failed first
            }));
            assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessage("boom");
            assertThat(thrown.getSuppressed()[0].getMessage()).matches("ledger@\\d+ was terminated: this exception"
                    + " escaped process\\(Boom\\[\\]\\)");
            assertThat(ledger.outcomes).singleElement().satisfies(o ->
                    assertThat(o.failure()).isInstanceOf(IllegalArgumentException.class));
            assertThat(ledger.deadLetterCount()).isEqualTo(1);
        }
    }

    /** Starts everything at once; throws in arrived() for a "bad" request and in terminated(). */
    static final class Faulty implements DispatchPolicy {
        private Dispatcher dispatcher;
        private final java.util.ArrayDeque<Object> waiting = new java.util.ArrayDeque<>();

        @Override
        public void bound(ActorRef<?> actor, Dispatcher d) {
            dispatcher = d;
        }

        @Override
        public void arrived(Object envelope, Object message, int mailbox) {
            if (message instanceof Question q && q.text().equals("bad")) {
                throw new IllegalStateException("cannot file " + q.text());
            }
            waiting.add(envelope);
        }

        @Override
        public void finished(Object ticket, Object result, Throwable failure) {
        }

        @Override
        public void turn() {
            while (!waiting.isEmpty()) {
                dispatcher.start(waiting.poll(), "t");
            }
        }

        @Override
        public void terminated(Consumer<Object> deadLetters) {
            throw new IllegalStateException("cannot clean up");
        }

        @Override
        public int held() {
            return waiting.size();
        }

        @Override
        public String toString() {
            return "Faulty";
        }
    }

    record Question(String text, dev.switchboard.actor.ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            return text;
        }
    }

    @Test
    void aPolicyThatThrowsLosesNoRequestAndItsActorStillSaysItsLastWord() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicInteger exits = new AtomicInteger();
            Actor<Question> clerk = new Actor<>() {
                @Override
                protected void process(Question q) {
                    q.replyTo().reply("filed " + q.text());
                }

                @Override
                protected void onExit() {
                    exits.incrementAndGet();
                }
            };
            Seam.bind(clerk, new Faulty());
            java.util.concurrent.atomic.AtomicReference<CompletableFuture<String>> good = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicReference<CompletableFuture<String>> bad = new java.util.concurrent.atomic.AtomicReference<>();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<Question> ref = clerk.start("clerk");
                good.set(ref.ask(r -> new Question("good", r), Duration.ofMinutes(5)));
                Await.until("the good answer", () -> good.get().isDone());
                bad.set(ref.ask(r -> new Question("bad", r), Duration.ofMinutes(5)));
            }));
            assertThat(good.get().join()).isEqualTo("filed good");
            // the request the policy could not take fails at once (no 5-minute wait) and is counted
            assertThat(catchThrowable(bad.get()::join)).cause().isInstanceOf(dev.switchboard.actor.NoReplyException.class)
                    .hasMessageContaining("bad");
            assertThat(clerk.deadLetterCount()).isEqualTo(1);
            assertThat(exits.get()).as("onExit ran once").isEqualTo(1);
            assertThat(thrown).isInstanceOf(dev.switchboard.task.MultiException.class);
            assertThat(((dev.switchboard.task.MultiException) thrown).failures()).hasSize(2)
                    .anySatisfy(f -> assertThat(f).hasMessage("cannot file bad").satisfies(e -> assertThat(
                            e.getSuppressed()[0].getMessage()).contains("its dispatch policy Faulty threw")))
                    .anySatisfy(f -> assertThat(f).hasMessage("cannot clean up").satisfies(e -> assertThat(
                            e.getSuppressed()[0].getMessage()).contains("its dispatch policy Faulty threw in terminated()")));
        }
    }

    @Test
    void bindingIsCheckedClearly() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            DispatchPolicy idle = new QuietPolicy() {
                @Override
                public void bound(ActorRef<?> actor, Dispatcher dispatcher) {
                    assertThatThrownBy(() -> dispatcher.start("x", "t")).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("outside its turn");
                    assertThatThrownBy(() -> dispatcher.schedule(Duration.ofSeconds(1), () -> { }))
                            .isInstanceOf(IllegalStateException.class).hasMessageContaining("needs")
                            .hasMessageContaining("started");
                }

                @Override
                public void arrived(Object envelope, Object message, int mailbox) {
                }


                @Override
                public String toString() {
                    return "Idle";
                }
            };
            StatelessActor<String> stateless = new StatelessActor<>() {
                @Override
                protected void process(String m) {
                }
            };
            assertThatThrownBy(() -> Seam.bind(stateless, idle)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is a stateless actor");
            Actor<String> plain = new Actor<>() {
                @Override
                protected void process(String m) {
                    exit();
                }
            };
            Seam.bind(plain, idle);
            assertThatThrownBy(() -> Seam.bind(plain, idle)).hasMessageContaining("is already bound to Idle");
            Actor<String> started = new Actor<>() {
                @Override
                protected void process(String m) {
                    exit();
                }
            };
            rt.finish(() -> {
                started.start().send("x");
                assertThatThrownBy(() -> Seam.bind(started, idle)).hasMessageContaining("was already started");
            });
        }
    }

    /**
     * A policy that starts each arrival at once when idle is left out while its messages run inline; one that also
     * wraps the processing in its own {@code process} still has it called for every message, as its contract says
     * (the runtime processes the messages it leaves out as a plain actor's only for a policy that keeps the
     * default {@code process}).
     */
    @Test
    void aPolicyLeftOutWhileIdleStillWrapsEveryMessageItProcesses() throws Exception {
        int messages = 3_000;
        AtomicInteger wrapped = new AtomicInteger();
        AtomicInteger processed = new AtomicInteger();
        AtomicInteger arrivals = new AtomicInteger();
        AtomicInteger withoutTicket = new AtomicInteger();
        try (TaskRuntime rt = TaskRuntime.create(1)) {      // one worker: every message runs inline
            DispatchPolicy startsEachAtOnce = new QuietPolicy() {
                private Dispatcher dispatcher;

                @Override
                public void bound(ActorRef<?> actor, Dispatcher d) {
                    dispatcher = d;
                }

                @Override
                public void arrived(Object envelope, Object message, int mailbox) {
                    arrivals.incrementAndGet();
                    dispatcher.start(envelope, "t");
                }

                @Override
                public Object process(dev.switchboard.spi.MessageProcessing processing) {
                    wrapped.incrementAndGet();
                    if (processing.ticket() == null) {
                        withoutTicket.incrementAndGet();
                    }
                    processing.process();
                    return null;
                }

                @Override
                public boolean mayRunInline() {
                    return true;
                }

                @Override
                public boolean startsEachArrivalWhenIdle() {
                    return true;
                }
            };
            CountDownLatch firstRuns = new CountDownLatch(1);
            Actor<Integer> counter = new Actor<>() {
                @Override
                protected void process(Integer m) {
                    if (m == 0) {           // the first goes through the policy; the rest queue behind it
                        firstRuns.countDown();
                        Await.until("the rest queued", () -> mailboxSize() == messages - 1);
                    }
                    if (processed.incrementAndGet() == messages) {
                        exit();
                    }
                }
            };
            Seam.bind(counter, startsEachAtOnce);
            CompletableFuture<ActorRef<Integer>> ref = new CompletableFuture<>();
            CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> {
                ref.complete(counter.start());
            }));
            ActorRef<Integer> to = ref.get(30, TimeUnit.SECONDS);
            to.send(0);                     // from a thread that is not a worker: the activation runs the turns
            assertThat(firstRuns.await(30, TimeUnit.SECONDS)).isTrue();
            for (int i = 1; i < messages; i++) {
                to.send(i);
            }
            done.get(30, TimeUnit.SECONDS);
        }
        assertThat(processed.get()).isEqualTo(messages);
        assertThat(wrapped.get()).as("process() calls").isEqualTo(messages);
        assertThat(arrivals.get()).as("arrivals the policy heard of: idle, it was left out for the rest")
                .isEqualTo(1);
        assertThat(withoutTicket.get()).as("process() calls without a ticket: the ones it was left out of")
                .isEqualTo(messages - 1);
    }

    @Test
    void internalsDescribeTheStatusWordAndTheMailboxQueue() throws Exception {
        Actor<String> idle = new Actor<>() {
            @Override
            protected void process(String m) {
                if (m.equals("stop")) {
                    exit();
                }
            }
        };
        assertThat(Seam.internals(idle)).isEqualTo("status none (not started), awaiting 0 replies; no queue yet");
        for (int i = 0; i < 20; i++) {
            idle.ref().send("m" + i);                // before the start: the queue grows past its first 16
        }
        assertThat(Seam.internals(idle)).isEqualTo("status none (not started), awaiting 0 replies; producer index"
                + " 40, consumer index 0, limit 92, buffers of 16 (consumer) and 32 (producer)");
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).build()) {
            rt.finish(() -> {
                idle.start();
                idle.ref().send("stop");
            });
        }
        assertThat(Seam.internals(idle)).startsWith("status STARTED TERMINATED RELEASED GONE, awaiting 0 replies;"
                + " activation's pending count 0, pool terminated, 0 queued in it, shared queue 0, closed;"
                + " producer index 42, consumer index 42");
    }
}

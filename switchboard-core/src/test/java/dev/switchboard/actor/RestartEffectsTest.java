package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a supervisor's restart does to the failed actor's state (the guide's table): its timers are cancelled, the
 * replies it awaited are abandoned (their handlers never run, their answers are dead letters), its become stack
 * and pause are cleared, its children are stopped, and a selector's mailboxes are enabled again and its guards
 * removed, each new instance setting up its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RestartEffectsTest {

    sealed interface Msg permits Setup, Probe, Tick, Grandchild {}

    /** Sets everything up, then fails. */
    record Setup(ActorRef<Held> server) implements Msg {}

    record Probe(ReplyTo<String> replyTo) implements Msg {}

    record Tick() implements Msg {}

    record Grandchild(String text) implements Msg {}

    /** A request the holder keeps until it is released. */
    record Held(ReplyTo<String> replyTo) {}

    /** Keeps the requests it gets; answers them all when asked to from outside. */
    static final class Holder extends Actor<Held> {
        final CompletableFuture<ReplyTo<String>> request = new CompletableFuture<>();

        @Override
        protected void process(Held h) {
            request.complete(h.replyTo());
        }
    }

    static final class Quiet extends Actor<Grandchild> {
        @Override
        protected void process(Grandchild g) {
        }
    }

    static final class Stateful extends Actor<Msg> {
        static final Queue<String> LOG = new ConcurrentLinkedQueue<>();
        static final AtomicBoolean HANDLER_RAN = new AtomicBoolean();
        static final CompletableFuture<ActorRef<Grandchild>> GRANDCHILD = new CompletableFuture<>();
        private static int instances;
        final int instance = ++instances;

        @Override
        protected void onRestart(Throwable cause) {
            LOG.add("instance " + instance + " after " + cause.getMessage() + ", timer active "
                    + isTimerActive("tick") + ", state " + state());
        }

        @Override
        protected void process(Msg m) {
            switch (m) {
                case Setup s -> {
                    startSingleTimer("tick", new Tick(), Duration.ofSeconds(10));
                    GRANDCHILD.complete(startChild(Quiet::new, SupervisorStrategy.restart()));
                    awaitReply(s.server(), Held::new, (String answer) -> HANDLER_RAN.set(true));
                    become(other -> LOG.add("the old behavior got " + other));
                    pause();
                    throw new IllegalStateException("set up, then failed");
                }
                case Probe p -> p.replyTo().reply("process of instance " + instance);
                case Tick t -> LOG.add("tick on instance " + instance);
                case Grandchild g -> LOG.add(g.text());
            }
        }
    }

    sealed interface Ctl permits Ended {}

    record Ended(Terminated end) implements Ctl {}

    /** Starts one child under {@code strategy}, hands its reference out, and exits when it ends. */
    static final class Parent<M> extends Actor<Ctl> {
        final Supplier<? extends ActorCore<M>> factory;
        final CompletableFuture<ActorRef<M>> child = new CompletableFuture<>();

        Parent(Supplier<? extends ActorCore<M>> factory) {
            this.factory = factory;
        }

        @Override
        protected void onStart() {
            ActorRef<M> c = startChild(factory, SupervisorStrategy.restart());
            watch(c, Ended::new);
            child.complete(c);
        }

        @Override
        protected void process(Ctl m) {
            exit();
        }
    }

    @Test
    void aRestartCancelsTimersAbandonsRepliesClearsBecomeAndPauseAndStopsChildren() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            Queue<DeadLetter> dead = new ConcurrentLinkedQueue<>();
            try (AutoCloseable s = DeadLetter.subscribe(rt, dead::add)) {
                Holder holder = new Holder();
                Parent<Msg> parent = new Parent<>(Stateful::new);
                CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> {
                    holder.start();
                    parent.start();
                }));
                ActorRef<Msg> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                child.send(new Setup(holder.ref()));
                ActorRef<Grandchild> grandchild = Stateful.GRANDCHILD.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                Terminated grandchildEnd = grandchild.whenTerminated().toCompletableFuture()
                        .get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);

                // Not paused, not awaiting, not in the old behavior: a probe reaches the new instance's process.
                assertThat(child.<String>ask(Probe::new, Duration.ofDays(1)).get(Await.TIMEOUT_SECONDS,
                        TimeUnit.SECONDS)).isEqualTo("process of instance 2");
                assertThat(Stateful.LOG).containsExactly(
                        "instance 2 after set up, then failed, timer active false, state STARTED");
                assertThat(grandchildEnd.reason()).isEqualTo(Terminated.Reason.STOPPED);

                // The timer the old instance set never fires.
                clock.advance(Duration.ofSeconds(11));
                assertThat(child.<String>ask(Probe::new, Duration.ofDays(1)).get(Await.TIMEOUT_SECONDS,
                        TimeUnit.SECONDS)).isEqualTo("process of instance 2");
                assertThat(Stateful.LOG).noneMatch(l -> l.startsWith("tick"));

                // The abandoned reply's answer is a dead letter; its handler never runs.
                holder.request.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS).reply("too late");
                Await.until("the late answer is a dead letter", () -> dead.stream().anyMatch(d ->
                        d.reason() == DeadLetter.Reason.REPLY_TOO_LATE && d.message().equals("too late")));
                assertThat(Stateful.HANDLER_RAN).isFalse();
                assertThat(dead).extracting(DeadLetter::reason).containsOnly(DeadLetter.Reason.FAILED_PROCESSING,
                        DeadLetter.Reason.REPLY_TOO_LATE);

                child.stop();
                holder.ref().stopNow();
                done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    enum Box { A, B }

    sealed interface Sel permits Text, Fail {}

    record Text(String text) implements Sel {}

    record Fail() implements Sel {}

    /** B takes texts while its guard holds, which it never does in the first instance; A takes the failure. */
    static final class Boxes extends Selector<Sel, Box> {
        static final Queue<String> LOG = new ConcurrentLinkedQueue<>();
        private static int instances;
        final int instance = ++instances;

        Boxes() {
            super(Box.class);
            if (instance == 1) {
                guard(Box.B, () -> false);          // the first instance never opens B; the next sets no guard
            }
        }

        @Override
        protected void process(Sel m) {
            switch (m) {
                case Text t -> LOG.add(t.text() + " on instance " + instance);
                case Fail f -> throw new IllegalStateException("selector failed");
            }
        }
    }

    @Test
    void aRestartEnablesASelectorsMailboxesAndDropsItsGuards() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent<Sel> parent = new Parent<>(Boxes::new);
            CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> { parent.start(); }));
            @SuppressWarnings("unchecked")
            SelectorRef<Sel, Box> sel = (SelectorRef<Sel, Box>) parent.child.get(Await.TIMEOUT_SECONDS,
                    TimeUnit.SECONDS);
            sel.send(Box.B, new Text("waits behind the guard"));
            sel.send(Box.A, new Fail());
            Await.until("B's text reached the new instance", () -> !Boxes.LOG.isEmpty());
            assertThat(Boxes.LOG).containsExactly("waits behind the guard on instance 2");
            sel.stop();
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** A gate a guard reads: set by the constructor after the guard is registered. */
    static final class Gate {
        volatile boolean open;
    }

    /** B's guard reads a field the constructor sets after registering it; a text on A opens the gate. */
    static final class Gated extends Selector<Sel, Box> {
        static final Queue<String> LOG = new ConcurrentLinkedQueue<>();
        private static int instances;
        final int instance = ++instances;
        Gate gate;

        Gated() {
            super(Box.class);
            guard(Box.B, () -> gate.open);        // gate is set below: the guard is evaluated later
            gate = new Gate();
        }

        @Override
        protected void process(Sel m) {
            switch (m) {
                case Text t -> {
                    LOG.add(t.text() + " on instance " + instance);
                    gate.open = true;
                }
                case Fail f -> throw new IllegalStateException("selector failed");
            }
        }
    }

    /**
     * The new instance of a restart registers its guards in its constructor, as the first did: they are evaluated
     * after the restart, not at their registration (a guard reading a field set later threw out of the constructor,
     * and the restart failed: "its factory gave no fresh instance").
     */
    @Test
    void aRestartsNewInstanceRegistersAGuardThatReadsAFieldSetAfterIt() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent<Sel> parent = new Parent<>(Gated::new);
            CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> { parent.start(); }));
            @SuppressWarnings("unchecked")
            SelectorRef<Sel, Box> sel = (SelectorRef<Sel, Box>) parent.child.get(Await.TIMEOUT_SECONDS,
                    TimeUnit.SECONDS);
            sel.send(Box.B, new Text("behind the gate"));
            sel.send(Box.A, new Fail());
            sel.send(Box.A, new Text("opens the gate"));
            Await.until("both texts processed", () -> Gated.LOG.size() == 2);
            assertThat(Gated.LOG).containsExactly("opens the gate on instance 2", "behind the gate on instance 2");
            sel.stop();
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}

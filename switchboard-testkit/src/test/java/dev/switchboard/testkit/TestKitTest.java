package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.ReplyTimeoutException;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.SupervisorStrategy;
import dev.switchboard.actor.Terminated;
import dev.switchboard.task.TaskRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a kit captures, what its clock drives, and what its close finds left behind. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TestKitTest {
    /** Throws on "boom", exits on "bye", else forwards to {@code out}. */
    static final class Relay extends Actor<String> {
        private final ActorRef<String> out;

        Relay(ActorRef<String> out) {
            this.out = out;
        }

        @Override
        protected void process(String s) {
            switch (s) {
                case "boom" -> throw new IllegalStateException("boom in " + self());
                case "bye" -> exit();
                default -> out.send(s);
            }
        }
    }

    enum Box { FIRST, SECOND }

    /** Forwards what comes to {@code SECOND}, and only once {@code FIRST} has brought something. */
    static final class Gate extends dev.switchboard.actor.Selector<String, Box> {
        private final ActorRef<String> out;

        Gate(ActorRef<String> out) {
            super(Box.class);
            this.out = out;
            disable(Box.SECOND);
        }

        @Override
        protected void process(String s) {
            if (s.startsWith("open")) {
                enable(Box.SECOND);
            } else {
                out.send(s);
            }
        }
    }

    @Test
    void spawningASelectorGivesItsSelectorReference() {
        try (TestKit kit = TestKit.builder().checkThreads(false).build()) {
            TestProbe<String> out = kit.probe();
            dev.switchboard.actor.SelectorRef<String, Box> gate = kit.spawn(new Gate(out.ref()), "gate");
            gate.send(Box.SECOND, "through");
            out.expectNoMessage();
            gate.send(Box.FIRST, "open");
            out.expectMessage("through");
            gate.stop();
            kit.expectTerminated(gate);
        }
    }

    @Test
    void aFailureThatReachesNoFinishFailsCloseUnlessExpected() {
        TestKit kit = TestKit.builder().checkThreads(false).build();
        TestProbe<String> out = kit.probe();
        ActorRef<String> relay = kit.spawn(new Relay(out.ref()), "relay");
        relay.send("boom");
        assertThat(kit.expectTerminated(relay).reason()).isEqualTo(Terminated.Reason.FAILED);
        assertThatThrownBy(kit::close)
                .hasMessageContaining("1 failure reached no finish, and the test did not expect it")
                .hasMessageContaining("boom in relay@");

        try (TestKit expecting = TestKit.builder().checkThreads(false).build()) {
            ActorRef<String> r = expecting.spawn(new Relay(expecting.<String>probe().ref()), "relay");
            r.send("boom");
            ActorFailure f = expecting.expectFailure(IllegalStateException.class);
            assertThat(f.actor()).isEqualTo(r);
            assertThat(f.cause()).hasMessageStartingWith("boom in relay@");
            assertThat(expecting.failures()).containsExactly(f);
        }                                                   // closes without complaint
    }

    /** A parent that restarts its child on every failure: failures it handles never reach close(). */
    static final class Parent extends Actor<String> {
        private final ActorRef<String> out;
        private final SupervisorStrategy strategy;
        private ActorRef<String> child;

        Parent(ActorRef<String> out) {
            this(out, SupervisorStrategy.restart());
        }

        Parent(ActorRef<String> out, SupervisorStrategy strategy) {
            this.out = out;
            this.strategy = strategy;
        }

        @Override
        protected void onStart() {
            child = startChild("child", () -> new Relay(out), strategy);
        }

        @Override
        protected void process(String s) {
            if (s.equals("bye")) {
                exit();
            } else {
                child.send(s);
            }
        }
    }

    @Test
    void failuresSupervisionHandledAreSeenButDoNotFailClose() {
        try (TestKit kit = TestKit.builder().checkThreads(false).build()) {
            TestProbe<String> out = kit.probe();
            ActorRef<String> parent = kit.spawn(new Parent(out.ref()));
            parent.send("boom");
            parent.send("after");
            out.expectMessage("after");
            assertThat(kit.failures()).singleElement()
                    .satisfies(f -> assertThat(f.detail()).contains("restart"));
            parent.send("bye");
            kit.expectTerminated(parent);
        }
    }

    /**
     * Every failure is captured, those the supervisor handled too, and expectFailure takes the oldest: a test that
     * expects one failure of a child its supervisor gave up on expects the handled one, and the close names the one
     * left by its actor and what happened to it. It showed the exception alone.
     */
    @Test
    void aFailureLeftUnexpectedIsNamedByItsActorAndWhatEndedIt() {
        TestKit kit = TestKit.builder().checkThreads(false).build();
        TestProbe<String> out = kit.probe();
        ActorRef<String> parent = kit.spawn(new Parent(out.ref(),
                SupervisorStrategy.restart().withLimit(1, Duration.ofMinutes(1))));
        parent.send("boom");
        parent.send("boom");                                    // a second restart within the minute: it gives up
        kit.awaitCondition("both failures", () -> kit.failures().size() == 2);
        parent.send("bye");
        kit.expectTerminated(parent);
        ActorFailure first = kit.expectFailure(IllegalStateException.class);
        assertThat(first.detail()).contains("restart");
        assertThatThrownBy(kit::close)
                .hasMessageContaining("1 failure reached no finish, and the test did not expect it")
                .hasMessageContaining("java.lang.IllegalStateException: boom in child@")
                .hasMessageContaining(" was terminated: its supervisor gave up: it would be restart 2 within PT1M");
    }

    @Test
    void anActorStillRunningFailsCloseByName() {
        TestKit kit = TestKit.builder().checkThreads(false).timeout(Duration.ofMillis(200)).build();
        kit.spawn(new Relay(kit.<String>probe().ref()), "forgotten");
        ActorRef<String> stopped = kit.spawn(new Relay(kit.<String>probe().ref()), "stopped");
        stopped.stop();
        kit.expectTerminated(stopped, Duration.ofSeconds(20));     // the kit's short timeout is for the close
        assertThatThrownBy(kit::close)
                .hasMessageContaining("1 actor was still running 200 ms after the test")
                .hasMessageContaining("forgotten@")
                .hasMessageNotContaining("stopped@");
    }

    @Test
    void aThreadTheTestLeftFailsClose() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread leftover = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "leftover-worker");
        TestKit kit = TestKit.builder().timeout(Duration.ofMillis(200)).build();
        leftover.start();
        try {
            assertThatThrownBy(kit::close)
                    .hasMessageContaining("1 thread started during the test was still alive 200 ms after it")
                    .hasMessageContaining("'leftover-worker' (WAITING)");
        } finally {
            release.countDown();
            leftover.join();
        }
        TestKit ignoring = TestKit.builder().ignoreThreads("leftover-.*").timeout(Duration.ofMillis(200)).build();
        CountDownLatch again = new CountDownLatch(1);
        Thread second = new Thread(() -> {
            try {
                again.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "leftover-2");
        second.start();
        try {
            ignoring.close();                              // ignored by name
        } finally {
            again.countDown();
            second.join();
        }
    }

    /** Never exits by itself. */
    static final class Idle extends Actor<String> {
        @Override
        protected void process(String m) {
        }
    }

    @Test
    void anActorLeftRunningInAFinishThatIsStillOpenFailsClose() throws InterruptedException {
        TestKit kit = TestKit.builder().timeout(Duration.ofMillis(200)).checkThreads(false).build();
        CountDownLatch started = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try {
                kit.runtime().finish(() -> {
                    new Idle().start("left-in-a-finish");
                    started.countDown();
                });
            } catch (RuntimeException closedUnderIt) {
                // the kit's close ends the finish
            }
        }, "other");
        other.start();
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(kit::close).hasMessageContaining("1 actor was still running")
                .hasMessageContaining("actor left-in-a-finish@")
                .hasMessageContaining("finish opened by thread 'other'");
        other.join();
    }

    @Test
    void theDefaultRuntimesThreadsAreNotATestsLeftovers() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        TestKit kit = TestKit.builder().timeout(Duration.ofMillis(200)).build();
        TaskRuntime.defaultRuntime().finish(() -> { });                      // never closed, as documented
        List<Thread> started = new java.util.ArrayList<>();
        for (String name : List.of("switchboard-worker-97", "switchboard-watchdog", "switchboard-timer")) {
            Thread t = new Thread(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, name);                                   // as the default runtime names its threads
            t.start();
            started.add(t);
        }
        try {
            kit.close();
        } finally {
            release.countDown();
            for (Thread t : started) {
                t.join();
            }
        }
    }

    @Test
    void deadLettersAreCapturedAndExpected() {
        try (TestKit kit = TestKit.builder().checkThreads(false).build()) {
            ActorRef<String> relay = kit.spawn(new Relay(kit.<String>probe().ref()), "relay");
            relay.send("bye");
            kit.expectTerminated(relay);
            relay.send("too late");
            DeadLetter d = kit.expectDeadLetter(l -> "too late".equals(l.message()));
            assertThat(d.reason()).isEqualTo(DeadLetter.Reason.RECIPIENT_TERMINATED);
            assertThat(d.recipient()).isEqualTo(relay);
            assertThat(kit.deadLetters()).contains(d);
        }
    }

    record Tick(int n) {
    }

    /** Ticks to {@code out} every second of the runtime's clock. */
    static final class Ticker extends Actor<Tick> {
        private final ActorRef<Tick> out;

        Ticker(ActorRef<Tick> out) {
            this.out = out;
        }

        @Override
        protected void onStart() {
            startTimerAtFixedRate("tick", new Tick(0), Duration.ofSeconds(1));
        }

        @Override
        protected void process(Tick t) {
            out.send(t);
        }
    }

    /** Never answers. */
    static final class Silent extends Actor<ReplyTo<String>> {
        @Override
        protected void process(ReplyTo<String> r) {
            // no reply
        }
    }

    @Test
    void theTestClockDrivesTimersAndAskTimeouts() throws InterruptedException {
        try (TestKit kit = TestKit.builder().manualClock().checkThreads(false).build()) {
            TestProbe<Tick> ticks = kit.probe();
            ActorRef<Tick> ticker = kit.spawn(new Ticker(ticks.ref()));
            kit.awaitCondition("the ticker set its timer", () -> kit.clock().nextDue().isPresent());
            ticks.expectNoMessage();
            assertThat(kit.clock().nextDue()).contains(Duration.ofSeconds(1));
            kit.clock().advance(Duration.ofMillis(2_500));
            ticks.receiveMessages(2);
            ticks.expectNoMessage();
            assertThat(kit.clock().now()).isEqualTo(Duration.ofMillis(2_500));

            ActorRef<ReplyTo<String>> silent = kit.spawn(new Silent());
            CompletableFuture<String> answer = silent.ask(r -> r, Duration.ofSeconds(30));
            kit.clock().advance(Duration.ofSeconds(29));
            assertThat(answer).isNotDone();
            kit.clock().advance(Duration.ofSeconds(1));
            assertThatThrownBy(answer::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ReplyTimeoutException.class);
            ticker.stop();
            silent.stop();
        }
    }

    /** A periodic timer's first send comes after its initial delay, the next ones a period apart. */
    @Test
    void aPeriodicTimersInitialDelayComesFirst() throws InterruptedException {
        try (TestKit kit = TestKit.builder().manualClock().checkThreads(false).build()) {
            TestProbe<Tick> ticks = kit.probe();
            ActorRef<Tick> ticker = kit.spawn(new Actor<Tick>() {
                @Override
                protected void onStart() {
                    startTimerAtFixedRate("now", new Tick(1), Duration.ZERO, Duration.ofSeconds(10));
                    startTimerWithFixedDelay("soon", new Tick(2), Duration.ofMillis(500), Duration.ofSeconds(3));
                }

                @Override
                protected void process(Tick t) {
                    ticks.ref().send(t);
                }
            });
            kit.awaitCondition("the ticker set its timers", () -> kit.clock().nextDue().isPresent());
            assertThat(kit.clock().nextDue()).contains(Duration.ZERO);
            kit.clock().advance(Duration.ZERO);
            assertThat(ticks.receiveMessage()).isEqualTo(new Tick(1));
            kit.clock().advance(Duration.ofMillis(499));
            ticks.expectNoMessage();
            kit.clock().advance(Duration.ofMillis(1));
            assertThat(ticks.receiveMessage()).isEqualTo(new Tick(2));
            kit.clock().advance(Duration.ofMillis(3_000));                  // 3.5 s: the delay's second send
            assertThat(ticks.receiveMessage()).isEqualTo(new Tick(2));
            ticks.expectNoMessage();
            kit.clock().advance(Duration.ofMillis(6_500));       // 10 s: the delay's at 6.5 and 9.5, the rate's second
            assertThat(ticks.receiveMessages(3)).containsExactlyInAnyOrder(new Tick(1), new Tick(2), new Tick(2));
            ticks.expectNoMessage();
            ticker.stop();
        }
    }

    @Test
    void aClosedKitRefusesWaitsAtOnce() {
        TestKit kit = TestKit.builder().checkThreads(false).build();
        TestProbe<String> probe = kit.probe(String.class);
        kit.close();
        assertThatThrownBy(probe::receiveMessage).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        assertThatThrownBy(() -> kit.spawn(new Silent())).isInstanceOf(IllegalStateException.class);
        kit.close();                                                       // again: nothing
    }

    @Test
    void aFailureOutsideEveryActorCanBeExpectedToo() {
        TestKit kit = TestKit.builder().checkThreads(false).build();
        // a task outside every finish (the test thread is in none): what it throws reaches no finish, and no actor's
        kit.runtime().async(() -> {
            throw new UncheckedIOException(new IOException("disk gone"));
        });
        ActorFailure f = kit.expectFailure(UncheckedIOException.class);
        assertThat(f.actor()).isNull();
        assertThat(f.cause()).hasRootCauseMessage("disk gone");
        kit.close();                                                       // expected: nothing left behind
    }

    @Test
    void theClockIsThereOnlyWhenAskedFor() {
        try (TestKit kit = TestKit.builder().checkThreads(false).build()) {
            assertThatThrownBy(kit::clock).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("build it with manualClock()");
            assertThatThrownBy(() -> kit.awaitCondition("never", () -> false, Duration.ofMillis(20)))
                    .hasMessage("not within 20 ms: never");
        }
    }

    sealed interface Job {
    }

    record Boom() implements Job {
    }

    record WhoAreYou(ReplyTo<String> replyTo) implements Job {
    }

    /** Answers with its own name; fails on Boom. */
    static final class Named extends Actor<Job> {
        @Override
        protected void process(Job job) {
            switch (job) {
                case Boom b -> throw new IllegalStateException("boom");
                case WhoAreYou w -> w.replyTo().reply(self().toString());
            }
        }
    }

    @Test
    void aPoolRoutesNoRequestToARouteeItsSupervisorStoppedOnceTheFailureIsHeard() {
        try (TestKit kit = TestKit.builder().checkThreads(false).build()) {
            ActorRef<Job> pool = kit.spawn(dev.switchboard.actor.Router.pool(2, Named::new)
                    .supervisedBy(SupervisorStrategy.stop()).build(), "workers");
            String first = kit.awaitResult(pool.ask(WhoAreYou::new, Duration.ofSeconds(5)));
            pool.send(new Boom());                            // round robin: the other routee, which is stopped
            kit.expectFailure(IllegalStateException.class);
            for (int i = 0; i < 4; i++) {                     // heard of: every request goes to the one left
                assertThat(kit.awaitResult(pool.ask(WhoAreYou::new, Duration.ofSeconds(5)))).isEqualTo(first);
            }
            pool.stop();
            kit.expectTerminated(pool);
        }
    }

    /** Waits in its turn until the test lets it go: an actor stuck in user code. */
    static final class Stuck extends Actor<WhoAreYou> {
        private final CountDownLatch release;
        final CountDownLatch entered = new CountDownLatch(1);

        Stuck(CountDownLatch release) {
            this.release = release;
        }

        @Override
        protected void process(WhoAreYou w) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            w.replyTo().reply("late");
        }
    }

    @Test
    void aWaitThatComesToNothingNamesTheAskAndTheActorStuckInItsTurn() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        try (TestKit kit = TestKit.builder().checkThreads(false).timeout(Duration.ofMillis(300)).build()) {
            Stuck actor = new Stuck(release);
            ActorRef<WhoAreYou> stuck = kit.spawn(actor, "stuck");
            CompletableFuture<String> answer = stuck.ask(WhoAreYou::new, Duration.ofSeconds(30));
            assertThat(actor.entered.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> kit.awaitResult(answer))
                    .hasMessageContaining("no result within 300 ms from the ask of WhoAreYou[")
                    .hasMessageContaining(" to stuck@")
                    .hasMessageContaining("(not answered yet); while it waited: actor stuck@")
                    .hasMessageContaining("running now on thread")
                    .hasMessageContaining("CountDownLatch.await");
            release.countDown();
            assertThat(kit.awaitResult(answer, Duration.ofSeconds(20))).isEqualTo("late");
            stuck.stop();
            kit.expectTerminated(stuck, Duration.ofSeconds(20));
        } finally {
            release.countDown();
        }
    }

    /** Sets a timer on "arm", cancels it on "disarm"; sends "rang" to {@code to} when it rings, then ends. */
    static final class Alarm extends Actor<String> {
        final ActorRef<String> to;

        Alarm(ActorRef<String> to) {
            this.to = to;
        }

        @Override
        protected void process(String m) {
            switch (m) {
                case "arm" -> startSingleTimer("alarm", "ring", Duration.ofMinutes(5));
                case "disarm" -> cancelTimer("alarm");
                default -> {
                    to.send("rang");
                    exit();
                }
            }
        }
    }

    @Test
    void aTestWaitsForAnActorsTimerBeforeItMovesTheClock() {
        try (TestKit kit = TestKit.builder().manualClock().build()) {
            TestProbe<String> me = kit.probe();
            ActorRef<String> first = kit.spawn(new Alarm(me.ref()), "first");
            ActorRef<String> second = kit.spawn(new Alarm(me.ref()), "second");
            first.send("arm");
            kit.awaitTimer(first, "alarm");
            assertThat(kit.clock().nextDue()).isPresent();           // the first's: it says nothing of the second's
            assertThat(kit.isTimerActive(second, "alarm")).isFalse();
            second.send("arm");
            kit.awaitTimer(second, "alarm");
            second.send("disarm");
            kit.awaitCondition("the timer cancelled", () -> !kit.isTimerActive(second, "alarm"));
            assertThatThrownBy(() -> kit.awaitTimer(second, "another")).isInstanceOf(AssertionError.class)
                    .hasMessageEndingWith(": a timer 'another' of " + second);
            second.send("arm");
            kit.awaitTimer(second, "alarm");
            kit.clock().advance(Duration.ofMinutes(5));
            assertThat(me.receiveMessages(2)).containsExactly("rang", "rang");
            kit.expectTerminated(first);
            kit.expectTerminated(second);
            assertThat(kit.isTimerActive(first, "alarm")).isFalse();
        }
    }

    /** A timeout says how the actor it waited for ended: it said "has exited" of one stopped or failed. */
    @Test
    void aTimeoutSaysHowTheSilentActorEnded() {
        try (TestKit kit = TestKit.builder().manualClock().build()) {
            ActorRef<Object> silent = kit.spawn(new Actor<Object>() {
                @Override
                protected void process(Object m) {
                }
            }, "silent");
            java.util.concurrent.CompletableFuture<Object> answer = silent.ask(r -> r, Duration.ofMinutes(1));
            silent.stop();
            kit.expectTerminated(silent);
            kit.clock().advance(Duration.ofMinutes(1));
            assertThat(answer).failsWithin(Duration.ZERO).withThrowableThat().havingCause()
                    .isInstanceOf(ReplyTimeoutException.class).withMessageEndingWith("(" + silent + " was stopped)");
        }
    }

    @Test
    void awaitAssertRetriesUntilTheAssertionPassesAndFailsWithItsLastError() {
        try (TestKit kit = TestKit.create()) {
            java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            ActorRef<String> recorder = kit.spawn(new Actor<String>() {
                @Override
                protected void process(String m) {
                    seen.add(m);
                }
            });
            recorder.send("a");
            recorder.send("b");
            kit.awaitAssert(() -> assertThat(seen).containsExactly("a", "b"));
            assertThatThrownBy(() -> kit.awaitAssert(() -> assertThat(seen).contains("c"), Duration.ofMillis(100)))
                    .isInstanceOf(AssertionError.class).hasMessageStartingWith("not within 100 ms: ")
                    .hasMessageContaining("\"c\"").hasCauseInstanceOf(AssertionError.class);
            assertThatThrownBy(() -> kit.awaitAssert(() -> {
                throw new IllegalStateException("not an assertion");
            })).isInstanceOf(IllegalStateException.class);
            recorder.stop();
        }
    }
}

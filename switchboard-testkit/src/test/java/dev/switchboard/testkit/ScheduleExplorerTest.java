package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The explorer on a planted ordering bug that needs two orderings to line up: a session fails if a configuration
 * change reaches it after the session opened and before it closed, where the opening ends one countdown of
 * {@value #ROUNDS} turns, the closing ends another, and the change is a single message sent at once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScheduleExplorerTest {
    static final int ROUNDS = 20;

    sealed interface SessionEvent permits Opened, ConfigChanged, Closed {
    }

    record Opened() implements SessionEvent {
    }

    record ConfigChanged(int version) implements SessionEvent {
    }

    record Closed() implements SessionEvent {
    }

    /** Takes configuration changes only while closed: a change while open takes a path nobody wrote. */
    static final class Session extends Actor<SessionEvent> {
        private boolean open;

        @Override
        protected void process(SessionEvent e) {
            switch (e) {
                case Opened o -> open = true;
                case Closed c -> open = false;
                case ConfigChanged c -> {
                    if (open) {
                        throw new IllegalStateException("configuration v" + c.version() + " arrived while the"
                                + " session was open");
                    }
                }
            }
        }
    }

    /**
     * Tells the session {@code first} (if not null) as it starts, counts down from {@code ROUNDS}, one turn per
     * number (a message to itself), then tells the session {@code done}.
     */
    static final class Countdown extends Actor<Integer> {
        private final ActorRef<SessionEvent> session;
        private final SessionEvent first;
        private final SessionEvent done;

        Countdown(ActorRef<SessionEvent> session, SessionEvent first, SessionEvent done) {
            this.session = session;
            this.first = first;
            this.done = done;
        }

        @Override
        protected void onStart() {
            if (first != null) {
                session.send(first);
            }
            self().send(ROUNDS);
        }

        @Override
        protected void process(Integer left) {
            if (left > 0) {
                self().send(left - 1);
            } else {
                session.send(done);
                exit();
            }
        }
    }

    /** Sends one configuration change when it starts. */
    static final class Configurer extends Actor<Object> {
        private final ActorRef<SessionEvent> session;

        Configurer(ActorRef<SessionEvent> session) {
            this.session = session;
        }

        @Override
        protected void onStart() {
            session.send(new ConfigChanged(2));
            exit();
        }

        @Override
        protected void process(Object m) {
        }
    }

    static void sessionProgram(TestKit kit) {
        ActorRef<SessionEvent> session = kit.spawn(new Session(), "session");
        kit.spawn(new Configurer(session), "configurer");
        kit.spawn(new Countdown(session, null, new Opened()), "handshake");
        kit.spawn(new Countdown(session, null, new Closed()), "drain");
    }

    @Test
    void pctFindsTheBugAndTheSeedReplaysIt() {
        ScheduleExplorer pct = ScheduleExplorer.pct(2).seeds(0, 1_000);
        ScheduleExplorer.Exploration found = pct.explore(ScheduleExplorerTest::sessionProgram);
        assertThat(found.failure()).as("PCT finds the bug within 1,000 seeds").isPresent();
        ScheduleRun failing = found.failure().orElseThrow();
        assertThat(failing.failure()).hasMessageContaining("arrived while the session was open");
        System.out.println("PCT (depth 2) found it at seed " + failing.seed() + ", run " + found.runs()
                + " of 1,000; trace " + failing.traceHash());

        ScheduleRun replayed = pct.replay(failing.seed(), ScheduleExplorerTest::sessionProgram);
        assertThat(replayed.failed()).isTrue();
        assertThat(replayed.traceHash()).isEqualTo(failing.traceHash());
        assertThat(replayed.trace()).isEqualTo(failing.trace());
        assertThat(replayed.trace()).contains("actor session@1");   // ids numbered per run

        ScheduleExplorer.Exploration again = pct.explore(ScheduleExplorerTest::sessionProgram);
        assertThat(again.runs()).isEqualTo(found.runs());
        assertThat(again.failure().orElseThrow().traceHash()).isEqualTo(failing.traceHash());
    }

    @Test
    void checkNamesTheSeedThatReplays() {
        ScheduleExplorer pct = ScheduleExplorer.pct(2).seeds(0, 1_000);
        ExplorationFailure e = org.junit.jupiter.api.Assertions.assertThrows(ExplorationFailure.class,
                () -> pct.check(ScheduleExplorerTest::sessionProgram));
        long seed = e.run().seed();
        assertThat(e).hasMessageContaining("seed " + seed + " of PCT (depth 2) failed after")
                .hasMessageContaining("-Dswitchboard.testkit.seed=" + seed);
        String before = System.getProperty(ScheduleExplorer.SEED_PROPERTY);
        System.setProperty(ScheduleExplorer.SEED_PROPERTY, Long.toString(seed));
        try {
            ExplorationFailure replayed = org.junit.jupiter.api.Assertions.assertThrows(ExplorationFailure.class,
                    () -> ScheduleExplorer.pct(2).check(ScheduleExplorerTest::sessionProgram));
            assertThat(replayed.run().traceHash()).isEqualTo(e.run().traceHash());
        } finally {
            if (before == null) {
                System.clearProperty(ScheduleExplorer.SEED_PROPERTY);
            } else {
                System.setProperty(ScheduleExplorer.SEED_PROPERTY, before);
            }
        }
    }

    @Test
    void seedsMakeDifferentSchedulesAndEachReplaysItsOwn() {
        ScheduleExplorer random = ScheduleExplorer.random();
        ScheduleRun a = random.replay(1, ScheduleExplorerTest::sessionProgram);
        ScheduleRun b = random.replay(2, ScheduleExplorerTest::sessionProgram);
        assertThat(a.traceHash()).isNotEqualTo(b.traceHash());
        assertThat(random.replay(1, ScheduleExplorerTest::sessionProgram).trace()).isEqualTo(a.trace());
        assertThat(a.steps()).as("every schedule runs the same turns, in another order").isEqualTo(b.steps());
    }

    @Test
    void aBugThatNeedsAChangeOfPriorityIsFoundByDepthTwoOnly() {
        // the change must land inside one actor's run of turns: priorities alone run that actor whole, before or
        // after the configurer, so only a change point (depth 2) can put the configurer in the middle
        ScheduleExplorer.Program program = kit -> {
            ActorRef<SessionEvent> session = kit.spawn(new Session(), "session");
            kit.spawn(new Countdown(session, new Opened(), new Closed()), "opener");
            kit.spawn(new Configurer(session), "configurer");
        };
        assertThat(ScheduleExplorer.pct(1).seeds(0, 300).explore(program).failure()).isEmpty();
        ScheduleExplorer.Exploration depth2 = ScheduleExplorer.pct(2).seeds(0, 300).explore(program);
        assertThat(depth2.failure()).isPresent();
        assertThat(depth2.failure().orElseThrow().failure()).hasMessageContaining("while the session was open");
    }

    /**
     * Reads a shared cell on one message and writes what it read plus one on the next: with its own budget of 64,
     * a turn that finds both messages queued runs them together, so no other actor's write can come between.
     */
    static final class ReadThenWrite extends Actor<String> {
        private final int[] cell;
        private int read;

        ReadThenWrite(int[] cell) {
            this.cell = cell;
            throughput(64);
        }

        @Override
        protected void process(String m) {
            switch (m) {
                case "read" -> read = cell[0];
                case "write" -> cell[0] = read + 1;
                default -> exit();
            }
        }
    }

    @Test
    void theExplorersThroughputAppliesToAnActorWithABudgetOfItsOwn() {
        // Each actor's three messages are queued before its first turn. Turns of the actors' own 64 would make
        // each read-and-write whole; at the explorer's 1 the other actor's read can come between and an update is
        // lost.
        ScheduleExplorer.Program program = kit -> {
            int[] cell = {0};
            List<ActorRef<String>> actors = List.of(kit.spawn(new ReadThenWrite(cell), "first"),
                    kit.spawn(new ReadThenWrite(cell), "second"));
            for (ActorRef<String> a : actors) {
                a.send("read");
                a.send("write");
                a.send("exit");
            }
            actors.forEach(kit::expectTerminated);
            assertThat(cell[0]).as("both increments").isEqualTo(2);
        };
        ScheduleExplorer.Exploration found = ScheduleExplorer.random().seeds(0, 300).explore(program);
        assertThat(found.failure()).as("a schedule that loses an update").isPresent();
        assertThat(found.failure().orElseThrow().failure()).hasMessageContaining("both increments");
    }

    /** Blocks its turn on an ask: only the test's thread could run the answer. */
    static final class AskAndWait extends Actor<String> {
        private final ActorRef<ReplyTo<String>> answerer;

        AskAndWait(ActorRef<ReplyTo<String>> answerer) {
            this.answerer = answerer;
        }

        @Override
        protected void process(String s) {
            answerer.<String>ask(r -> r, Duration.ofSeconds(1)).join();
        }
    }

    @Test
    void anAskJoinedInsideATurnFailsAtOnce() {
        ScheduleRun run = ScheduleExplorer.random().replay(0, kit ->
                kit.spawn(new AskAndWait(kit.spawn(new Answerer()))).send("go"));
        assertThat(run.failure()).hasStackTraceContaining("a blocking join() of an ask of Answerer@")
                .hasStackTraceContaining("is not supported");
    }

    /**
     * The program fails (a probe waits in vain) because an actor failed: the run's failure leads with that actor's
     * failure, its cause, and the probe's complaint follows, suppressed in it.
     */
    @Test
    void aRunThatFailsAfterAnActorsFailureCarriesThatFailure() {
        ScheduleRun run = ScheduleExplorer.random().replay(0, kit -> {
            TestProbe<String> out = kit.probe();
            kit.spawn(new Actor<String>() {
                @Override
                protected void process(String m) {
                    throw new IllegalStateException("right R0 before any left");
                }
            }, "join").send("R0");
            out.expectMessage(Duration.ofMillis(100), "joined");
        });
        assertThat(run.failure()).isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("an actor failed, and the test did not expect it:"
                        + " java.lang.IllegalStateException: right R0 before any left; then the program failed: ")
                .hasMessageContaining("probe")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(run.failure().getSuppressed()[0]).hasMessageContaining("probe");
    }

    @Test
    void theProgramsOwnBlockingWaitsRunTheProgramThroughTheStrategy() {
        ScheduleRun run = ScheduleExplorer.random().replay(7, kit -> {
            ActorRef<ReplyTo<String>> answerer = kit.spawn(new Answerer(), "answerer");
            assertThat(answerer.<String>ask(r -> r, Duration.ofSeconds(10)).get()).isEqualTo("42");
            kit.runtime().finish(() -> kit.runtime().async(() -> { }));
        });
        assertThat(run.failed()).as("%s", run).isFalse();
        assertThat(run.trace()).contains("actor answerer@1").anyMatch(step -> step.startsWith("task running"));
    }

    /** Answers when it gets the question. */
    static final class Answerer extends Actor<ReplyTo<String>> {
        @Override
        protected void process(ReplyTo<String> r) {
            r.reply("42");
            exit();
        }
    }

    /** Asks with a one-second deadline and reports "answer" or "timeout" to {@code out}. */
    static final class Asker extends Actor<Object> {
        private final ActorRef<ReplyTo<String>> answerer;
        private final ActorRef<String> out;

        Asker(ActorRef<ReplyTo<String>> answerer, ActorRef<String> out) {
            this.answerer = answerer;
            this.out = out;
        }

        @Override
        protected void onStart() {
            awaitReply(answerer, r -> r, Duration.ofSeconds(1), (String answer, Throwable failure) -> {
                out.send(failure == null ? "answer" : "timeout");
                exit();
            });
        }

        @Override
        protected void process(Object m) {
        }
    }

    @Test
    void timersFiringIsADecisionToo() {
        ScheduleExplorer.Exploration e = ScheduleExplorer.random().seeds(0, 200).explore(kit -> {
            TestProbe<String> out = kit.probe();
            kit.spawn(new Asker(kit.spawn(new Answerer()), out.ref()));
            out.expectMessage("answer");              // a run where the deadline passes first fails here
        });
        ScheduleRun run = e.failure().orElseThrow();
        assertThat(run.failure()).hasMessageContaining("expected answer but received timeout");
        assertThat(run.trace()).anyMatch(step -> step.startsWith("timers at 1000000000 ns"));
    }

    /** Waits for a future nobody completes in its turn: only this thread could, and it is busy running the turn. */
    static final class Blocker extends Actor<String> {
        @Override
        protected void process(String s) {
            TaskRuntime.current().future(() -> 1).get();
        }
    }

    @Test
    void aTurnThatBlocksFailsTheRunSayingWhy() {
        ScheduleRun run = ScheduleExplorer.random().replay(0, kit -> kit.spawn(new Blocker()).send("go"));
        assertThat(run.failed()).isTrue();
        assertThat(run.failure()).hasStackTraceContaining("is not supported: it would wait for work that only this"
                + " thread runs");
    }

    /** Plays forever. */
    static final class Forever extends Actor<Integer> {
        @Override
        protected void process(Integer n) {
            self().send(n + 1);
        }
    }

    @Test
    void aProgramThatNeverQuiescesFailsAfterMaxSteps() {
        ScheduleRun run = ScheduleExplorer.random().maxSteps(500).replay(0, kit -> kit.spawn(new Forever()).send(0));
        assertThat(run.failure()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("still running after 500 scheduling steps");
    }

    /** Waits in its turn for a latch nobody counts down, and reports how the wait ended. */
    static final class WaitsForever extends Actor<String> {
        private final ActorRef<String> out;

        WaitsForever(ActorRef<String> out) {
            this.out = out;
        }

        @Override
        protected void process(String m) {
            try {
                new java.util.concurrent.CountDownLatch(1).await();
                out.send("released");
            } catch (InterruptedException e) {
                out.send("interrupted");
            }
        }
    }

    @Test
    void aStepThatWaitsForAnotherThreadIsToldInTheLogAndInterrupted() {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("dev.switchboard.testkit");
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                lines.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        // long enough that no other step (class loading, a collection, a starved thread) outlasts it
        StuckSteps.after(java.util.concurrent.TimeUnit.SECONDS.toNanos(2));
        try {
            ScheduleRun run = ScheduleExplorer.random().replay(0, kit -> {
                TestProbe<String> out = kit.probe();
                kit.spawn(new WaitsForever(out.ref()), "waits").send("go");
                out.expectMessage("interrupted");
            });
            assertThat(run.failed()).as("%s", run).isFalse();
            assertThat(lines).filteredOn(line -> line.contains("(actor waits@")).singleElement().asString()
                    .startsWith("schedule explorer: step ")
                    .contains("(actor waits@").contains(") has run for ")
                    .contains("only this thread runs the program; it is interrupted now. It waits in:")
                    .contains("CountDownLatch.await");
        } finally {
            StuckSteps.after(java.util.concurrent.TimeUnit.SECONDS.toNanos(10));
            log.removeHandler(capture);
        }
    }

    /** A ticker that forwards each of its 100 ms ticks. */
    static final class Ticker extends Actor<String> {
        private final ActorRef<String> out;
        private int ticks;

        Ticker(ActorRef<String> out) {
            this.out = out;
        }

        @Override
        protected void onStart() {
            startTimerAtFixedRate("tick", "tick", Duration.ofMillis(100));
        }

        @Override
        protected void process(String tick) {
            out.send("tick " + ++ticks);
        }
    }

    /**
     * An explorer may spend a wait's time on timers while actors are ready: a fishing wait that reaches its deadline
     * still runs what is ready before it gives up, as every other wait does. It gave up at once, and 8 of 100 random
     * schedules failed with "the fish was not complete within 1 s".
     */
    @Test
    void aFishingWaitRunsWhatIsReadyBeforeItGivesUp() {
        ScheduleExplorer.Program program = kit -> {
            TestProbe<String> out = kit.probe("out");
            ActorRef<String> ticker = kit.spawn(new Ticker(out.ref()), "ticker");
            out.fishForMessage(Duration.ofSeconds(1),
                    m -> m.equals("tick 3") ? FishingOutcome.complete() : FishingOutcome.keepFishing());
            ticker.stop();
            kit.expectTerminated(ticker);
        };
        for (ScheduleExplorer explorer : List.of(ScheduleExplorer.random().seeds(0, 100),
                ScheduleExplorer.pct(2).seeds(0, 100))) {
            assertThat(explorer.explore(program).failure()).as("%s", explorer).isEmpty();
        }
    }
}

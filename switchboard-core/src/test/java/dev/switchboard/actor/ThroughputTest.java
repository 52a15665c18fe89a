package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Selector.Numbered;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.MutexMonitor;
import dev.switchboard.monitor.ReadersWriterMonitor;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An actor's own throughput budget ({@link ActorCore#throughput(int)}), measured in messages, not time: on one
 * worker a busy actor whose mailbox never runs dry forwards every message to a counter, and the counter can only
 * count between the busy actor's turns. So the most the counter lags behind is at least one turn less one message
 * (the busy actor's turn runs its whole budget while the counter waits) and at most two turns and one message (the
 * counter catches up between turns). Both bounds pin the budget the turns ran with.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ThroughputTest {
    /** Messages the busy actor forwards: many turns at every budget below. */
    static final int TOTAL = 20_000;
    /**
     * Messages after a change of budget by which the turns run with the new one and the counter has caught up: the
     * turn under way ends after its old budget (64 at most here), and a lag of two old turns takes the counter one
     * turn (its budget exceeds it).
     */
    static final int SETTLED = 4 * 64;
    /** A guard against a hang, not a speed limit. */
    static final Duration HANG_GUARD = Duration.ofSeconds(60);

    /** Counts; its own budget is larger than any turn of the busy actor's, so it catches up in one turn. */
    static final class Counter extends Actor<Integer> {
        final AtomicInteger counted = new AtomicInteger();

        Counter() {
            throughput(TOTAL);
        }

        @Override
        protected void process(Integer tick) {
            if (tick < 0) {
                exit();
            } else {
                counted.incrementAndGet();
            }
        }
    }

    /** What the busy actor does on each message: forward it and record how far the counter lags. */
    static final class Forwarding {
        final Counter counter;
        ActorRef<Integer> counterRef;
        int seen;
        /** The lag at each message, as it starts. */
        final int[] lagAt = new int[TOTAL];

        Forwarding(Counter counter) {
            this.counter = counter;
        }

        /** Returns true once the last message has been forwarded. */
        boolean forward(int m) {
            lagAt[seen] = seen - counter.counted.get();
            counterRef.send(m);
            if (++seen == TOTAL) {
                counterRef.send(-1);
                return true;
            }
            return false;
        }

        /** The largest lag at the messages {@code from} (inclusive) to {@code to} (exclusive). */
        int mostLag(int from, int to) {
            return Arrays.stream(lagAt, from, to).max().orElseThrow();
        }

        /** The largest lag of the whole run. */
        int mostLag() {
            return mostLag(0, TOTAL);
        }
    }

    /** The busy actor: declares {@code declared} (0: none) in its constructor, {@code later} after switchAt. */
    static final class BusyActor extends Actor<Integer> {
        final Forwarding f;
        final int switchAt;
        final int later;

        BusyActor(Forwarding f, int declared, int switchAt, int later) {
            this.f = f;
            this.switchAt = switchAt;
            this.later = later;
            if (declared > 0) {
                throughput(declared);
            }
        }

        @Override
        protected void process(Integer m) {
            if (f.seen == switchAt) {
                throughput(later);
            }
            if (f.forward(m)) {
                exit();
            }
        }
    }

    /** The same as a selector of two mailboxes, the messages alternating between them. */
    static final class BusySelector extends Selector<Integer, Numbered> {
        final Forwarding f;

        BusySelector(Forwarding f, int declared) {
            super(2);
            this.f = f;
            throughput(declared);
        }

        @Override
        protected int route(Integer m) {
            return m & 1;
        }

        @Override
        protected void process(Integer m) {
            if (f.forward(m)) {
                exit();
            }
        }
    }

    /** Runs the busy actor {@code busy} on one worker with the runtime's budget {@code runtimeBudget}. */
    static Forwarding run(int runtimeBudget, Counter counter, Forwarding f, ActorCore<Integer> busy) {
        try (TaskRuntime rt = TaskRuntime.builder().name("throughput").workers(1).throughput(runtimeBudget).build()) {
            rt.finish(HANG_GUARD, () -> {
                f.counterRef = counter.start();
                for (int i = 0; i < TOTAL; i++) {
                    busy.ref().send(i);                 // a deep mailbox: the busy actor never runs dry
                }
                busy.start();
            });
            assertThat(counter.counted.get()).isEqualTo(TOTAL);
            assertThat(busy.state()).isEqualTo(ActorState.TERMINATED);
            assertThat(rt.deadLetterCount()).isZero();
        }
        return f;
    }

    @ParameterizedTest(name = "runtime {0}, actor declares {1}: turns of {2}")
    @CsvSource({"64, 0, 64", "64, 4, 4", "64, 1, 1", "4, 64, 64", "4, 0, 4"})
    void anActorsTurnsTakeItsDeclaredBudget(int runtimeBudget, int declared, int turn) {
        Counter counter = new Counter();
        Forwarding f = new Forwarding(counter);
        run(runtimeBudget, counter, f, new BusyActor(f, declared, TOTAL, 0));
        assertThat(f.mostLag()).as("the counter's largest lag, in messages, with turns of %d", turn)
                .isBetween(turn - 1, 2 * turn + 1);
    }

    @Test
    void aSelectorsTurnsTakeItsDeclaredBudget() {
        Counter counter = new Counter();
        Forwarding f = new Forwarding(counter);
        run(64, counter, f, new BusySelector(f, 3));
        assertThat(f.mostLag()).as("the counter's largest lag, in messages, with turns of 3").isBetween(2, 7);
    }

    @ParameterizedTest(name = "turns of {1} from message {0} on")
    @CsvSource({"0, 2", "10000, 2", "10000, 1"})
    void aBudgetDeclaredWhileProcessingTakesEffectFromTheNextTurn(int switchAt, int later) {
        Counter counter = new Counter();
        Forwarding f = new Forwarding(counter);
        run(64, counter, f, new BusyActor(f, 0, switchAt, later));   // the runtime's 64 until the switch
        if (switchAt > 0) {
            assertThat(f.mostLag(0, switchAt)).as("largest lag before the switch, turns of 64").isBetween(63, 129);
        }
        assertThat(f.mostLag(switchAt + SETTLED, TOTAL)).as("largest lag once turns of %d have settled", later)
                .isBetween(later - 1, 2 * later + 1);
        // The turn under way when the budget changed still runs its 64: turns start at multiples of 64 until then.
        int endOfTurn = (switchAt / 64 + 1) * 64;
        assertThat(f.mostLag(switchAt, endOfTurn)).as("largest lag from the change to the end of its turn").isBetween(63, 129);
    }

    /**
     * The same for an actor bound to a monitor. Every read the readers-writer monitor starts at once runs inline
     * on one worker; a turn still runs only the budget's worth of them, and the rest wait for the next.
     */
    @ParameterizedTest(name = "bound to a {0} monitor, actor declares {1}")
    @CsvSource({"mutex, 4", "mutex, 0", "readers-writer, 4", "readers-writer, 0"})
    void anActorBoundToAMonitorTakesItsBudget(String monitor, int declared) {
        Counter counter = new Counter();
        Forwarding f = new Forwarding(counter);
        BusyActor busy = new BusyActor(f, declared, TOTAL, 0);
        if (monitor.equals("mutex")) {
            new MutexMonitor().bind(busy);
        } else {
            new ReadersWriterMonitor(Category.of("reads", Integer.class), Category.of("writes", String.class))
                    .bind(busy);
        }
        run(64, counter, f, busy);
        int turn = declared == 0 ? 64 : declared;
        assertThat(f.mostLag()).as("the counter's largest lag, in messages, with turns of %d", turn)
                .isBetween(turn - 1, 2 * turn + 1);
    }

    @Test
    void anActorWhoseMessagesRunAsTasksDeclaresItBeforeStart() throws Exception {
        AtomicReference<Throwable> refused = new AtomicReference<>();
        final class Parallel extends StatelessActor<String> {
            @Override
            protected void process(String m) {
                try {
                    throughput(3);
                } catch (IllegalStateException e) {
                    refused.set(e);
                }
            }
        }
        try (TaskRuntime rt = TaskRuntime.builder().name("throughput-tasks").workers(1).build()) {
            rt.finish(HANG_GUARD, () -> {
                Parallel p = new Parallel();
                p.throughput(3);                          // before start: accepted
                ActorRef<String> ref = p.start();
                ref.send("go");
                ref.stop();
            });
        }
        assertThat(refused.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("throughput() may only be called before start()")
                .hasMessageContaining("a stateless actor");
    }

    /** A child that narrows its budget on -2 and fails on -3; its supervisor restarts it with a fresh instance. */
    static final class Restarting extends Actor<Integer> {
        final Forwarding f;

        Restarting(Forwarding f) {
            this.f = f;
        }

        @Override
        protected void process(Integer m) {
            if (m == -2) {
                throughput(2);
            } else if (m == -3) {
                throw new IllegalStateException("planted failure");
            } else if (f.forward(m)) {
                exit();
            }
        }
    }

    @Test
    void aRestartKeepsTheBudget() {
        Counter counter = new Counter();
        Forwarding f = new Forwarding(counter);
        final class Parent extends Actor<Terminated> {
            @Override
            protected void onStart() {
                f.counterRef = counter.start();
                ActorRef<Integer> child = startChild(() -> new Restarting(f), SupervisorStrategy.restart());
                watch(child, t -> t);
                child.send(-2);                          // turns of 2 from the next one on
                child.send(-3);                          // a fresh instance, whose constructor declares nothing
                for (int i = 0; i < TOTAL; i++) {
                    child.send(i);
                }
            }

            @Override
            protected void process(Terminated t) {
                exit();
            }
        }
        try (TaskRuntime rt = TaskRuntime.builder().name("throughput-restart").workers(1).build()) {
            rt.finish(HANG_GUARD, () -> new Parent().start());
            assertThat(counter.counted.get()).isEqualTo(TOTAL);
        }
        assertThat(f.mostLag(SETTLED, TOTAL)).as("largest lag after the restart, turns of 2").isBetween(1, 5);
    }

    @Test
    void aBudgetBelowOneMessageIsRefusedNamingTheActor() {
        Counter counter = new Counter();
        Forwarding f = new Forwarding(counter);
        assertThatThrownBy(() -> new BusyActor(f, 0, 0, 0).throughput(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BusyActor")
                .hasMessageContaining("at least 1 message, got 0");
        assertThatThrownBy(() -> new BusySelector(f, -3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BusySelector")
                .hasMessageContaining("got -3");
    }

    @Test
    void onceStartedOnlyTheActorsProcessingMayChangeIt() throws Exception {
        AtomicReference<Throwable> fromOutside = new AtomicReference<>();
        final class Idle extends Actor<String> {
            @Override
            protected void process(String m) {
                exit();
            }
        }
        try (TaskRuntime rt = TaskRuntime.builder().name("throughput-owner").workers(1).build()) {
            rt.finish(HANG_GUARD, () -> {
                Idle idle = new Idle();
                idle.throughput(7);                      // before start: from anywhere
                ActorRef<String> ref = idle.start();
                try {
                    idle.throughput(3);
                } catch (IllegalStateException e) {
                    fromOutside.set(e);
                }
                ref.send("stop");
            });
        }
        assertThat(fromOutside.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("throughput() may only be called while")
                .hasMessageContaining("processes a message or a reply");
    }
}

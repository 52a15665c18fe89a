package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.Switchboard;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cell seam: a cell hosts a fresh instance of its actor behind the same reference, with the queued messages
 * kept (what a supervisor's restart builds on).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorHostingTest {
    static TaskRuntime rt;
    static final Queue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("hosting").workers(2).build();
        DeadLetter.subscribe(rt, deadLetters::add);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    sealed interface Msg permits Inc, Swap, Stop {}

    record Inc() implements Msg {}

    record Swap() implements Msg {}

    record Stop() implements Msg {}

    /** Counts per generation; Swap hosts the next generation in its cell. */
    static final class Counter extends Actor<Msg> {
        final Queue<String> log;
        final int generation;
        int count;

        Counter(Queue<String> log, int generation) {
            this.log = log;
            this.generation = generation;
        }

        @Override
        protected void onStart() {
            log.add("start " + generation + " as " + self().name());
        }

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Inc i -> log.add(generation + ":" + ++count);
                case Swap s -> ActorHosting.host(cell(), ActorHosting.create(cell(),
                        () -> new Counter(log, generation + 1)));
                case Stop s -> exit();
            }
        }

        @Override
        protected void onExit() {
            log.add("exit " + generation);
        }
    }

    @Test
    void aFreshInstanceTakesTheQueuedMessagesBehindTheSameReference() {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Counter first = new Counter(log, 0);
        long deadBefore = deadLetters.size();
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Msg> ref = first.start("counter");
            for (int i = 0; i < 3; i++) {
                ref.send(new Inc());
            }
            ref.send(new Swap());
            for (int i = 0; i < 5; i++) {
                ref.send(new Inc());
            }
            ref.send(new Swap());
            ref.send(new Inc());
            ref.send(new Stop());
        });

        assertThat(List.copyOf(log)).containsExactly("start 0 as counter", "0:1", "0:2", "0:3",
                "start 1 as counter", "1:1", "1:2", "1:3", "1:4", "1:5",
                "start 2 as counter", "2:1", "exit 2");
        assertThat(first.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(first.processedCount()).isEqualTo(12);
        assertThat(first.deadLetterCount()).isZero();
        assertThat(deadLetters.size()).isEqualTo(deadBefore);
    }

    /** Records the instance that processes each message, and what its own operations act on. */
    static final class Probe extends Actor<String> {
        final Queue<Object> seen;
        Probe hosted;

        Probe(Queue<Object> seen) {
            this.seen = seen;
        }

        @Override
        protected void process(String msg) {
            switch (msg) {
                case "host" -> {
                    hosted = ActorHosting.create(cell(), () -> new Probe(seen));
                    ActorHosting.host(cell(), hosted);
                }
                case "who" -> {
                    seen.add(this);
                    seen.add(self());
                    seen.add(state());
                }
                case "pause-then-exit" -> {
                    pause();                       // acts on the cell: the next message waits
                    exit();
                }
                default -> throw new IllegalArgumentException(msg);
            }
        }
    }

    @Test
    void aHostedInstanceActsOnItsCell() {
        Queue<Object> seen = new ConcurrentLinkedQueue<>();
        Probe cell = new Probe(seen);
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<String> ref = cell.start();
            ref.send("who");
            ref.send("host");
            ref.send("who");
            ref.send("pause-then-exit");
            ref.send("who");                       // a dead letter: the hosted instance's exit() ended the cell
        });

        List<Object> s = List.copyOf(seen);
        assertThat(s).hasSize(6);
        assertThat(s.get(0)).isSameAs(cell);
        assertThat(s.get(3)).isSameAs(cell.hosted).isNotSameAs(cell);
        assertThat(s.get(1)).isSameAs(s.get(4));                     // one reference for both instances
        assertThat(s.get(5)).isEqualTo(ActorState.STARTED);          // the hosted instance reads the cell's state
        assertThat(cell.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(cell.hosted.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(cell.deadLetterCount()).isEqualTo(1);
        assertThat(cell.hosted.processedCount()).isEqualTo(cell.processedCount()).isEqualTo(4);

        assertThatThrownBy(cell.hosted::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not started on its own");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void misuseIsRefusedWithAClearError() {
        Queue<Object> seen = new ConcurrentLinkedQueue<>();
        Probe cell = new Probe(seen);
        Probe other = new Probe(seen);
        assertThatThrownBy(() -> ActorHosting.create(cell, () -> other)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not create for it");
        ActorCore<Object> anyCell = (ActorCore) cell;
        assertThatThrownBy(() -> ActorHosting.create(anyCell,
                () -> (ActorCore) new Counter(new ConcurrentLinkedQueue<>(), 0)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("hosts instances of its own class");
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<String> ref = cell.start();
            Probe fresh = ActorHosting.create(cell, () -> new Probe(seen));
            assertThatThrownBy(() -> ActorHosting.host(cell, fresh)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("may only be called while");
            assertThatThrownBy(() -> ActorHosting.host(cell, other)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("was not created for");
            ref.send("pause-then-exit");
        });
        assertThat(cell.state()).isEqualTo(ActorState.TERMINATED);
    }

    enum Box { WORK, CONTROL }          // WORK first: once open, it is served before CONTROL

    /**
     * Work waits in WORK until CONTROL says "open"; "host" on CONTROL hosts a fresh instance, which opens WORK
     * itself: the hosted instance's enable acts on the cell's mailboxes.
     */
    static final class Gate extends Selector<String, Box> {
        final Queue<String> log;
        final int generation;

        Gate(Queue<String> log, int generation) {
            super(Box.class);
            this.log = log;
            this.generation = generation;
            if (generation == 0) {
                disable(Box.WORK);
            }
        }

        @Override
        protected int route(String message) {
            return (message.startsWith("w") ? Box.WORK : Box.CONTROL).ordinal();
        }

        @Override
        protected void process(String msg) {
            switch (msg) {
                case "host" -> ActorHosting.host(cell(), ActorHosting.create(cell(),
                        () -> new Gate(log, generation + 1)));
                case "open" -> enable(Box.WORK);
                case "stop" -> exit();
                default -> log.add(generation + ":" + msg);
            }
        }
    }

    @Test
    void aHostedSelectorUsesTheCellsMailboxes() {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Gate gate = new Gate(log, 0);
        rt.finish(Duration.ofSeconds(30), () -> {
            SelectorRef<String, Box> ref = gate.start();
            ref.send("w1");
            ref.send("w2");
            ref.send(Box.CONTROL, "host");
            ref.send(Box.CONTROL, "open");
            ref.send(Box.CONTROL, "stop");
        });
        assertThat(List.copyOf(log)).containsExactly("1:w1", "1:w2");
        assertThat(gate.mailboxSize()).isZero();
        assertThat(gate.state()).isEqualTo(ActorState.TERMINATED);
    }

    /** Builds a helper actor of its own class and a child of another class before it is built itself. */
    static final class Parent extends Actor<String> {
        static Parent withHelpers(Queue<Object> built) {
            built.add(new Probe(new ConcurrentLinkedQueue<>()));     // another class: an actor of its own
            return new Parent(built);
        }

        final Queue<Object> built;
        final Probe child = new Probe(new ConcurrentLinkedQueue<>());

        Parent(Queue<Object> built) {
            this.built = built;
        }

        @Override
        protected void process(String msg) {
            switch (msg) {
                case "host" -> {
                    Parent fresh = ActorHosting.create(cell(), () -> withHelpers(built));
                    built.add(fresh);
                    ActorHosting.host(cell(), fresh);
                }
                case "stop" -> exit();
                default -> built.add(this);
            }
        }
    }

    @Test
    void onlyTheFactorysInstanceOfTheCellsClassTakesTheCell() {
        Queue<Object> built = new ConcurrentLinkedQueue<>();
        Parent cell = new Parent(built);
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<String> ref = cell.start();
            ref.send("host");
            ref.send("who");
            ref.send("stop");
        });
        List<Object> b = List.copyOf(built);
        assertThat(b).hasSize(3);
        Probe helper = (Probe) b.get(0);
        Parent fresh = (Parent) b.get(1);
        assertThat(b.get(2)).isSameAs(fresh);                          // "who" ran on the hosted instance
        assertThat(helper.cell()).isSameAs(helper);                  // the helper is an actor of its own
        assertThat(fresh.child.cell()).isSameAs(fresh.child);        // and so is the fresh instance's child
        assertThat(fresh.cell()).isSameAs(cell);
    }

    /** A hosted selector's task enables a mailbox: the cell is woken, the waiting message processed. */
    static final class LateGate extends Selector<String, Box> {
        final Queue<String> log;
        final int generation;

        LateGate(Queue<String> log, int generation) {
            super(Box.class);
            this.log = log;
            this.generation = generation;
            if (generation == 0) {
                disable(Box.WORK);
            }
        }

        @Override
        protected int route(String message) {
            return (message.startsWith("w") ? Box.WORK : Box.CONTROL).ordinal();
        }

        @Override
        protected void process(String msg) {
            switch (msg) {
                case "host" -> ActorHosting.host(cell(), ActorHosting.create(cell(),
                        () -> new LateGate(log, generation + 1)));
                case "open-later" -> Switchboard.async(() -> enable(Box.WORK));   // from a task it spawned
                default -> {
                    log.add(generation + ":" + msg);
                    exit();
                }
            }
        }
    }

    @Test
    void aHostedSelectorsTaskThatEnablesAMailboxWakesTheCell() {
        Queue<String> log = new ConcurrentLinkedQueue<>();
        LateGate gate = new LateGate(log, 0);
        rt.finish(Duration.ofSeconds(30), () -> {
            SelectorRef<String, Box> ref = gate.start();
            ref.send(Box.CONTROL, "host");
            ref.send(Box.CONTROL, "open-later");
            ref.send(Box.WORK, "w1");
        });
        assertThat(List.copyOf(log)).containsExactly("1:w1");
        assertThat(gate.state()).isEqualTo(ActorState.TERMINATED);
    }
}

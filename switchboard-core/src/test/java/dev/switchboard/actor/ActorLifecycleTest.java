package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.MultiException;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorLifecycleTest {
    static TaskRuntime rt;
    static final ConcurrentLinkedQueue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("lifecycle").workers(2).build();
        DeadLetter.subscribe(rt, deadLetters::add);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    /** Records what it processes; "stop" exits; "boom" throws. */
    static final class Recorder extends Actor<String> {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        protected void process(String msg) {
            switch (msg) {
                case "stop" -> exit();
                case "boom" -> throw new IllegalStateException("boom in " + this);
                default -> seen.add(msg);
            }
        }
    }

    @Test
    void lifeCycleStatesAndFinishWaitsForExit() {
        Recorder r = new Recorder();
        assertThat(r.state()).isEqualTo(ActorState.NEW);
        assertThat(r.runtime()).isNull();
        rt.finish(() -> {
            ActorRef<String> ref = r.start();
            assertThat(r.state()).isIn(ActorState.STARTED);
            ref.send("a");
            ref.send("stop");
        });
        assertThat(r.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(r.seen).containsExactly("a");
        assertThat(r.runtime()).isSameAs(rt);
    }

    @Test
    void messagesSentBeforeStartAreKept() {
        Recorder r = new Recorder();
        r.self.send("1");                      // before start(): the actor's ref, from its field
        r.self.send("2");
        assertThat(r.mailboxSize()).isEqualTo(2);
        rt.finish(() -> {
            ActorRef<String> ref = r.start();
            ref.send("3");
            ref.send("stop");
        });
        assertThat(r.seen).containsExactly("1", "2", "3");
        assertThat(r.processedCount()).isEqualTo(4);
    }

    @Test
    void messagesAfterExitAreCountedDeadLetters() {
        Recorder r = new Recorder();
        AtomicReference<ActorRef<String>> ref = new AtomicReference<>();
        long runtimeBefore = rt.deadLetterCount();
        deadLetters.clear();
        rt.finish(() -> {
            ref.set(r.start());
            ref.get().send("stop");
        });
        ref.get().send("late-1");
        ref.get().send("late-2");
        assertThat(r.deadLetterCount()).isEqualTo(2);
        assertThat(rt.deadLetterCount() - runtimeBefore).isEqualTo(2);
        assertThat(deadLetters).extracting(DeadLetter::message).containsExactly("late-1", "late-2");
        assertThat(deadLetters).allMatch(d -> d.recipient().equals(ref.get())
                && d.reason() == DeadLetter.Reason.RECIPIENT_TERMINATED);
    }

    @Test
    void messagesLeftInTheMailboxAtExitAreDeadLetters() {
        Recorder r = new Recorder();
        deadLetters.clear();
        r.self.send("stop");                   // before start()
        for (int i = 0; i < 10; i++) {
            r.self.send("left-" + i);
        }
        rt.finish(() -> r.start());
        assertThat(r.seen).isEmpty();
        assertThat(r.deadLetterCount()).isEqualTo(10);
        assertThat(deadLetters).hasSize(10)
                .allMatch(d -> d.reason() == DeadLetter.Reason.UNPROCESSED_AT_EXIT);
    }

    @Test
    void exceptionTerminatesTheActorAndReachesItsFinish() {
        Recorder r = new Recorder();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            ActorRef<String> ref = r.start();
            ref.send("x");
            ref.send("boom");
            ref.send("never");
        }));
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("boom in Recorder@");
        assertThat(thrown.getSuppressed()).hasSize(1);
        assertThat(thrown.getSuppressed()[0].getMessage())
                .contains(r.toString()).contains("was terminated").contains("process(boom)");
        assertThat(r.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(r.seen).containsExactly("x");
        assertThat(r.deadLetterCount()).isEqualTo(1);
    }

    @Test
    void failuresOfSeveralActorsAreAggregated() {
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            for (int i = 0; i < 3; i++) {
                ActorRef<String> r = new Recorder().start();
                r.send("boom");
            }
        }));
        assertThat(thrown).isInstanceOf(MultiException.class);
        assertThat(((MultiException) thrown).failures()).hasSize(3);
    }

    @Test
    void startTwiceIsAnError() {
        Recorder r = new Recorder();
        rt.finish(() -> {
            ActorRef<String> ref = r.start();
            assertThatThrownBy(r::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already started");
            ref.send("stop");
        });
    }

    @Test
    void lifeCycleOperationsFromOutsideTheActorAreRejected() {
        final class Passive extends Actor<Runnable> {
            @Override
            protected void process(Runnable r) {
                r.run();
            }

            void exitFromOutside() {
                exit();
            }
        }
        Passive p = new Passive();
        rt.finish(() -> {
            ActorRef<Runnable> ref = p.start();
            assertThatThrownBy(p::exitFromOutside).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("may only be called while " + p)
                    .hasMessageContaining("(called from the body of a finish opened by thread '"
                            + Thread.currentThread().getName() + "', not " + p + "'s)");
            ref.send(p::exitFromOutside);
        });
        assertThat(p.state()).isEqualTo(ActorState.TERMINATED);
    }

    @Test
    void nullMessageIsRejectedWithTheActorsName() {
        Recorder r = new Recorder();
        assertThatThrownBy(() -> r.self.send(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("Recorder@");
    }

    @Test
    void actorStartedOutsideEveryFinishReportsFailuresToTheUnscopedHandler() throws Exception {
        ConcurrentLinkedQueue<Throwable> unscoped = new ConcurrentLinkedQueue<>();
        java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
        try (TaskRuntime own = TaskRuntime.builder().workers(1).onUnscopedFailure(f -> {
            unscoped.add(f);
            reported.countDown();
        }).build()) {
            Recorder r = new Recorder();
            // async outside every finish belongs to the runtime's global scope, and so does an actor it starts
            own.async(() -> {
                ActorRef<String> ref = r.start();
                ref.send("boom");
            });
            assertThat(reported.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(unscoped.peek()).hasMessageStartingWith("boom in " + r);
        }
    }

    /** become/unbecome, like exit and pause, belong to the actor's own context once it has started. */
    @Test
    void becomeFromAnotherThreadIsRejectedOnceStarted() {
        final class Switcher extends Actor<String> {
            Switcher() {
                become(m -> { });                   // before start: configuring the first behavior is fine
                unbecome();
            }

            void switchFromOutside() {
                become(m -> { });
            }

            void restoreFromOutside() {
                unbecome();
            }

            @Override
            protected void process(String m) {
                if (m.equals("stop")) {
                    exit();
                }
            }
        }
        Switcher s = new Switcher();
        rt.finish(() -> {
            ActorRef<String> ref = s.start();
            assertThatThrownBy(s::switchFromOutside).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(s + ".become() may only be called while " + s + " processes a message");
            assertThatThrownBy(s::restoreFromOutside).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(s + ".unbecome() may only be called");
            ref.send("stop");
        });
    }
}

package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.ProcessingFailure;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Errors thrown on a worker are contained: the worker lives on, the error reaches the finish that owns the work,
 * and a finish whose work cannot be trusted to complete (an OutOfMemoryError) ends with it instead of hanging.
 * (A real heap exhaustion, in a JVM of its own, is {@link OutOfMemoryTest}.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultContainmentTest {

    /** An actor that never exits: it keeps any finish it is started in open. */
    static final class Forever extends Actor<String> {
        @Override
        protected void process(String m) {
            if (m.equals("stop")) {
                exit();
            }
        }
    }

    @Test
    void anOutOfMemoryErrorEndsTheFinishAtOnceAndTheRuntimeLivesOn() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Forever forever = new Forever();
            AtomicReference<ActorRef<String>> foreverRef = new AtomicReference<>();
            OutOfMemoryError oom = new OutOfMemoryError("injected");
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                foreverRef.set(forever.start());      // keeps the finish open: without the error it would wait
                rt.async(() -> {
                    throw oom;
                });
            }));
            assertThat(thrown).isSameAs(oom);
            assertThat(forever.state()).isEqualTo(ActorState.STARTED);   // its work goes on, handed to the global scope

            // the workers survived: a full workload runs with exact counts
            LongAdder processed = new LongAdder();
            rt.finish(() -> {
                for (int i = 0; i < 100; i++) {
                    Actor<Integer> a = new Actor<>() {
                        @Override
                        protected void process(Integer m) {
                            processed.increment();
                            if (m == 99) {
                                exit();
                            }
                        }
                    };
                    ActorRef<Integer> ref = a.start();
                    rt.async(() -> {
                        for (int j = 0; j < 100; j++) {
                            ref.send(j);
                        }
                    });
                }
            });
            assertThat(processed.sum()).isEqualTo(10_000);
            assertThat(rt.scheduler().workerDeaths()).isZero();
            rt.finish(() -> foreverRef.get().send("stop"));
        }
    }

    @Test
    void anOutOfMemoryErrorFromAnActorEndsItsFinishAndNamesTheActor() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Forever forever = new Forever();
            AtomicReference<ActorRef<String>> foreverRef = new AtomicReference<>();
            Actor<String> hungry = new Actor<>() {
                @Override
                protected void process(String m) {
                    throw new OutOfMemoryError("injected in " + this);
                }
            };
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                foreverRef.set(forever.start());
                ActorRef<String> ref = hungry.start();
                ref.send("eat");
            }));
            assertThat(thrown).isInstanceOf(OutOfMemoryError.class).hasMessage("injected in " + hungry);
            assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(ProcessingFailure.class);
            rt.finish(() -> foreverRef.get().send("stop"));
        }
    }

    @Test
    void aStackOverflowErrorIsNotFatal() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            AtomicInteger after = new AtomicInteger();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                rt.async(() -> {
                    throw new StackOverflowError("injected");
                });
                for (int i = 0; i < 100; i++) {
                    rt.async(after::incrementAndGet);
                }
            }));
            assertThat(thrown).isInstanceOf(StackOverflowError.class);
            assertThat(after.get()).isEqualTo(100);            // the finish waited for all of its work
        }
    }

    /** A selection policy is user code running inside the dispatch loop, outside process(). */
    static final class BrokenPolicySelector extends Selector<String, Selector.Numbered> {
        BrokenPolicySelector(Throwable failure) {
            super(2, (ready, last) -> {
                throw Sneaky.<RuntimeException>rethrow(failure);
            });
        }

        @Override
        protected void process(String m) {
        }
    }

    @Test
    void anErrorInsideTheDispatchLoopFailsTheActorInsteadOfHangingItsFinish() {
        for (Throwable failure : List.of(new OutOfMemoryError("policy"), new IllegalStateException("policy"))) {
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                DeadLetter.subscribe(rt, dead::add);
                BrokenPolicySelector s = new BrokenPolicySelector(failure);
                Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(20), () -> {
                    s.ref().send(1, "a");              // before start()
                    s.ref().send(0, "b");
                    s.start();
                }));
                assertThat(thrown).as(failure.toString()).isSameAs(failure);
                assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(ProcessingFailure.class)
                        .extracting(Throwable::getMessage).asString().contains(s + " was terminated")
                        .contains("selection policy");
                // A fatal failure (the OutOfMemoryError) ends the finish as soon as it is reported, which is just
                // before the failing actor terminates and drains: wait for that, within a bound.
                Await.until(s + " terminated with 2 dead letters",
                        () -> s.state() == ActorState.TERMINATED && dead.size() >= 2);
                assertThat(s.state()).isEqualTo(ActorState.TERMINATED);
                assertThat(dead).hasSize(2);
                assertThat(rt.scheduler().workerDeaths()).isZero();
            }
        }
    }

    /** Nobody waits for the global scope: a fatal error in work outside every finish must not stop it for good. */
    @Test
    void aFatalErrorOutsideEveryFinishDoesNotStopLaterWorkThere() throws Exception {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).onUnscopedFailure(unscoped::add).build()) {
            rt.async(() -> {
                throw new OutOfMemoryError("injected outside every finish");
            });
            Await.until("the failure outside every finish", () -> !unscoped.isEmpty());
            assertThat(unscoped).singleElement().isInstanceOf(OutOfMemoryError.class);
            LongAdder iterations = new LongAdder();
            CountDownLatch done = new CountDownLatch(10_000);
            rt.forasync(0, 10_000, 100, i -> {                // outside every finish too
                iterations.increment();
                done.countDown();
            });
            assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(iterations.sum()).isEqualTo(10_000);
        }
    }
}

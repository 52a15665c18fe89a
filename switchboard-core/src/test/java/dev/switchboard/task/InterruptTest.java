package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An interrupt belongs to the message or task during which it was set: the next one starts without it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptTest {

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void aTaskInterruptedBeforeANestedFinishKeepsItsInterruptAndTheTasksItHelpsWithStartWithout(int workers) {
        try (TaskRuntime rt = TaskRuntime.create(workers)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            rt.finish(() -> {
                for (int i = 0; i < 20; i++) {
                    rt.async(() -> {
                        Thread.currentThread().interrupt();
                        rt.finish(() -> {
                            for (int j = 0; j < 4; j++) {
                                rt.async(() -> seen.add("inner " + Thread.currentThread().isInterrupted()));
                            }
                        });
                        seen.add("outer after its finish " + Thread.interrupted());
                        Thread.currentThread().interrupt();
                        TaskFuture<Integer> f = rt.future(() -> {
                            seen.add("producer " + Thread.currentThread().isInterrupted());
                            return 7;
                        });
                        seen.add("outer got " + f.get() + " " + Thread.interrupted());
                    });
                }
            });
            assertThat(seen).filteredOn(s -> s.startsWith("inner")).hasSize(80).containsOnly("inner false");
            assertThat(seen).filteredOn(s -> s.startsWith("outer after")).hasSize(20)
                    .containsOnly("outer after its finish true");
            assertThat(seen).filteredOn(s -> s.startsWith("producer")).hasSize(20).containsOnly("producer false");
            assertThat(seen).filteredOn(s -> s.startsWith("outer got")).hasSize(20).containsOnly("outer got 7 true");
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void anInterruptSetByOneActorIsNotSeenByTheNextActorOnItsWorker(int workers) {
        try (TaskRuntime rt = TaskRuntime.create(workers)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            AtomicReference<ActorRef<Integer>> victimRef = new AtomicReference<>();   // set before the interrupter starts
            Actor<Integer> victim = new Actor<>() {
                @Override
                protected void process(Integer m) {
                    seen.add("victim " + m + " interrupted=" + Thread.currentThread().isInterrupted());
                    if (m == 99) {
                        exit();
                    }
                }
            };
            Actor<Integer> interrupter = new Actor<>() {
                @Override
                protected void process(Integer m) {
                    Thread.currentThread().interrupt();
                    seen.add("interrupter " + m + " still interrupted=" + Thread.currentThread().isInterrupted());
                    victimRef.get().send(m);            // handed off: runs next on this worker
                    if (m == 99) {
                        exit();
                    }
                }
            };
            rt.finish(() -> {
                victimRef.set(victim.start());
                ActorRef<Integer> ref = interrupter.start();
                for (int i = 0; i < 100; i++) {
                    ref.send(i);
                }
            });
            assertThat(seen).filteredOn(s -> s.startsWith("victim")).hasSize(100)
                    .allSatisfy(s -> assertThat(s).endsWith("interrupted=false"));
            assertThat(seen).filteredOn(s -> s.startsWith("interrupter")).hasSize(100)
                    .allSatisfy(s -> assertThat(s).endsWith("still interrupted=true"));
        }
    }

    @Test
    void anInterruptSetByOneMessageIsNotSeenByTheSameActorsNextMessage() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            List<Boolean> interrupted = new CopyOnWriteArrayList<>();
            final class Interrupting extends Actor<Integer> {
                @Override
                protected void process(Integer m) {
                    interrupted.add(Thread.currentThread().isInterrupted());
                    Thread.currentThread().interrupt();
                    if (m == 9) {
                        exit();
                    }
                }

            }
            Interrupting a = new Interrupting();
            rt.finish(() -> {
                for (int i = 0; i < 10; i++) {
                    a.ref().send(i);                    // before start()
                }
                a.start();
            });
            assertThat(interrupted).hasSize(10).containsOnly(false);
        }
    }

    @Test
    void anInterruptSetByATaskIsNotSeenByTheNextTask() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            List<Boolean> interrupted = new CopyOnWriteArrayList<>();
            rt.finish(() -> rt.async(() -> {
                for (int i = 0; i < 20; i++) {
                    rt.async(() -> {
                        interrupted.add(Thread.currentThread().isInterrupted());
                        Thread.currentThread().interrupt();
                    });
                }
            }));
            assertThat(interrupted).hasSize(20).containsOnly(false);
        }
    }
}

package dev.switchboard.bench.jmh;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Activation: a message to an idle actor takes the actor's scheduling token, schedules it, runs it and
 * releases the token. Inside a finish, one task sends one message to each of {@value #ACTORS} idle actors.
 * Also: a whole actor life (create, start, one message, exit), the cost Savina's fjcreate measures.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ActivationBenchmark {
    static final int ACTORS = 1_000;

    static final class Counter extends Actor<Integer> {
        final AtomicInteger total;

        Counter(AtomicInteger total) {
            this.total = total;
        }

        @Override
        protected void process(Integer m) {
            if (m < 0) {
                exit();
            } else {
                total.incrementAndGet();
            }
        }
    }

    @State(Scope.Benchmark)
    public static class Actors {
        TaskRuntime runtime;
        ActorRef<Integer>[] actors;
        final AtomicInteger total = new AtomicInteger();

        @Setup(Level.Trial)
        @SuppressWarnings("unchecked")
        public void setUp() {
            runtime = TaskRuntime.create(2);
            actors = ActorRef.newArray(ACTORS);
            CountDownLatch started = new CountDownLatch(1);
            runtime.async(() -> {                       // long-lived actors: in the global scope, not a finish
                for (int i = 0; i < ACTORS; i++) {
                    actors[i] = new Counter(total).start();
                }
                started.countDown();
            });
            try {
                started.await();                        // before the first iteration reads the references
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the actors started", e);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            runtime.finish(() -> {
                for (ActorRef<Integer> c : actors) {
                    c.send(-1);
                }
            });
            runtime.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(ACTORS)
    public int sendToIdleActors(Actors s) {
        int before = s.total.get();
        s.runtime.finish(() -> s.runtime.async(() -> {
            for (ActorRef<Integer> c : s.actors) {
                c.send(1);
            }
        }));
        while (s.total.get() - before < ACTORS) {   // the actors are long-lived: wait for the messages
            Thread.onSpinWait();
        }
        return s.total.get();
    }

    @Benchmark
    @OperationsPerInvocation(ACTORS)
    public int actorLifeCycle(TwoWorkers s) {
        AtomicInteger total = new AtomicInteger();
        s.runtime.finish(() -> {
            for (int i = 0; i < ACTORS; i++) {
                ActorRef<Integer> c = new Counter(total).start();
                c.send(1);
                c.send(-1);
            }
        });
        return total.get();
    }
}

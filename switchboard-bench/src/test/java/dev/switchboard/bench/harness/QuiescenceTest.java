package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.PoisonPill;
import org.apache.pekko.actor.Props;
import org.apache.pekko.dispatch.Dispatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The wait between timed runs: it returns once every runtime is quiescent, and fails, naming it, on a stuck one. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QuiescenceTest {

    @Test
    void aRuntimeStillBusyAfterTheLimitFailsTheWaitNamingIt() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).noHangReports().build()) {
            ForkJoinPool pool = new ForkJoinPool(1);
            try {
                Quiescence quiescence = new Quiescence(rt, List.of(), pool);
                CountDownLatch release = new CountDownLatch(1);
                CountDownLatch started = new CountDownLatch(1);
                Thread waiter = Thread.ofPlatform().start(() -> rt.finish(() -> rt.async(() -> {
                    started.countDown();
                    release.await();                   // a task still running after "the run"
                })));
                started.await();
                assertThatThrownBy(() -> quiescence.await(TimeUnit.MILLISECONDS.toNanos(50)))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the Switchboard runtime")
                        .hasMessageContaining("still had work 50 ms after the run ended");
                release.countDown();
                waiter.join();
                assertThatCode(() -> quiescence.await(Quiescence.LIMIT_NANOS)).doesNotThrowAnyException();

                CountDownLatch poolRelease = new CountDownLatch(1);
                CountDownLatch poolStarted = new CountDownLatch(1);
                pool.execute(() -> {
                    poolStarted.countDown();
                    try {
                        poolRelease.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                poolStarted.await();
                assertThatThrownBy(() -> quiescence.await(TimeUnit.MILLISECONDS.toNanos(50)))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the ForkJoinPool");
                poolRelease.countDown();
                assertThatCode(() -> quiescence.await(Quiescence.LIMIT_NANOS)).doesNotThrowAnyException();
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** An actor that stays until stopped: a benchmark actor a stuck run left behind. Counts down when started. */
    static final class Idle extends AbstractActor {
        private final CountDownLatch started;

        Idle(CountDownLatch started) {
            this.started = started;
        }

        @Override
        public void preStart() {
            started.countDown();
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().build();
        }
    }

    /**
     * An actor of a run still attached to a Pekko dispatcher. {@code system.actorOf} creates it asynchronously,
     * through the guardian, so the test waits until it has started (and is attached) before it looks.
     */
    @Test
    void aPekkoSystemWithActorsOfTheRunLeftIsNamed() throws Exception {
        ActorSystem system = ActorSystem.create("quiescence-test");
        ForkJoinPool pool = new ForkJoinPool(1);
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).noHangReports().build()) {
            Quiescence quiescence = new Quiescence(rt, List.of(system), pool);
            CountDownLatch started = new CountDownLatch(1);
            ActorRef left = system.actorOf(Props.create(Idle.class, () -> new Idle(started)));
            started.await();
            assertThatThrownBy(() -> quiescence.await(TimeUnit.MILLISECONDS.toNanos(200)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the Pekko system quiescence-test (1 actor of the run not yet detached)");
            left.tell(PoisonPill.getInstance(), ActorRef.noSender());
            assertThatCode(() -> quiescence.await(Quiescence.LIMIT_NANOS)).doesNotThrowAnyException();
        } finally {
            pool.shutdownNow();
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Work on a Pekko system's internal dispatcher (where its own actors hear of a run's actors stopping) keeps the
     * wait waiting, naming the system, until it ends.
     */
    @Test
    void workOnPekkosInternalDispatcherIsWaitedFor() throws Exception {
        ActorSystem system = ActorSystem.create("internal-test");
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).noHangReports().build()) {
            Quiescence quiescence = new Quiescence(rt, List.of(system), null);
            ForkJoinPool internal = Quiescence.forkJoinPoolOf(system.dispatchers().lookup(Quiescence.INTERNAL_DISPATCHER));
            assertThat(internal).as("Pekko's internal dispatcher runs on a fork-join pool").isNotNull();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            internal.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            started.await();
            assertThatThrownBy(() -> quiescence.await(TimeUnit.MILLISECONDS.toNanos(50)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the Pekko system internal-test (work on its internal dispatcher)");
            release.countDown();
            assertThatCode(() -> quiescence.await(Quiescence.LIMIT_NANOS)).doesNotThrowAnyException();
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A Pekko dispatcher thread that spins with no actor of a run left (what the JDK's pool sometimes does): the wait
     * for quiescence passes, the look for spinning threads fails, naming the system and the thread, and the system
     * is one to replace; once the thread stops, the look passes again. The look asks for 5 % of a core, which a
     * spinning thread gets on a busy machine too.
     */
    @Test
    void aPekkoThreadSpinningWithNoWorkFailsTheLookNamingIt() throws Exception {
        ActorSystem system = ActorSystem.create("spin-test");
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).noHangReports().build()) {
            Quiescence quiescence = new Quiescence(rt, List.of(system), null);
            quiescence.spinShare = 0.05;
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch spinning = new CountDownLatch(1);
            // On the dispatcher's executor itself, as the pool's own spin is: the dispatcher's execute would count
            // the task as an inhabitant.
            ((Dispatcher) system.dispatcher()).executorService().execute(() -> {
                spinning.countDown();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            spinning.await();
            try {
                assertThatCode(() -> quiescence.await(Quiescence.LIMIT_NANOS)).doesNotThrowAnyException();
                assertThatThrownBy(quiescence::requireNoneSpinning)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the Pekko system spin-test (its thread 'spin-test-pekko.actor.default-dispatcher-")
                        .hasMessageContaining("kept a core busy after the benchmark's last run");
                assertThat(quiescence.busyPekkoSystems()).containsExactly(system);
            } finally {
                stop.set(true);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!quiescence.busyPekkoSystems().isEmpty()) {
                assertThat(System.nanoTime()).as("the dispatcher thread stopped spinning within 30 s")
                        .isLessThan(deadline);
            }
            assertThatCode(quiescence::requireNoneSpinning).doesNotThrowAnyException();
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}

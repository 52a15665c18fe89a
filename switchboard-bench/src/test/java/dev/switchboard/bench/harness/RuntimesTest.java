package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.pingpong.PingPong;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * After a benchmark fails, the harness's runtimes recover: a Pekko system left stuck with actors of the run is
 * terminated and replaced, so the benchmarks after it run beside nothing left over instead of all failing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RuntimesTest {
    private static final long SHORT = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void aPekkoSystemLeftWithActorsOfAFailedRunIsReplacedByANewOne() throws Exception {
        try (Runtimes runtimes = new Runtimes(1, 64, Duration.ZERO, List.of(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED),
                false)) {
            assertThat(runtimes.recover(SHORT)).as("quiescent: nothing to replace").isEmpty();
            ActorSystem stuck = runtimes.pekko(Side.PEKKO_MATCHED);
            ActorSystem other = runtimes.pekko(Side.PEKKO_DEFAULT);
            CountDownLatch started = new CountDownLatch(1);
            stuck.actorOf(Props.create(QuiescenceTest.Idle.class, () -> new QuiescenceTest.Idle(started)));
            started.await();

            assertThat(runtimes.recover(SHORT)).containsExactly("pekko-matched");

            assertThat(stuck.whenTerminated().isCompleted()).isTrue();
            ActorSystem fresh = runtimes.pekko(Side.PEKKO_MATCHED);
            assertThat(fresh).isNotSameAs(stuck);
            assertThat(fresh.name()).isEqualTo("pekko-matched");
            assertThat(runtimes.pekko(Side.PEKKO_DEFAULT)).as("a quiescent system is kept").isSameAs(other);
            PingPong b = new PingPong(1_000);
            for (Side side : List.of(Side.PEKKO_MATCHED, Side.PEKKO_DEFAULT, Side.SWITCHBOARD)) {
                assertThat(runtimes.run(b, side)).isEqualTo(b.expected());
                runtimes.awaitQuiescence();
            }
        }
    }

    /**
     * A stuck system that a task of the run keeps running (its dispatcher never ends it) cannot be replaced: the
     * recovery fails, and so does every later wait, instead of the benchmarks after it running beside the leftover
     * thread.
     */
    @Test
    void aPekkoSystemKeptRunningByATaskIsLostAndEveryLaterWaitFails() throws Exception {
        try (Runtimes runtimes = new Runtimes(1, 64, Duration.ZERO, List.of(Side.PEKKO_MATCHED), false)) {
            runtimes.terminateNanos = TimeUnit.SECONDS.toNanos(2);
            ActorSystem stuck = runtimes.pekko(Side.PEKKO_MATCHED);
            CountDownLatch started = new CountDownLatch(1);
            stuck.actorOf(Props.create(QuiescenceTest.Idle.class, () -> new QuiescenceTest.Idle(started)));
            started.await();
            CountDownLatch spinning = new CountDownLatch(1);
            AtomicBoolean release = new AtomicBoolean();
            stuck.dispatcher().execute(() -> {          // a task on its dispatcher that termination cannot end
                spinning.countDown();
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            });
            spinning.await();
            try {
                assertThatThrownBy(() -> runtimes.recover(SHORT)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the stuck Pekko system pekko-matched")
                        .hasMessageContaining("did not terminate in 2 s");
                assertThatThrownBy(runtimes::awaitQuiescence).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("could not be replaced").hasMessageContaining("pekko-matched");
                assertThatThrownBy(() -> runtimes.recover(SHORT)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("could not be replaced");
            } finally {
                release.set(true);
            }
        }
    }

    @Test
    void aBusySwitchboardRuntimeIsNotReplacedAndTheFailureNamesIt() throws Exception {
        try (Runtimes runtimes = new Runtimes(1, 64, Duration.ZERO, List.of(Side.PEKKO_DEFAULT), false)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            Thread waiter = Thread.ofPlatform().start(() -> runtimes.switchboard().finish(
                    () -> runtimes.switchboard().async(() -> {
                        started.countDown();
                        release.await();
                    })));
            started.await();
            ActorSystem pekko = runtimes.pekko(Side.PEKKO_DEFAULT);
            assertThatThrownBy(() -> runtimes.recover(SHORT)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the Switchboard runtime");
            assertThat(runtimes.pekko(Side.PEKKO_DEFAULT)).isSameAs(pekko);
            release.countDown();
            waiter.join();
            assertThat(runtimes.recover(SHORT)).isEmpty();
        }
    }

    /**
     * A Pekko thread that spins with no work and no actor of the run left (a task on the dispatcher's executor
     * itself, as the JDK's pool spins): only the look for spinning threads finds it. The benchmark's look fails
     * naming it; the recovery tries to replace the system, which cannot terminate while the thread spins, so it is
     * lost and every later wait fails. The look asks for 5 % of a core, which a spinning thread gets on a busy
     * machine too.
     */
    @Test
    void aPekkoSystemWithASpinningThreadIsNamedAndLost() throws Exception {
        try (Runtimes runtimes = new Runtimes(1, 64, Duration.ZERO, List.of(Side.PEKKO_DEFAULT), false)) {
            runtimes.terminateNanos = TimeUnit.SECONDS.toNanos(2);
            runtimes.spinShare(0.05);
            ActorSystem system = runtimes.pekko(Side.PEKKO_DEFAULT);
            runtimes.requireNoneSpinning();
            CountDownLatch spinning = new CountDownLatch(1);
            AtomicBoolean release = new AtomicBoolean();
            ((org.apache.pekko.dispatch.Dispatcher) system.dispatcher()).executorService().execute(() -> {
                spinning.countDown();
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            });
            spinning.await();
            try {
                runtimes.awaitQuiescence();            // no actor, no inhabitant: the wait alone does not see it
                assertThatThrownBy(runtimes::requireNoneSpinning).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the Pekko system pekko-default (its thread 'pekko-default-")
                        .hasMessageContaining("kept a core busy after the benchmark's last run");
                assertThatThrownBy(() -> runtimes.recover(SHORT)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the stuck Pekko system pekko-default")
                        .hasMessageContaining("did not terminate in 2 s");
                assertThatThrownBy(runtimes::awaitQuiescence).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("could not be replaced");
            } finally {
                release.set(true);
            }
        }
    }
}

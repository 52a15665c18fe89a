package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Once a parallel loop's finish has stopped (a fatal error) or its runtime is closed, no iteration starts: the
 * iterations not started yet are skipped, as the loops' Javadoc says. Each test holds every started iteration at a
 * gate until the stop is visible, so it counts exactly which iterations began before it: at most one per worker.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopStopTest {

    /** One-index chunks: before, the loop looked for a stop only at indices that are multiples of 256. */
    @Test
    void aFatalErrorInAnIterationEndsTheLoopWithTheErrorAndSkipsTheRest() {
        try (TaskRuntime rt = TaskRuntime.builder().name("fatal-loop").workers(2).noFailureLogging().build()) {
            AtomicInteger started = new AtomicInteger();
            CountDownLatch loopEnded = new CountDownLatch(1);
            Throwable thrown = catchThrowable(() -> rt.forall(0, 200, 1, i -> {
                started.incrementAndGet();
                if (i == 0) {
                    throw new InternalError("injected: the JVM is in trouble");
                }
                awaitQuietly(loopEnded);
            }));
            loopEnded.countDown();
            Await.until("the runtime quiet", rt::isQuiescent);
            assertThat(thrown).as("the error itself, not a MultiException")
                    .isInstanceOf(InternalError.class).hasMessage("injected: the JVM is in trouble");
            assertThat(started.get()).as("iterations begun: the failing one and one per other worker at most")
                    .isBetween(1, 2);
        }
    }

    /**
     * A close while the loop runs: the started iterations end, no other starts, and the finish that waited for the
     * loop throws the close's {@link RuntimeClosedException} (the loop's spawns the close refused are suppressed in
     * it), not a {@link MultiException}.
     */
    @Test
    void aCloseSkipsTheIterationsNotStartedAndTheLoopThrowsTheClose() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-loop").workers(2).noFailureLogging().build();
        AtomicInteger started = new AtomicInteger();
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread owner = new Thread(() -> thrown.set(catchThrowable(() -> rt.forall(0, 1000, 1, i -> {
            started.incrementAndGet();
            awaitQuietly(closed);
        }))), "loop-owner");
        owner.start();
        Await.until("two iterations started", () -> started.get() == 2);
        Thread closer = closeThenOpen(rt, closed);
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closer.isAlive() || owner.isAlive()).as("close and the loop ended").isFalse();
        assertThat(started.get()).as("no iteration started after the close").isEqualTo(2);
        // the close's own ("was closed by thread") if it stopped the finish's wait, or the first refusal ("is closed
        // (closed by thread ...): cannot run the iterations") if the gate let the loop end before the close told it
        assertThat(thrown.get()).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'closed-loop'").hasMessageContaining("closed by thread 'closer'");
        assertThat(thrown.get().getSuppressed()).as("the loop's refusals, suppressed in it")
                .allMatch(RuntimeClosedException.class::isInstance);
    }

    /**
     * The close comes while the finish's body still runs, so no finish waits to be stopped: the iterations the
     * close skips still end the finish with a {@link RuntimeClosedException} naming them (it returned as if the loop
     * had run).
     */
    @Test
    void aLoopCutShortByACloseNeverEndsItsFinishAsIfItHadRun() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("cut-loop").workers(2).noFailureLogging().build();
        AtomicInteger started = new AtomicInteger();
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread owner = new Thread(() -> thrown.set(catchThrowable(() -> rt.finish(() -> {
            rt.forasync(0, 1000, 1, i -> {
                started.incrementAndGet();
                awaitQuietly(closed);
            });
            awaitQuietly(closed);                        // the body runs on through the close
        }))), "loop-owner");
        owner.start();
        Await.until("two iterations started", () -> started.get() == 2);
        rt.close(Duration.ZERO);                        // interrupts the two iterations, which end
        closed.countDown();
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(owner.isAlive()).as("the finish ended").isFalse();
        assertThat(started.get()).as("no iteration started after the close").isEqualTo(2);
        assertThat(thrown.get()).isInstanceOf(RuntimeClosedException.class)
                .hasMessageContaining("runtime 'cut-loop' is closed");
    }

    /**
     * A loop of a finish that timed out with no finish around it: nobody waits for its work, so the iterations a
     * close skips are told to nobody, as the close tells no such finish that it was closed. Before, each chunk cut
     * short went to the handler of failures outside every finish as a RuntimeClosedException.
     */
    @Test
    void aCloseTellsNobodyOfTheIterationsItSkipsInALoopNoFinishWaitsFor() throws Exception {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        TaskRuntime rt = TaskRuntime.builder().name("abandoned-loop").workers(2).noFailureLogging().noHangReports()
                .onUnscopedFailure(unscoped::add).build();
        AtomicInteger started = new AtomicInteger();
        CountDownLatch closed = new CountDownLatch(1);
        Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(50), () -> rt.forasync(0, 1000, 1, i -> {
            started.incrementAndGet();
            awaitQuietly(closed);
        })));
        assertThat(thrown).isInstanceOf(FinishTimeoutException.class);
        Await.until("two iterations started", () -> started.get() == 2);
        Thread closer = closeThenOpen(rt, closed);
        assertThat(closer.isAlive()).as("close ended").isFalse();
        assertThat(started.get()).as("no iteration started after the close").isEqualTo(2);
        assertThat(unscoped).as("failures told to no finish").isEmpty();
    }

    /** Closes {@code rt} on a thread of its own, opens {@code gate} once it is closed, and waits for the close. */
    private static Thread closeThenOpen(TaskRuntime rt, CountDownLatch gate) throws InterruptedException {
        Thread closer = new Thread(() -> rt.close(Duration.ofSeconds(20)), "closer");
        closer.start();
        Await.until("the runtime closed", rt::isClosed);
        gate.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        return closer;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

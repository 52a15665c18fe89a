package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.internal.ManualClock;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A finish's timeout counts from the call, the body's own time included; the clock is a test's. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FinishTimeoutTest {

    @Test
    void aBodyThatTookLongerThanTheTimeoutLeavesTheFinishNoMoreTimeToWait() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            AtomicReference<ActorRef<String>> open = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                    rt.finish(Duration.ofSeconds(10), () -> {
                        open.set(new HangDiagnosticTest.PongActor().start());
                        clock.advance(Duration.ofSeconds(11));              // the body's own time
                    })));
            // nobody moves the clock again: the finish must give up by itself
            Throwable thrown = outcome.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("within 10.0 s").hasMessageContaining("never exited");
            rt.finish(() -> open.get().send("stop"));
        }
    }

    @Test
    void theWaitAfterTheBodyIsWhatIsLeftOfTheTimeout() {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            AtomicReference<ActorRef<String>> open = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread waiter = new Thread(() -> outcome.complete(catchThrowable(() ->
                    rt.finish(Duration.ofSeconds(10), () -> {
                        open.set(new HangDiagnosticTest.PongActor().start());
                        clock.advance(Duration.ofSeconds(6));
                    }))), "finish-waiter");
            waiter.start();
            Await.until("the finish waits after its body", () -> open.get() != null && clock.nanoTime() > 0
                    && waiter.getState() == Thread.State.TIMED_WAITING);
            clock.advance(Duration.ofSeconds(4).minus(1, ChronoUnit.NANOS));
            assertThat(outcome).as("gave up before 10 s since the call").isNotDone();

            clock.advance(1);
            Await.until("the finish gave up 10 s after the call", outcome::isDone);
            assertThat(outcome.join()).isInstanceOf(FinishTimeoutException.class);
            rt.finish(() -> open.get().send("stop"));
        }
    }

    /** A manual clock's nextDue shows a waiting finish's time-out, so that a test can advance to it. */
    @Test
    void aWaitingFinishsTimeoutIsWhatTheManualClockSaysIsDueNext() {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = RuntimeInternals.clock(TaskRuntime.builder().workers(2)
                .hangReportAfter(Duration.ofMinutes(5)), clock).build()) {
            assertThat(clock.nextDue()).isEmpty();
            AtomicReference<ActorRef<String>> open = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                    rt.finish(Duration.ofSeconds(10), () -> open.set(new HangDiagnosticTest.PongActor().start()))));
            Await.until("the finish's time-out is due next", () -> clock.nextDue().isPresent());
            assertThat(clock.nextDue()).hasValue(Duration.ofSeconds(10).toNanos());

            clock.advance(clock.nextDue().getAsLong() - clock.nanoTime());
            Await.until("the finish gave up", outcome::isDone);
            assertThat(outcome.join()).isInstanceOf(FinishTimeoutException.class);
            assertThat(clock.nextDue()).as("nobody waits any more").isEmpty();
            rt.finish(() -> open.get().send("stop"));
        }
    }

    @Test
    void aTimeoutOfAThousandYearsWaitsForTheFinishAndAZeroOneIsRefused() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            int[] ran = new int[1];
            rt.finish(Duration.ofDays(365L * 1_000), () -> rt.async(() -> ran[0]++));
            assertThat(ran[0]).isEqualTo(1);
            assertThatThrownBy(() -> rt.finish(Duration.ZERO, () -> { }))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be positive");
        }
    }
}

package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.Scheduler;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Whether a policy's started messages count as long ({@link LetterLength#isLong}), so that one started beside a
 * continuation is forked: from the spreading threshold (2 µs) on; from half of it while a fork would be taken at
 * once, because a worker spins for work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LetterLengthTest {
    /** An average of {@code nanos}: enough samples that the moving average (weight 1/4) has reached it. */
    static LetterLength averaging(long nanos) {
        LetterLength length = new LetterLength();
        for (int i = 0; i < 100; i++) {
            length.took(nanos);
        }
        return length;
    }

    @Test
    void messagesOfTwoMicrosecondsAreLongAndOfAHalfShort() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            assertThat(averaging(Scheduler.SPREAD_WORTH_NANOS).isLong(s)).isTrue();
            assertThat(averaging(Scheduler.SPREAD_WORTH_NANOS / 4).isLong(s)).isFalse();
            assertThat(averaging(Scheduler.SPREAD_WORTH_NANOS * 3 / 4).isLong(s)).as("no worker spins").isFalse();
        }
    }

    @Test
    void messagesOfAboutAMicrosecondAreLongWhileAWorkerSpinsForExpectedWork() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            LetterLength length = averaging(Scheduler.SPREAD_WORTH_NANOS * 3 / 4);
            assertThat(length.isLong(s)).as("no worker spins yet").isFalse();
            // parallel work expected, and a task whose end leaves its worker out of work: that worker spins for up
            // to 50 us. A machine that keeps this thread off its core longer finds it stopped, so try again
            Await.until("a message of 1.5 us counts as long while a worker spins", () -> {
                s.expectParallelWork();
                rt.finish(() -> rt.async(() -> { }));
                return length.isLong(s);
            });
            Await.until("and as short again once the spin has ended", () -> !length.isLong(s));
        }
    }
}

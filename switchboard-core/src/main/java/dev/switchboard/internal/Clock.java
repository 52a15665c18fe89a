package dev.switchboard.internal;

/**
 * Where a runtime reads the time: {@link #system()} in production, a {@link ManualClock} in tests that move time by
 * hand ({@link Scheduler#clock()}).
 *
 * <p><b>What a runtime's clock drives.</b> Everything a program can observe of time: when its timers run
 * ({@link TimerService}: actor timers, ask and reply timeouts, a dispatch policy's periodic work), when a
 * {@code finish(Duration)} or {@code get(Duration)} times out, when a hang report is due, the ages that
 * diagnostics show ({@link Scheduler#roughNanoTime()}), and what the messages of a dispatch policy that may run
 * them inline are measured to cost, which decides where they run (a readers-writer monitor's reads). <b>What it does not.</b> The pacing of the runtime's own
 * threads, which stays in real time whatever the clock ({@code Clock.system()} is read for it explicitly): how
 * long an idle worker spins for work ({@link IdleSpin}), the sampling of turn lengths and the trials of the
 * spreading rule ({@link SpreadRule}, {@link SpreadingTrials}), and the periods of the watchdog. A thread that waits
 * for a deadline parks in real time; under a manual clock it parks for at most {@link #parkNanos} at a time and
 * looks at the clock again, so it notices within a millisecond that a test has moved time past its deadline.
 */
public interface Clock {
    /** Nanoseconds from some fixed origin, as {@link System#nanoTime()}: only differences mean anything. */
    long nanoTime();

    /**
     * How long a thread that waits for a deadline {@code remainingNanos} away (by this clock) parks in one go
     * before it reads this clock again: all of it for the system clock.
     */
    default long parkNanos(long remainingNanos) {
        return remainingNanos;
    }

    /** The system's clock ({@link System#nanoTime()}). */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /** {@link System#nanoTime()}. */
    enum SystemClock implements Clock {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    }
}

package dev.switchboard.testkit;

import dev.switchboard.internal.ManualClock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The time of a {@link TestKit}'s runtime when the kit is built with {@link TestKit.Builder#manualClock()}: it
 * stands still until the test moves it. Everything the runtime times reads it: actor timers
 * ({@code startSingleTimer}, fixed rate, fixed delay), the timeouts of {@code ask} and {@code awaitReply},
 * {@code finish(Duration)}, a bounded mailbox's wait for room, backoff before a supervised restart, and hang
 * reports. Advancing it runs, on the advancing thread and before {@link #advance} returns, every timed action that
 * has become due, each at its own time, in the order of their times; what they start (a timer's message, say) then
 * runs on the workers as usual. It moves what is scheduled when it moves: a timer an actor sets while processing a
 * message is set on a worker, maybe after the test's next line, so wait for it before advancing.
 *
 * <pre>{@code
 * TestKit kit = TestKit.builder().manualClock().build();
 * TestProbe<Tick> probe = kit.probe();
 * kit.spawn(new Heartbeat(probe.ref(), Duration.ofSeconds(30)));  // startTimerAtFixedRate(..., 30 s) in onStart
 * kit.awaitCondition("the timer is set", () -> kit.clock().nextDue().isPresent());   // onStart runs on a worker
 * kit.clock().advance(Duration.ofSeconds(30));
 * probe.expectMessageClass(Tick.class);
 * }</pre>
 *
 * <p>Under a {@link ScheduleExplorer} the clock is the run's own, and the explorer also decides when timers fire.
 * Thread-safe.
 */
public final class TestClock {
    private final ManualClock clock;

    TestClock(ManualClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** How much time has passed on this clock since the kit was built. */
    public Duration now() {
        return Duration.ofNanos(clock.nanoTime());
    }

    /**
     * Moves the time on by {@code by} and runs, before returning, every timed action that became due.
     *
     * @throws IllegalArgumentException if {@code by} is negative
     */
    public void advance(Duration by) {
        Objects.requireNonNull(by, "by");
        if (by.isNegative()) {
            throw new IllegalArgumentException("a clock does not go back: " + by);
        }
        clock.advance(by);
    }

    /**
     * How long until the next timed action is due (zero if one is due now), or empty if none is waiting: what to
     * {@link #advance} by to run the next one and only it. A finish waited for with a time-out counts: its time-out
     * is due then (the waiting thread, not the advancing one, gives up).
     */
    public Optional<Duration> nextDue() {
        OptionalLong next = clock.nextDue();
        return next.isEmpty() ? Optional.empty()
                : Optional.of(Duration.ofNanos(Math.max(0, next.getAsLong() - clock.nanoTime())));
    }

    ManualClock manual() {
        return clock;
    }

    @Override
    public String toString() {
        return "TestClock[" + now() + "]";
    }
}

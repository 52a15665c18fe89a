package dev.switchboard.internal;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A clock that moves only when a test moves it ({@link #advance}), for tests of timed behaviour that must not
 * depend on how fast the machine is. Given to a runtime through a package-private builder option (see
 * {@code RuntimeInternals} in the tests); what it drives is said in {@link Clock}. Advancing runs, on the calling
 * thread and before it returns, every timed action of the runtimes on this clock that has become due, in the order
 * of their times, the clock reading each one's time while it runs ({@link ManualTimers}). Thread-safe.
 */
public final class ManualClock implements Clock {
    /** How long a thread waiting for a deadline by this clock parks before it looks at the clock again. */
    static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private volatile long now;
    /** The timers of the runtimes on this clock, told after each advance. */
    private final CopyOnWriteArrayList<ManualTimers> timers = new CopyOnWriteArrayList<>();
    /** The runtimes' finishes waited for with a time-out ({@link OpenScopes#earliestTimeOut}), for {@link #nextDue}. */
    private final CopyOnWriteArrayList<OpenScopes> waits = new CopyOnWriteArrayList<>();
    private final Object advancing = new Object();

    /** A clock that reads {@code startNanos} until it is advanced. */
    public ManualClock(long startNanos) {
        this.now = startNanos;
    }

    /** A clock that starts at 0. */
    public ManualClock() {
        this(0);
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public long parkNanos(long remainingNanos) {
        return Math.min(remainingNanos, RECHECK_NANOS);
    }

    /** Moves the time on by {@code by} and runs what became due. */
    public void advance(Duration by) {
        advance(by.toNanos());
    }

    /**
     * Moves the time on by {@code nanos} (not negative), then runs every timed action that is due by the new time,
     * on this thread, before it returns; an action that a due action schedules runs too if it is due.
     */
    public void advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a clock does not go back: " + nanos + " ns");
        }
        synchronized (advancing) {               // two advances run their actions one after the other
            long target = now + nanos;
            // As a simulation steps through its events: the time is that of each due action while it runs, so
            // that what it reads (a fixed-delay action's next time, say) is what it would be in real time.
            for (;;) {
                long next = target;
                for (ManualTimers t : timers) {
                    next = t.earliest(next);
                }
                if (next - now > 0) {
                    now = next;
                }
                for (ManualTimers t : timers) {
                    t.runDue();
                }
                if (next == target) {
                    return;
                }
            }
        }
    }

    /**
     * The time of the earliest timed action of the runtimes on this clock that has not run yet (a cancelled one
     * counts until its time comes) or time-out of a finish waited for, or empty: what a test advances to, to run the
     * next one and only it.
     */
    public OptionalLong nextDue() {
        long sentinel = now + Long.MAX_VALUE;
        long next = sentinel;
        for (ManualTimers t : timers) {
            next = t.earliest(next);
        }
        for (OpenScopes w : waits) {
            next = w.earliestTimeOut(next);
        }
        return next == sentinel ? OptionalLong.empty() : OptionalLong.of(next);
    }

    void register(ManualTimers t) {
        timers.add(t);
    }

    void register(OpenScopes w) {
        waits.add(w);
    }

    @Override
    public String toString() {
        return "ManualClock[" + now + " ns]";
    }
}

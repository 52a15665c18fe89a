package dev.switchboard.internal;

import java.util.PriorityQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The timed actions of one runtime on a {@link ManualClock}: kept in order of their time, and run by the thread
 * that advances the clock past it ({@link #runDue}). Owns the queue of actions. May touch nothing else. Behaves as
 * the {@link TimerService}'s executor does: one-shot, fixed-rate (a large advance runs a fixed-rate action once for
 * every period it passed) and fixed-delay actions, cancellable through the returned future; after
 * {@link #close()} new actions are refused and those still to come are dropped.
 */
final class ManualTimers {
    private final ManualClock clock;
    private final String name;
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();   // guarded by this
    private long sequence;                                              // guarded by this
    private boolean closed;                                             // guarded by this

    ManualTimers(ManualClock clock, String name) {
        this.clock = clock;
        this.name = name;
        clock.register(this);
    }

    /**
     * Schedules {@code action} {@code delayNanos} from now; {@code period} 0 runs it once, a positive one at that
     * fixed rate, a negative one with a fixed delay of {@code -period} after each run.
     */
    ScheduledFuture<?> schedule(long delayNanos, long period, Runnable action) {
        Entry e;
        synchronized (this) {
            if (closed) {
                throw new RejectedExecutionException("the timer of runtime '" + name
                        + "' was closed with its runtime");
            }
            e = new Entry(clock.nanoTime() + Math.max(0, delayNanos), period, action, sequence++);
            queue.add(e);
        }
        return e;
    }

    /** The time of the earliest action if it is before {@code than}, else {@code than}. */
    synchronized long earliest(long than) {
        Entry e = queue.peek();
        return e != null && e.time - than < 0 ? e.time : than;
    }

    /** Runs every action due by the clock's time now, earliest first; called by {@link ManualClock#advance}. */
    void runDue() {
        for (;;) {
            Entry e;
            synchronized (this) {
                e = queue.peek();
                if (e == null || e.time - clock.nanoTime() > 0) {
                    return;
                }
                queue.poll();
            }
            e.action.run();
            synchronized (this) {
                if (e.period == 0) {
                    e.done = true;
                } else if (!e.cancelled && !closed) {
                    e.time = e.period > 0 ? e.time + e.period : clock.nanoTime() - e.period;
                    e.seq = sequence++;
                    queue.add(e);
                }
                notifyAll();
            }
        }
    }

    /** Refuses new actions and drops those still to come (the timer runs their close paths, if any). */
    synchronized void close() {
        closed = true;
        queue.clear();
    }

    /** A scheduled action and its future. */
    private final class Entry implements ScheduledFuture<Object>, Comparable<Delayed> {
        final long period;
        final Runnable action;
        long time;
        long seq;
        boolean cancelled;                         // guarded by ManualTimers.this
        boolean done;                              // guarded by ManualTimers.this

        Entry(long time, long period, Runnable action, long seq) {
            this.time = time;
            this.period = period;
            this.action = action;
            this.seq = seq;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(time - clock.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            if (o instanceof Entry e) {
                int c = Long.compare(time - e.time, 0);
                return c != 0 ? c : Long.compare(seq, e.seq);
            }
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            synchronized (ManualTimers.this) {
                if (done || cancelled) {
                    return false;
                }
                cancelled = true;
                queue.remove(this);
                ManualTimers.this.notifyAll();
                return true;
            }
        }

        @Override
        public boolean isCancelled() {
            synchronized (ManualTimers.this) {
                return cancelled;
            }
        }

        @Override
        public boolean isDone() {
            synchronized (ManualTimers.this) {
                return done || cancelled;
            }
        }

        @Override
        public Object get() throws InterruptedException, ExecutionException {
            synchronized (ManualTimers.this) {
                while (!done && !cancelled) {
                    ManualTimers.this.wait();
                }
                if (cancelled) {
                    throw new CancellationException();
                }
                return null;
            }
        }

        @Override
        public Object get(long timeout, TimeUnit unit)
                throws InterruptedException, ExecutionException, TimeoutException {
            long end = Clock.system().nanoTime() + unit.toNanos(timeout);     // the caller's wait: real time
            synchronized (ManualTimers.this) {
                while (!done && !cancelled) {
                    long left = end - Clock.system().nanoTime();
                    if (left <= 0) {
                        throw new TimeoutException();
                    }
                    TimeUnit.NANOSECONDS.timedWait(ManualTimers.this, left);
                }
                if (cancelled) {
                    throw new CancellationException();
                }
                return null;
            }
        }
    }
}

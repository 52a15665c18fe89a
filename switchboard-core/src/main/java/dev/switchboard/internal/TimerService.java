package dev.switchboard.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A runtime's timer: one daemon thread, started by the first timed action (an {@code ask} or {@code awaitReply}
 * with a timeout, a dispatch policy's periodic work), that runs short actions at a time or periodically. Actions
 * run on the timer thread and must not block; work that takes time goes to the runtime. Time is the runtime's
 * {@link Clock}: on the system clock a {@link ScheduledThreadPoolExecutor} runs the actions, on a
 * {@link ManualClock} they run when a test advances the clock past their time, on the advancing thread
 * ({@link ManualTimers}).
 */
public final class TimerService {
    /*
     * Implementation notes. A ScheduledThreadPoolExecutor with one core thread and removeOnCancel set, so that
     * a timeout cancelled because its reply came does not stay queued until its deadline. close() drops every
     * action still to come (shutdownNow) and waits for the timer thread to end, so that no thread of a closed
     * runtime lives on; a one-shot action scheduled with a close path (an ask's timeout, whose future must not
     * stay open) runs that path instead, on the closing thread. Those actions are kept in `closable` until they
     * run, are cancelled or the timer closes; whoever removes one from the set is the one who runs it, so an
     * action runs its action or its close path, never both. An action that throws is reported as a failure
     * outside every finish instead of being kept in its future, where nobody would look.
     */
    private final String name;
    private final Consumer<Throwable> failures;
    /** Created by the first timed action (double-checked under this object's lock); never replaced. */
    private volatile ScheduledThreadPoolExecutor executor;
    /** The timer's thread, once its executor has started one. */
    private volatile Thread thread;
    private boolean closed;                           // guarded by this
    /** The actions, when the runtime's clock is a manual one; null on the system clock. */
    private final ManualTimers manual;
    /** One-shot actions with a close path, until they run, are cancelled or the timer closes. */
    private final Set<Closable> closable = ConcurrentHashMap.newKeySet();

    /** The timer for timed actions outside every runtime (an ask sent from plain code to an unstarted actor). */
    private static final class Shared {
        static final TimerService TIMER = new TimerService("switchboard-shared", Clock.system(), failure -> {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, failure);
        });
    }

    TimerService(String name, Clock clock, Consumer<Throwable> failures) {
        this.name = name;
        this.failures = failures;
        this.manual = clock instanceof ManualClock m ? new ManualTimers(m, name) : null;
    }

    /** A timer shared by the JVM, for timed actions that belong to no runtime yet; never closed. */
    public static TimerService shared() {
        return Shared.TIMER;
    }

    /**
     * Runs {@code action} once after {@code delayNanos}.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the runtime was closed
     */
    public ScheduledFuture<?> schedule(long delayNanos, Runnable action) {
        if (manual != null) {
            return manual.schedule(delayNanos, 0, reported(action));
        }
        return executor().schedule(reported(action), delayNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code action} once after {@code delayNanos}; if the runtime closes first, runs {@code onClose} instead,
     * on the closing thread, before {@code close()} returns.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the runtime was closed
     */
    public ScheduledFuture<?> schedule(long delayNanos, Runnable action, Runnable onClose) {
        Closable c = new Closable(onClose);
        closable.add(c);
        try {
            c.future = schedule(delayNanos, () -> {
                if (closable.remove(c)) {
                    action.run();
                }
            });
        } catch (RuntimeException refused) {
            closable.remove(c);
            throw refused;
        }
        return c;
    }

    /**
     * Runs {@code action} every {@code periodNanos}, the first time after {@code initialDelayNanos}, until the
     * returned future is cancelled or the runtime closes.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the runtime was closed
     */
    public ScheduledFuture<?> scheduleAtFixedRate(long initialDelayNanos, long periodNanos, Runnable action) {
        if (manual != null) {
            return manual.schedule(initialDelayNanos, positive(periodNanos), reported(action));
        }
        return executor().scheduleAtFixedRate(reported(action), initialDelayNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code action} first after {@code initialDelayNanos}, then {@code delayNanos} after each run ends, until
     * the returned future is cancelled or the runtime closes.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the runtime was closed
     */
    public ScheduledFuture<?> scheduleWithFixedDelay(long initialDelayNanos, long delayNanos, Runnable action) {
        if (manual != null) {
            return manual.schedule(initialDelayNanos, -positive(delayNanos), reported(action));
        }
        return executor().scheduleWithFixedDelay(reported(action), initialDelayNanos, delayNanos,
                TimeUnit.NANOSECONDS);
    }

    /** As the executor: a period must be positive. */
    private static long positive(long periodNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period " + periodNanos + " ns");
        }
        return periodNanos;
    }

    private Runnable reported(Runnable action) {
        return () -> {
            try {
                action.run();
            } catch (Throwable t) {
                failures.accept(t);
            }
        };
    }

    private ScheduledThreadPoolExecutor executor() {
        ScheduledThreadPoolExecutor e = executor;
        if (e != null) {
            return e;                              // after close() it refuses new actions itself
        }
        synchronized (this) {
            if (executor == null) {
                if (closed) {
                    throw new java.util.concurrent.RejectedExecutionException("the timer of runtime '" + name
                            + "' was closed with its runtime");
                }
                ThreadFactory threads = Thread.ofPlatform().daemon().name(name + "-timer").factory();
                ScheduledThreadPoolExecutor fresh = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread t = threads.newThread(r);
                    thread = t;
                    return t;
                });
                fresh.setRemoveOnCancelPolicy(true);
                executor = fresh;
            }
            return executor;
        }
    }

    /** The name of the runtime this timer serves. */
    public String name() {
        return name;
    }

    /**
     * Refuses new actions and drops those still to come, running the close path of those that have one here;
     * returns whether the timer thread has ended (it waits a second at most, for an action that keeps it busy and
     * ignores the interrupt). Called by an action on the timer thread itself, it drops the actions without
     * interrupting or waiting for that thread, which ends once the action returns, and returns true.
     */
    boolean close() {
        ScheduledThreadPoolExecutor e;
        boolean onTimer = Thread.currentThread() == thread;
        synchronized (this) {
            closed = true;
            if (manual != null) {
                manual.close();
            }
            e = executor;
            if (e != null) {
                if (onTimer) {
                    e.shutdown();
                    e.getQueue().clear();
                } else {
                    e.shutdownNow();
                }
            }
        }
        for (Closable c : closable) {
            if (closable.remove(c)) {
                reported(c.onClose).run();
            }
        }
        if (e == null || onTimer) {
            return true;
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            if (!e.awaitTermination(1, TimeUnit.SECONDS)) {
                return false;
            }
            // The executor terminates as its thread leaves the executor's loop, a moment before the thread ends. A
            // thread it made while close() shut it down may never have been started, and never will be now.
            Thread t = thread;
            return t == null || t.getState() == Thread.State.NEW
                    || t.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A one-shot action with a close path, and its future: cancelling it forgets the close path too. */
    private final class Closable implements ScheduledFuture<Object> {
        final Runnable onClose;
        volatile ScheduledFuture<?> future;

        Closable(Runnable onClose) {
            this.onClose = onClose;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            closable.remove(this);
            return future.cancel(mayInterruptIfRunning);
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return future.getDelay(unit);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean isCancelled() {
            return future.isCancelled();
        }

        @Override
        public boolean isDone() {
            return future.isDone();
        }

        @Override
        public Object get() throws InterruptedException, ExecutionException {
            return future.get();
        }

        @Override
        public Object get(long timeout, TimeUnit unit)
                throws InterruptedException, ExecutionException, TimeoutException {
            return future.get(timeout, unit);
        }
    }
}

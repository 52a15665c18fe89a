package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The task that computes a {@code future}'s value. Unlike a plain task it can be run by the thread that waits
 * for the value: a worker calling {@code get()} before any thread has started the task runs it inline
 * ({@link FinishWait#helpProduce}), as {@code ForkJoinTask.join} does, instead of blocking and making the pool add
 * a thread. Whoever claims it first runs it; a later run of the same task (the pool's) does nothing.
 */
public abstract class ProducingTask extends Node {
    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(ProducingTask.class, "claimed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Set once, by the thread that runs the body (or refuses or withdraws the task). */
    private volatile boolean claimed;

    /**
     * A task attached as a child of the current node of the calling thread; submit it with
     * {@link Scheduler#submit}.
     */
    protected ProducingTask(Scheduler scheduler) {
        super(scheduler.spawnContext().attachChild(), scheduler);
    }

    /** Computes the value and completes the future with it, or with the failure (which it also rethrows). */
    protected abstract void produce();

    /** The runtime refused to run this task (it was closed): the future fails with {@code cause}. */
    protected abstract void neverRun(Throwable cause);

    /** Whether the future this task computes has its value (or failure). */
    protected abstract boolean valueReady();

    /** Whether some thread has started (or refused) this task. */
    boolean isClaimed() {
        return claimed;
    }

    private boolean claim() {
        return !claimed && CLAIMED.compareAndSet(this, false, true);
    }

    @Override
    protected final void run() {
        if (!claim()) {
            return;
        }
        try {
            produce();
        } catch (Throwable t) {
            scope().addTaskFailure(t);
        } finally {
            Thread.interrupted();      // an interrupt set by this task is not seen by the next one on this thread
            // The value is there: mark this task done, which ends a waiter's join (FinishWait#helpProduce) at once.
            // A CountedCompleter that is not a root is never marked done by its completion, which counts along
            // the pending counts only; marking it changes nothing there, and the pool skips a done task it holds.
            quietlyComplete();
            sealSpawns();
            tryComplete();
        }
    }

    /**
     * Claims this task before any thread has started it, so that it never runs, and completes it without a failure
     * (its future was cancelled: nobody waits for its value). Returns false if a thread has started it (or refused
     * it) already: it then runs to its end.
     */
    public final boolean withdraw() {
        return withdraw(null);
    }

    /**
     * {@link #withdraw()}, failing its value with {@code cause} unless null (a get() of it was refused: a recursion
     * that left it queued would go on from it).
     */
    final boolean withdraw(Throwable cause) {
        if (!claim()) {
            return false;
        }
        if (cause != null) {
            try {
                neverRun(cause);
            } catch (Throwable t) {
                Failures.lastResort(scope(), t);
            }
        }
        quietlyComplete();                      // a waiter's join (FinishWait#helpProduce) ends at once
        sealSpawns();
        tryComplete();
        return true;
    }

    @Override
    protected final void refused(Throwable cause) {
        if (claim()) {
            try {
                neverRun(cause);
            } catch (Throwable t) {
                Failures.lastResort(scope(), t);
            }
            super.refused(cause);
            quietlyComplete();                  // the future failed: ends a waiter's join (FinishWait#helpProduce)
        }
    }

    @Override
    public String describe() {
        Object o = owner();
        Object origin = origin();
        return (origin instanceof Class<?> body ? "task running " + AsyncTask.nameOf(body) : "task computing a future")
                + (o != null ? " for " + o : "");
    }
}

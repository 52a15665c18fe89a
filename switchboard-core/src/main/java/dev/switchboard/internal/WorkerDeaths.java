package dev.switchboard.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Worker threads that died: their count and the last cause. Owns both. May touch: the scopes being waited on (it
 * wakes them, so that they fail instead of waiting for work the death may have lost) and the unscoped-failure
 * handler (the death is reported there).
 */
final class WorkerDeaths {
    private final Scheduler scheduler;
    private final AtomicLong workerDeaths = new AtomicLong();
    private volatile Throwable lastDeath;

    WorkerDeaths(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A worker thread ended with {@code failure}: something escaped the pool's own loop (Switchboard's code never
     * lets anything escape a task, but the pool itself rethrows, into whichever thread asked for a new worker, an
     * OutOfMemoryError from starting one). The pool starts a replacement when it next has work, and cancels the
     * tasks left in the dead worker's deque; the worker moved them to the shared queue first if it could
     * ({@link WorkerLifecycle#ended}). Since work may still have been lost, every finish opened before this moment
     * stops waiting with the failure ({@link Scope#isReleasable}): a finish must fail, never hang. Nothing here may
     * need memory to take effect (the failure is most likely an OutOfMemoryError): the death is two field writes,
     * and the waiting finishes are woken if possible and otherwise notice within
     * {@link Scope#DEATH_CHECK_PERIOD_NANOS}. The death is counted and reported; this method never throws.
     */
    void died(Throwable failure) {
        lastDeath = failure;                      // before the count: a scope that sees the count sees the cause
        workerDeaths.incrementAndGet();
        try {
            for (Scope s : scheduler.openScopes.waiting) {
                s.wakeWaiter();                   // prompt; without memory the waiters see it at their next check
            }
        } catch (Throwable ignored) {
            // Scope.block checks every DEATH_CHECK_PERIOD_NANOS anyway
        }
        try {
            scheduler.reportUnscopedFailure(failure);
        } catch (Throwable ignored) {
            // reportUnscopedFailure already falls back to printing; nothing more to do without memory
        }
    }

    /** What killed the last worker that died, or null. */
    Throwable lastDeath() {
        return lastDeath;
    }

    /** Worker threads that ended with a failure (see {@link #died}). */
    long count() {
        return workerDeaths.get();
    }
}

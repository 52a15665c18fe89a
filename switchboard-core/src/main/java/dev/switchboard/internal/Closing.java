package dev.switchboard.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Closing a runtime: refusing new work, failing the finishes that wait for it, terminating what is still alive,
 * stopping the pool and the timer (an ask still waiting fails now, naming the runtime), and waiting for the
 * runtime's own threads to end. Owns who closed the runtime and the lock a second close() waits on; the closed
 * flag itself is the scheduler's ({@link Scheduler#isClosed}), read on hot paths. May touch: the waiting and
 * tracking scopes (it stops them and terminates their actors), the pool, the timer, the workers (it interrupts
 * them when they do not end), the threads blocked in a {@code get()} within the runtime (it wakes them: their
 * gets throw) and the shared queue (what is left there is refused).
 */
final class Closing {
    private final Scheduler scheduler;
    private volatile String closedBy;
    /**
     * Held by close() while it does the close's steps (never while it waits): a concurrent close() waits. A lock,
     * not a monitor: the steps complete asks, running what callers chained on them, and on JDK 21 a virtual thread
     * that blocks while it holds a monitor pins its carrier.
     */
    private final ReentrantLock closing = new ReentrantLock();
    /** Whether the timer's thread ended in the close's steps: written in them, read by the wait after them. */
    private volatile boolean timerEnded;
    /**
     * Held by a close off the pool while it waits for the pool to end; a worker never takes it, since the wait may
     * be for that worker's own turn (a worker that waited for it would hold the pool up for the whole timeout). A
     * lock, not a monitor, for the reason {@link #closing} is.
     */
    private final ReentrantLock waiting = new ReentrantLock();
    /** Whether a close off the pool has waited for the end, and what it found; guarded by {@link #waiting}. */
    private Boolean ended;

    Closing(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** The exception that refuses new work ({@code what}) on this closed runtime, naming who closed it. */
    RuntimeException refused(String what) {
        return ClosedRuntimes.exception("runtime '" + scheduler.name() + "' is closed ("
                + closedBy + "): cannot " + what);
    }

    /**
     * Closes the runtime. In this order: from now on new work is refused ({@link Scheduler#requireOpen}); every
     * finish waiting for this runtime's work, or about to wait for actors still alive, ends with a
     * {@code RuntimeClosedException} that says what was still open
     * (the report is taken before anything is terminated); every actor still alive is terminated, its queued
     * messages and every later send becoming dead letters ({@code RUNTIME_CLOSED}); then the pool stops taking
     * tasks and the tasks already queued or running are given {@code timeout} to end, after which the workers are
     * interrupted and given one more second. Returns whether the pool ended. Idempotent. Called on a worker of
     * this runtime it does not wait (the pool cannot end while the caller runs) and returns false. A concurrent
     * call off the pool waits until the first has done all of this, then returns whether the pool ended; the first
     * call off the pool after calls on workers only does the wait they could not.
     */
    boolean close(long timeout, TimeUnit unit) {
        closing.lock();                           // a second close() returns once the first's steps are done
        try {
            if (!scheduler.isClosed()) {
                closedBy = "closed by thread '" + Threads.name(Thread.currentThread()) + "'";
                scheduler.markClosed();
                closeSteps();
            }
        } finally {
            closing.unlock();
        }
        if (scheduler.onWorker()) {
            return false;                         // the pool cannot end while this task runs
        }
        waiting.lock();
        try {
            if (ended == null) {
                ended = awaitEnd(timeout, unit);
                return ended;
            }
            return ended || scheduler.pool.isTerminated();   // a later call waits no more: it says how things are
        } finally {
            waiting.unlock();
        }
    }

    private void closeSteps() {
        for (Scope s : scheduler.openScopes.waiting) {
            s.stop(closedWhileWaiting(s));
        }
        for (Scope s : scheduler.openScopes.tracking) {
            if (!s.reachesNoFinish()) {
                // a finish whose body has ended but whose thread has not begun to wait yet: told the same way,
                // before its actors are terminated (which could otherwise end it as if its work had succeeded);
                // a nested finish that timed out tells the finish that took its work over. A finish that timed
                // out with no finish around it, or whose work went on to finishes that all did, has thrown
                // already: nobody waits to be told, and what it left running ends below with its messages
                // counted as dead letters.
                s.stop(closedWhileWaiting(s));
            }
        }
        for (Scope s : scheduler.openScopes.tracking) {
            s.closeTracked();
        }
        scheduler.hangs.wakeBlockedGets();    // each sees the runtime closed and throws closedWhileBlocked
        scheduler.pool.shutdown();
        JfrHook.unregister(scheduler);
        timerEnded = scheduler.timers().close();
        if (scheduler.onWorker()) {               // no wait will follow this close's steps, maybe none at all
            scheduler.deadLetters().logTotalAtClose();
            scheduler.failureLog().logNotLoggedAtClose();
        }
    }

    /**
     * Gives the tasks queued or running {@code timeout} to end; then refuses what waits in the shared queue, so
     * that nothing more starts from it, interrupts the workers and gives them one more second; refuses what is
     * left; returns whether the pool and the runtime's threads ended. An interrupt of the closing thread ends the
     * first wait at once (as {@code ExecutorService.close()} stops waiting and interrupts its tasks); the second
     * is waited through, and the interrupt status is kept.
     */
    private boolean awaitEnd(long timeout, TimeUnit unit) {
        boolean interrupted = false;
        boolean poolEnded;
        try {
            poolEnded = scheduler.pool.awaitTermination(timeout, unit);
        } catch (InterruptedException e) {
            interrupted = true;
            poolEnded = false;
        }
        if (!poolEnded) {
            scheduler.refuseQueued();        // not shutdownNow(): it would drop queued activations holding tokens
            for (Worker w : scheduler.workers) {
                w.interrupt();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            for (long left = TimeUnit.SECONDS.toNanos(1); !poolEnded && left > 0;
                    left = deadline - System.nanoTime()) {
                try {
                    poolEnded = scheduler.pool.awaitTermination(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        scheduler.refuseQueued();            // entries whose pump the pool refused, or took and will not run
        scheduler.deadLetters().logTotalAtClose();
        scheduler.failureLog().logNotLoggedAtClose();
        boolean threadsEnded = awaitThreads();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return poolEnded && threadsEnded && timerEnded;
    }

    /**
     * Waits (a second at most) for the runtime's own threads to end once the pool has: the watchdog and the
     * workers, which leave the pool's count before their threads end; returns whether they have. The timer's
     * ended in timers().close().
     */
    private boolean awaitThreads() {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            boolean ended = scheduler.watchdog.awaitEnd(1_000);
            for (Set<Worker> set : List.of(scheduler.workers, scheduler.endingWorkers)) {
                for (Worker w : set) {
                    if (w == Thread.currentThread()) {
                        continue;
                    }
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left > 0) {
                        w.join(left);
                    }
                    ended &= !w.isAlive();
                }
            }
            return ended;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether {@code failure} is a consequence of this runtime's close: the runtime is closed, and the failure is,
     * or is caused by (a few levels down), a refusal ({@code RuntimeClosedException} is a
     * {@link RejectedExecutionException}) or an interrupt (the close interrupts the workers).
     */
    boolean isConsequence(Throwable failure) {
        if (!scheduler.isClosed()) {
            return false;
        }
        try {
            Throwable t = failure;
            for (int depth = 0; t != null && depth < 4; depth++, t = t.getCause()) {
                if (t instanceof RejectedExecutionException || t instanceof InterruptedException) {
                    return true;
                }
            }
            return false;
        } catch (Throwable brokenCause) {
            return false;                         // a getCause() of the program's that throws: the program's error
        }
    }

    /**
     * The exception of {@code queued}, which the close refused before it could run: "runtime 'b' was closed by thread
     * 'main' before task running Main (lambda) could run". It may count in a finish of another runtime, which this
     * close does not tell otherwise.
     */
    RuntimeException queuedAtClose(Node queued) {
        String what;
        try {
            what = queued.describe();
        } catch (Throwable programsToString) {
            what = "a task";
        }
        return ClosedRuntimes.exception("runtime '" + scheduler.name() + "' was " + closedBy + " before " + what
                + " could run");
    }

    RuntimeException closedWhileBlocked(String what) {
        return ClosedRuntimes.exception("runtime '" + scheduler.name() + "' was " + closedBy + " while thread '"
                + Threads.name(Thread.currentThread()) + "' waited in " + what);
    }

    Throwable closedWhileWaiting(Scope scope) {
        String report;
        try {
            report = scheduler.hangs.report(scope);
        } catch (Throwable t) {
            report = scope.toString();
        }
        return ClosedRuntimes.exception("runtime '" + scheduler.name() + "' was " + closedBy
                + " while this finish waited for its work: " + report);
    }
}

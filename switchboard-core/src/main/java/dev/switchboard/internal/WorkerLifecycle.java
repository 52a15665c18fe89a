package dev.switchboard.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a runtime's workers come and go: the pool that makes them ({@link #newPool}: each named and added to the
 * scheduler's live workers, a death reported to {@link WorkerDeaths}), and what a worker does as its thread ends
 * ({@link #ended}: it leaves the live workers for the ending ones, which close() joins, and a worker that dies first
 * hands the work it holds to the shared queue). Static; owns nothing: the sets of workers are the scheduler's.
 * Called by the scheduler as it is made, and by {@link Worker#onTermination}.
 */
final class WorkerLifecycle {
    private WorkerLifecycle() {
    }

    /** The pool of {@code scheduler}'s workers, in FIFO ("async") mode; a worker's death goes to its deaths. */
    static ForkJoinPool newPool(Scheduler scheduler, int parallelism) {
        AtomicInteger workerIds = new AtomicInteger();
        return new ForkJoinPool(parallelism, p -> {
            // Never throws: the pool rethrows a factory's exception into whichever thread asked for a worker,
            // which can be a worker between tasks (it would die, and the pool would cancel its queued tasks).
            // Without memory for a thread, the pool simply runs with the workers it has.
            try {
                Worker w = new Worker(p, scheduler);
                w.setName(scheduler.name() + "-worker-" + workerIds.incrementAndGet());
                scheduler.workers.add(w);
                return w;
            } catch (Throwable noMemory) {
                return null;
            }
        }, (thread, failure) -> scheduler.deaths.died(failure), true);
    }

    /**
     * The thread of worker {@code w} ends (called on it). If it dies of an exception (one that escaped the pool's
     * own loop; Switchboard's tasks let nothing escape), the pool is about to cancel the tasks still in its deque,
     * and the finishes waiting for them would wait forever: they are moved to the shared queue first, and the
     * buffered handoffs with them.
     */
    static void ended(Worker w, Throwable exception) {
        Scheduler scheduler = w.scheduler;
        scheduler.workers.remove(w);
        scheduler.counters.workerEnded(w);           // after: a snapshot may miss them meanwhile, never count twice
        if (exception != null) {
            try {
                Node n;
                while ((n = w.take()) != null) {
                    scheduler.share(n, false);
                }
                Node.moveLocalTasksToSharedQueue(scheduler);
            } catch (Throwable t) {
                // nothing more can be done without memory; the death itself is counted and reported
            }
        }
        try {
            scheduler.endingWorkers.removeIf(e -> !e.isAlive());   // bounded by the threads ending at once
            scheduler.endingWorkers.add(w);                         // joined by close() until its thread has ended
        } catch (Throwable noMemory) {
            // close() then cannot wait for this thread, which ends anyway
        }
    }
}

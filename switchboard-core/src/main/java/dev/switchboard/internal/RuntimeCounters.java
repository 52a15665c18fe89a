package dev.switchboard.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * What a runtime counts for its metrics ({@code RuntimeMetrics}, in the actor package, which reads it), and the
 * ground's part of a snapshot: the pool's workers and queued work, the messages of actors that have ended, the
 * failures of actors, and the tracked actors to walk. The dead letters are {@link DeadLetters}'.
 *
 * <p>Owns the failure count and the count of messages of actors that ended off this runtime's workers (or on a
 * worker that has ended since). May touch the workers' own counters ({@link Worker#countEnded}, written by their
 * threads) and read, racily, the workers, the pool, the shared queue and the tracking scopes.
 */
public final class RuntimeCounters {
    /*
     * Implementation notes. Nothing here is touched per message or per actor start. The messages an actor
     * processed are counted by its activation (a plain field its processing owns); when the activation completes
     * (the actor and every task it spawned have ended) the completing thread adds that count to a field of its
     * own worker, with a release store, or, on a thread that is not a worker of this runtime (a sender draining a
     * terminated actor, close(), a deterministic test's thread), to a LongAdder. A snapshot reads those counts
     * first (acquire), then walks the actors still open. An activation completes only after its actor was
     * released (RELEASED, a volatile write), so an actor whose count the first read saw is seen released by the
     * walk, which skips it: no message is counted twice. An actor that ends with no task of its own alive is
     * counted by the releasing thread just before its release; it marks itself counted before that count's store
     * (the actor package's Activation.endCounted), so the walk sees the mark and skips it as well. One that
     * completes during the snapshot may be counted by neither (the snapshot lags), as may one released while tasks
     * it spawned still run (it is off the walk, the pruning of the tracked list may have dropped it, and not yet
     * counted as ended).
     *
     * A worker that ends (the pool retires idle threads) gives its count to the LongAdder after it has left the
     * set of workers: a snapshot meanwhile misses it, never counts it twice.
     */

    /** The most messages any snapshot has counted ({@link #processedReported}). */
    private final AtomicLong processedHighWater = new AtomicLong();

    private final Scheduler scheduler;
    /** Failures reported for actors: what ended them, and those their supervisors handled. */
    private final LongAdder failures = new LongAdder();
    /** Messages of actors that ended on a thread that is not a worker of this runtime, and of ended workers. */
    private final LongAdder endedElsewhere = new LongAdder();

    RuntimeCounters(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    // ---------------------------------------------------------------- counting

    /**
     * An actor's activation completed, after it had processed {@code processed} messages: called by the completing
     * thread, after the actor was released, or by the releasing thread just before (see the implementation notes).
     * One store to the worker's own field on a worker of this runtime.
     */
    public void actorEnded(long processed) {
        if (processed != 0) {
            if (Thread.currentThread() instanceof Worker w && w.scheduler == scheduler) {
                w.countEnded(processed);
            } else {
                endedElsewhere.add(processed);
            }
        }
    }

    /** A failure was reported for an actor (what ended it, or one its supervisor handled). */
    public void actorFailed() {
        failures.increment();
    }

    /** A worker of this runtime ends, after leaving the set of workers: its count moves here. */
    void workerEnded(Worker w) {
        try {
            endedElsewhere.add(w.endedMessages());
        } catch (Throwable noMemory) {
            // a LongAdder's cell could not be made: the count is lost, the worker still ends
        }
    }

    // ---------------------------------------------------------------- reading

    /** The failures reported for actors so far. */
    public long actorFailures() {
        return failures.sum();
    }

    /**
     * The messages processed by the actors whose activations have completed (read these before
     * {@link #forEachTracked}: see the implementation notes).
     */
    /**
     * What a snapshot reports as processed, given what it counted ({@code counted}): the most any snapshot has
     * counted, so that the figure never goes down (a count never includes a message twice, so the most is still no
     * more than the messages processed; an actor that ends while a snapshot walks may be missing from one).
     */
    public long processedReported(long counted) {
        return processedHighWater.accumulateAndGet(counted, Math::max);
    }

    public long endedMessages() {
        long n = 0;
        for (Worker w : scheduler.workers) {
            n += w.endedMessages();
        }
        return n + endedElsewhere.sum();
    }

    /** The worker threads the pool has now (it starts them as work comes, adds some while others block). */
    public int workers() {
        return scheduler.workers.size();
    }

    /** The workers running a task or an actor now (one blocked in a finish or a get inside it included). */
    public int busyWorkers() {
        int n = 0;
        for (Worker w : scheduler.workers) {
            if (w.busy()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Work that is ready and not running: the tasks queued in the pool (in its workers' deques and its submission
     * queues, less a pump of the shared queue), the entries of the shared queue and the activations in the workers'
     * handoff buffers (and, under a deterministic scheduler, its ready nodes). Each part is read without stopping
     * the others: an approximation while the runtime runs. O(workers + entries of the shared queue).
     */
    public long queued() {
        ForkJoinPool pool = scheduler.pool;
        long n = pool.getQueuedTaskCount() + pool.getQueuedSubmissionCount();
        if (scheduler.runQueue.pumpPending() && n > 0) {
            n--;                             // the pump stands for the shared queue, counted below
        }
        n += scheduler.runQueue.size();
        for (Worker w : scheduler.workers) {
            n += w.buffered();
        }
        DeterministicScheduler d = scheduler.deterministic;
        if (d != null) {
            n += d.readyCount();
        }
        return n;
    }

    /**
     * Gives {@code each} every node on the tracked lists of the scopes that track any (the actors started and the
     * awaiting tasks created in them, those ended since the last pruning included), without stopping anything:
     * one started meanwhile may be missed. O(the nodes on the lists: about twice those open, at most).
     */
    public void forEachTracked(Consumer<? super Node> each) {
        for (Scope s : scheduler.openScopes.tracking) {
            s.forEachTracked(each);
        }
    }
}

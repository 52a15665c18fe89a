package dev.switchboard.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountedCompleter;

/**
 * The runtime's shared queue: work that is not local to one worker, oldest first.
 *
 * <h2>Overview</h2>
 * Three kinds of work wait here: work submitted from outside the pool (an {@code async} from {@code main}, the
 * activation of an actor that a thread outside the pool sent to, a data-driven task whose last input a thread
 * outside the pool put), work that used up its turn while other work waited (an actor after its throughput
 * budget, a handoff chain after its hop limit), and activations the watchdog took from a stuck worker's handoff
 * buffer. Every worker takes the oldest entry, so they run in the order they arrived, whichever worker is free.
 *
 * <p>The pool does not see this queue. Each entry is accompanied by a {@link Pump}: a one-shot pool task that,
 * wherever the pool runs it, runs the <em>oldest</em> entry. Pumps are interchangeable, so the order in which the
 * pool happens to run them does not matter; they are there to wake idle workers and to be stolen. This is what
 * makes the queue fair where the pool is not: a {@link java.util.concurrent.ForkJoinPool} worker that finds work
 * in a queue keeps taking from that queue while it is not empty, so work that re-queued itself into the pool's
 * submission queues could keep a worker on one queue forever and starve every other submission. Busy workers
 * also take an entry themselves every few turns ({@link Worker#runChain}), so the queue keeps moving even when
 * the pool runs nothing but local tasks.
 *
 * <h2>Implementation notes</h2>
 * A {@link ConcurrentLinkedQueue}: unbounded, lock-free, linearizable ({@code poll} returns null only when the
 * queue is empty), and the same node may be queued again after it was taken, which an array deque of the pool is
 * not safe against (see {@link Node#poolTask()}). It costs one small allocation per entry; entries are only made
 * off the hot path of message chains, which hand off through the worker's buffer instead.
 *
 * <p>No entry is stranded: every offer is followed by the submission of a pump, and a pump takes at most one
 * entry, so while entries wait, pumps wait in the pool; the pool runs them as soon as a worker is idle.
 */
final class RunQueue {
    private final ConcurrentLinkedQueue<Node> entries = new ConcurrentLinkedQueue<>();
    private final Scheduler scheduler;

    RunQueue(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Queues {@code node} behind every entry already here and submits a pump for it ({@link #submitPump}).
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool no longer accepts work; the node is then
     *         taken back out of the queue if nobody has taken it yet
     */
    void offer(Node node, boolean onWorker) {
        entries.offer(node);
        try {
            submitPump(onWorker);
        } catch (Throwable t) {
            if (entries.remove(node)) {
                throw t;                  // not queued after all: the caller deals with it
            }
            // someone took it already (a pump of an earlier entry, or a busy worker): it runs; nothing is lost
        }
    }

    /**
     * Submits a pump: forked to the current worker's deque ({@code onWorker}, called on a worker of this runtime),
     * or given to the pool from outside any deque (from any thread, a worker about to block or die included).
     */
    void submitPump(boolean onWorker) {
        Pump pump = new Pump(this);
        if (onWorker) {
            pump.fork();
        } else {
            scheduler.pool().externalSubmit(pump);
        }
    }

    /** The oldest entry, or null. */
    Node poll() {
        return entries.poll();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Entries waiting (O(n): for diagnostics only). */
    int size() {
        return entries.size();
    }

    /**
     * A pool task that runs the oldest entry of the queue (not necessarily the entry it was submitted with). It
     * has no completer, so a worker helping a finish never runs it as part of that finish; it never completes,
     * since nothing joins it. A pump that finds the queue empty (a busy worker took its entry) does nothing.
     */
    static final class Pump extends CountedCompleter<Void> {
        private final RunQueue queue;

        Pump(RunQueue queue) {
            this.queue = queue;
        }

        @Override
        public void compute() {
            Node n = queue.poll();
            if (n != null) {
                n.compute();
            }
        }
    }
}

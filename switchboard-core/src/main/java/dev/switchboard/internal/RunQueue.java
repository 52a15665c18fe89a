package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <p>No entry is stranded. The invariant, whenever no operation is half-way: <em>pumps waiting in the pool minus
 * {@link #cancelled} is at least the number of entries</em>, so while entries wait, pumps wait in the pool, and the
 * pool runs them as soon as a worker is idle. Each operation keeps it:
 * <ul>
 *   <li>{@link #offer}: one entry and one pump more;</li>
 *   <li>{@link #take} (a busy worker runs an entry itself): announces one cancellation, then polls; an entry taken
 *       matches the cancellation. If the queue was empty, it takes the cancellation back, and if a pump consumed it
 *       meanwhile (and so left without running anything), it submits a pump in that one's place;</li>
 *   <li>a {@link Pump} retires on a pending cancellation, or runs the oldest entry, or, finding the queue empty
 *       (a busy worker took the entry it was submitted for, announcing its cancellation after the pump looked),
 *       consumes a pending cancellation if there is one; with none pending it was a surplus pump.</li>
 * </ul>
 * So pumps do not outnumber entries for long either: each entry a busy worker takes retires one pump.
 */
final class RunQueue {
    private static final VarHandle CANCELLED;

    static {
        try {
            CANCELLED = MethodHandles.lookup().findVarHandle(RunQueue.class, "cancelled", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ConcurrentLinkedQueue<Node> entries = new ConcurrentLinkedQueue<>();
    private final PumpSink sink;
    /** Pumps that must retire without polling: a busy worker took their entries ({@link #take}). */
    private volatile long cancelled;

    /** Where pumps go: into the pool of a runtime; in the jcstress tests, into a list. */
    @FunctionalInterface
    interface PumpSink {
        /** Forks {@code pump} to the current worker's deque ({@code onWorker}) or submits it from outside. */
        void submit(Pump pump, boolean onWorker);
    }

    /** A queue whose pumps go to {@code scheduler}'s pool. */
    RunQueue(Scheduler scheduler) {
        this((pump, onWorker) -> {
            if (onWorker) {
                pump.fork();
            } else {
                scheduler.pool().externalSubmit(pump);
            }
        });
    }

    RunQueue(PumpSink sink) {
        this.sink = sink;
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
        sink.submit(new Pump(this), onWorker);
    }

    /**
     * For a busy worker: the oldest entry, or null. The entry's pump is still in the pool; one cancellation is
     * announced for it, so that the next pump to run retires instead of polling (see the invariant above).
     */
    Node take() {
        CANCELLED.getAndAdd(this, 1L);
        Node n = entries.poll();
        if (n == null && !retireOne()) {
            submitPump(false);
        }
        return n;
    }

    /** After the pool has stopped (close): takes an entry whose pump will never run, or null. */
    Node takeLeftover() {
        return entries.poll();
    }

    /** Consumes one cancellation if there is one; returns whether it did. */
    private boolean retireOne() {
        for (;;) {
            long c = cancelled;
            if (c <= 0) {
                return false;
            }
            if (CANCELLED.compareAndSet(this, c, c - 1)) {
                return true;
            }
        }
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
     * since nothing joins it. A pump that finds the queue empty (a busy worker took its entry) consumes that worker's
     * cancellation.
     */
    static final class Pump extends CountedCompleter<Void> {
        private final RunQueue queue;

        Pump(RunQueue queue) {
            this.queue = queue;
        }

        @Override
        public void compute() {
            if (queue.retireOne()) {
                return;                      // a busy worker took an entry in this pump's place
            }
            Node n = queue.entries.poll();
            if (n != null) {
                n.compute();
            } else {
                // A busy worker took this pump's entry: its cancellation, announced after the check above, is this
                // pump's to consume (else it would outlive this pump and retire the pump of the next entry)
                queue.retireOne();
            }
        }
    }
}

package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinTask;

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
 * <p>The pool does not see this queue. A {@link Pump} stands for it there: a one-shot pool task that, wherever
 * the pool runs it, runs the <em>oldest</em> entry, after making sure another pump is pending if entries remain,
 * and then the next oldest, and so on until the queue is empty or tasks wait in its worker's deque (which go
 * first: a pump is what a worker does when it has nothing of its own to do).
 * Pumps are there to wake idle workers and to be stolen; which worker runs one does not matter. This is what makes
 * the queue fair where the pool is not: a {@link java.util.concurrent.ForkJoinPool} worker that finds work in a
 * queue keeps taking from that queue while it is not empty, so work that re-queued itself into the pool's
 * submission queues could keep a worker on one queue forever and starve every other submission. Busy workers also
 * take an entry themselves every few turns ({@link Worker#runChain}), so the queue keeps moving even when the pool
 * runs nothing but local tasks.
 *
 * <h2>Implementation notes</h2>
 * A {@link ConcurrentLinkedQueue}: unbounded, lock-free, linearizable ({@code poll} returns null only when the
 * queue is empty), and the same node may be queued again after it was taken, which an array deque of the pool is
 * not safe against (see {@link Node#poolTask()}). It costs one small allocation per entry; entries are only made
 * off the hot path of message chains, which hand off through the worker's buffer instead (while actors are held on
 * one worker, that worker's overflowing buffer and turns that yield come here too, see {@link Concentration}).
 *
 * <p>At most one pump is pending (submitted, not yet started): {@link #pending} is 0 or 1, set by whoever submits
 * one and cleared by the pump as it starts. No entry is stranded: an offer queues its entry and then submits a pump
 * unless one is pending; a pump clears {@code pending} and then polls. Both pairs are volatile accesses, totally
 * ordered, so either the offer sees the flag cleared (and submits a pump) or the pump's poll sees the entry. A
 * pump that takes an entry while others remain submits the next pump before it runs its entry, so idle workers
 * join in one after another. A busy worker that takes an entry itself ({@link #poll}) needs no bookkeeping: a
 * pump that finds the queue empty just ends. A pump that could not be submitted (the pool refused it: out of
 * memory) leaves the flag clear; the watchdog {@linkplain #signal signals} every period while entries wait. A pump
 * the pool takes and never runs would break this: JDK 25's {@code externalSubmit} takes one from a thread that
 * submitted before even after the pool has terminated. So once the pool has stopped, the scheduler refuses what is
 * offered ({@code Scheduler.refuseQueued}).
 * (A model of these steps, checked over every interleaving of a few offers, polls and pumps, and the jcstress test
 * {@code RunQueueOfferVsPumpTest} back this up.)
 *
 * <p>The one exception is an entry given to the worker that owns the actors while they are held
 * ({@link #offerQuiet}): it is queued without a pump, since the owner takes it, and {@link Concentration} makes
 * sure a pump is pending if the owner leaves (jcstress: {@code ConcentrationGiveAwayVsLeaveTest}).
 */
final class RunQueue {
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(RunQueue.class, "pending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ConcurrentLinkedQueue<Node> entries = new ConcurrentLinkedQueue<>();
    private final PumpSink sink;
    /** 1 while a pump is submitted and not yet started, else 0. Volatile: see the implementation notes. */
    private volatile int pending;

    /** Where pumps go: into the pool of a runtime; in the jcstress tests, into a list. */
    @FunctionalInterface
    interface PumpSink {
        /** Forks {@code pump} to the current worker's deque ({@code onWorker}) or submits it from outside. */
        void submit(Pump pump, boolean onWorker);
    }

    /**
     * The concentration of the runtime's actors on one worker ({@link Concentration}): a pump run on another worker
     * than their owner leaves the entries to it. Null when there are no trials to decide it (the jcstress tests of
     * the queue alone).
     */
    private final Concentration concentration;

    /** A queue whose pumps go to {@code scheduler}'s pool. */
    RunQueue(Scheduler scheduler) {
        this((pump, onWorker) -> {
            if (onWorker) {
                pump.fork();
            } else {
                scheduler.pool().externalSubmit(pump);
            }
        }, scheduler.spreading.trials());
    }

    RunQueue(PumpSink sink) {
        this(sink, null);
    }

    /** A queue whose actors are concentrated on one worker while {@code trials} hold short turns (if not null). */
    RunQueue(PumpSink sink, SpreadingTrials trials) {
        this.sink = sink;
        this.concentration = trials == null ? null : new Concentration(this, trials);
    }

    /** Which worker runs the actors while short turns are held; null for a queue without trials. */
    Concentration concentration() {
        return concentration;
    }

    /**
     * Queues {@code node} behind every entry already here and makes sure a pump is pending ({@link #signal}).
     *
     * @throws java.util.concurrent.RejectedExecutionException if the pool no longer accepts work; the node is then
     *         taken back out of the queue if nobody has taken it yet
     */
    void offer(Node node, boolean onWorker) {
        entries.offer(node);
        try {
            signal(onWorker);
        } catch (Throwable t) {
            if (entries.remove(node)) {
                throw t;                  // not queued after all: the caller deals with it
            }
            // someone took it already (a pump, or a busy worker): it runs; nothing is lost
        }
    }

    /**
     * Submits a pump unless one is pending: forked to the current worker's deque ({@code onWorker}, called on a
     * worker of this runtime), or given to the pool from outside any deque (from any thread, a worker about to
     * block or die, the watchdog).
     */
    void signal(boolean onWorker) {
        if (pending == 0 && PENDING.compareAndSet(this, 0, 1)) {
            submitPending(onWorker);
        }
    }

    /**
     * Submits a pump in place of a pending one that will never run (taken out of a deque before it ran): the
     * flag stays set, for the new one.
     */
    void replacePump() {
        submitPending(false);
    }

    private void submitPending(boolean onWorker) {
        try {
            sink.submit(new Pump(this), onWorker);
        } catch (Throwable t) {
            pending = 0;                  // no pump is pending after all; the watchdog signals again
            throw t;
        }
    }

    /**
     * Queues {@code node} without a pump: the owner of the actors takes it ({@link Concentration}, which makes
     * sure a pump is pending when the owner leaves).
     */
    void offerQuiet(Node node) {
        entries.offer(node);
    }

    /** For a busy worker: the oldest entry, or null. */
    Node poll() {
        return entries.poll();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Whether a pump is submitted to the pool and has not started (it is one of the pool's queued tasks). */
    boolean pumpPending() {
        return pending != 0;
    }

    /** Whether {@code node} waits here (O(n): for diagnostics only). */
    boolean contains(Node node) {
        return entries.contains(node);
    }

    /** Entries waiting (O(n): for diagnostics only). */
    int size() {
        return entries.size();
    }

    /**
     * A pool task that runs the oldest entries of the queue (not necessarily the one that was queued when it was
     * submitted) while its worker's deque is empty, unless another worker owns the actors now
     * ({@link Concentration}): then it leaves them to that worker. It has no completer, so a worker helping a
     * finish never runs it as part of that finish; it never completes, since nothing joins it.
     */
    static final class Pump extends CountedCompleter<Void> {
        private final RunQueue queue;

        Pump(RunQueue queue) {
            this.queue = queue;
        }

        @Override
        public void compute() {
            RunQueue q = queue;
            q.pending = 0;                           // before the poll: an offer after this submits a new pump
            if (q.concentration != null && q.concentration.heldElsewhere()) {
                return;                              // the owner of the actors takes them (Concentration, R5)
            }
            Node n;
            while ((n = q.entries.poll()) != null) {
                if (!q.entries.isEmpty()) {
                    try {
                        q.signal(true);              // the next entry's pump, for an idle worker to steal
                    } catch (Throwable refused) {
                        // the pool refused it (closed, or out of memory): the watchdog signals again
                    }
                }
                n.compute();
                if (ForkJoinTask.getQueuedTaskCount() > 0) {
                    return;                          // this worker's own tasks go first; entries left have a pump
                }
            }
        }
    }
}

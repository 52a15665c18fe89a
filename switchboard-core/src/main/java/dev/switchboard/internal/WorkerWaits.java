package dev.switchboard.internal;

import java.util.BitSet;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;

/**
 * A worker's side of the waits of Switchboard's own that its thread is in (a finish, a blocking get): entering and
 * leaving one, the interrupt status of each wait put aside while the thread helps, and helping a finish through the
 * pool's join with a bound on what the join hands it. Static methods on the waiting worker, called on its thread by
 * {@link FinishWait}, and by the worker's chain loop for whether helping has stopped ({@link #helpingOver}). Owns
 * nothing: a wait's state is fields of the worker (see the implementation notes).
 */
final class WorkerWaits {
    /*
     * Implementation notes. The state of a worker's waits lives in the worker's own fields, because its hot paths
     * read two of them: how many waits its thread is in (blocking: every handoff looks at it, and a chain every few
     * turns, since the handoff buffer is unused while the thread waits) and the finish it helps through the pool's
     * join (helping: read as each chain starts). The others (the interrupt statuses put aside, a bit per nested
     * wait, and the deadline, the stop and the count of checks of helping a finish) are touched only here, on the
     * worker's thread. Why an interrupt is put aside while a wait helps:
     * docs/decisions/040-an-interrupt-put-aside-while-a-wait-helps.md. The class is loaded with TaskRuntime
     * (FailurePathClasses), not at a first wait, which may come when the heap is exhausted: every wait ends
     * through it, and a finish reports its failures after that.
     */

    /**
     * Finishes one worker thread nests by helping (running the tasks of the finish it waits for, which may wait in
     * a finish of their own). Each level costs about 2 KB of stack; past this depth the thread blocks without
     * helping and the pool lets another thread run the tasks, so nesting costs threads instead of overflowing
     * a stack.
     */
    static final int MAX_HELPING_DEPTH = 128;
    /** While a worker helps a finish through the pool, it looks whether to stop once in this many nodes. */
    static final int HELP_CHECK_PERIOD = 16;

    private WorkerWaits() {
    }

    /**
     * Flushes the buffer of worker {@code w} and disables it: called before its thread may wait. The interrupt
     * status of the task that waits is put aside ({@link #stashInterrupt}) until {@link #exitBlocking}.
     */
    static void enterBlocking(Worker w) {
        w.publish();
        stashInterrupt(w, w.blocking);            // first: if it cannot, nothing is left half done
        w.blocking++;
        w.scheduler.concentration.leave(w);      // a waiting thread runs no actors (Concentration, R4)
    }

    /**
     * Puts aside the interrupt status of the innermost wait of worker {@code w}: the tasks it runs while it helps
     * start without it (each clears its own as it ends), and the wait's task gets it back at {@link #exitBlocking}.
     * A wait calls it again before each bite of help, for an interrupt that came while it blocked.
     */
    static void stashInterrupt(Worker w) {
        stashInterrupt(w, w.blocking - 1);
    }

    /** Puts the interrupt status aside as that of the wait at {@code depth}; it stays set if that fails. */
    private static void stashInterrupt(Worker w, int depth) {
        if (w.isInterrupted()) {
            if (w.stashedInterrupts == null) {
                w.stashedInterrupts = new BitSet();
            }
            w.stashedInterrupts.set(depth);
            Thread.interrupted();                    // cleared only once it is put aside
        }
    }

    /**
     * Called right before the thread of worker {@code w} blocks: the tasks still in its deque move to the shared
     * queue, where every busy worker looks, instead of waiting for a thief (see
     * {@link Node#moveLocalTasksToSharedQueue}).
     */
    static void beforeBlocking(Worker w) {
        if (ForkJoinTask.getQueuedTaskCount() > 0) {
            Node.moveLocalTasksToSharedQueue(w.scheduler);
        }
    }

    /** The wait of worker {@code w} ends: the waiting task's interrupt status, if put aside, is set again. */
    static void exitBlocking(Worker w) {
        w.blocking--;
        if (w.stashedInterrupts != null && w.stashedInterrupts.get(w.blocking)) {
            w.stashedInterrupts.clear(w.blocking);
            w.interrupt();                        // the waiting task's own, put aside while it helped
        }
    }

    /** How many waits (finish, blocking get) the thread of worker {@code w} is nested in, the current one included. */
    static int nestedWaits(Worker w) {
        return w.blocking;
    }

    /**
     * Runs the queued tasks of {@code scope}'s tree from any worker's deque, those of finishes nested in it included
     * (the pool's join of a completer scans them all), then waits for the scope to end, one
     * {@link FinishWait#JOIN_SLICE_NANOS} slice at most. The pool's join runs every such task it finds before it
     * returns, so this thread bounds it: once the finish has stopped, the runtime is closed, work waits in the
     * shared queue or {@code failAt} (if not 0) has passed, every node the join hands it goes to the shared queue
     * instead of running here, and the join soon finds nothing more. Called by the thread of worker {@code w}
     * waiting in the finish; nests (a task it runs may wait in a finish of its own).
     */
    static void helpThrough(Worker w, Scope scope, long failAt) {
        Scope outerScope = w.helping;
        long outerFailAt = w.helpingFailAt;
        boolean outerStopped = w.helpingStopped;
        w.helping = scope;
        w.helpingFailAt = failAt;
        w.helpingStopped = false;
        try {
            scope.quietlyJoinUninterruptibly(FinishWait.JOIN_SLICE_NANOS, TimeUnit.NANOSECONDS);
        } finally {
            w.helping = outerScope;
            w.helpingFailAt = outerFailAt;
            w.helpingStopped = outerStopped;
        }
    }

    /**
     * Whether helping the finish that worker {@code w} helps through the pool's join ({@link #helpThrough}) has to
     * stop: asked by its chain loop of every node the join hands it, which then goes to the shared queue.
     */
    static boolean helpingOver(Worker w) {
        Scheduler scheduler = w.scheduler;
        if (!w.helpingStopped && (++w.helpingChecks & (HELP_CHECK_PERIOD - 1)) == 0
                && (w.helping.stopped() != null || scheduler.isClosed() || !scheduler.runQueue.isEmpty()
                        || w.helpingFailAt != 0 && scheduler.clock().nanoTime() - w.helpingFailAt >= 0)) {
            w.helpingStopped = true;
        }
        return w.helpingStopped;
    }
}

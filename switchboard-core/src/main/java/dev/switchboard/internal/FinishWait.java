package dev.switchboard.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Waiting for work to end: a finish ({@link #runFinish}), a future's value ({@link #helpProduce}) and any other
 * blocking wait of the runtime's ({@link #block}). Owns how a waiting thread helps (only with the work it waits
 * for), when it steps aside and blocks, and the deadlines of its wait (time-out, hang report).
 *
 * <p>{@link #runFinish} runs a finish body with a fresh {@link Scope} as the current node, then waits for the
 * scope. A waiting worker first helps, never with unrelated work: it runs the queued tasks of this finish from its
 * own deque ({@link Node#helpComplete(int)}), then those in any worker's deque, the tasks of finishes nested in it
 * included (a nested scope is a child of the node that opened it), by joining the scope in slices
 * ({@link #JOIN_SLICE_NANOS}). Only when it has found nothing to run for {@link #STEP_ASIDE_NANOS} does it block,
 * through {@link ForkJoinPool#managedBlock}, which lets the pool add a compensating worker, so nested finishes
 * cannot deadlock the pool even with one worker. How long it helps before it steps aside is the runtime's own
 * pacing and reads the system clock; its deadlines (time-out, hang report) read the runtime's clock. Under a manual
 * clock a worker that would step aside for shared work blocks instead (the pool adds a worker) until its finish
 * ends or the test moves time past a deadline.
 *
 * <p>May touch: the scheduler's waiting scopes ({@link OpenScopes}: a wait is there while it lasts), the worker's
 * blocking state ({@link WorkerWaits#enterBlocking}), the hang reports (it asks for one when the workers make no
 * progress) and the closing (a wait on a closed runtime ends with its exception).
 */
public final class FinishWait {
    /** Tasks a worker waiting in a finish runs for it before it looks at the shared queue again. */
    static final int HELP_BITE = 64;
    /**
     * How long a worker waiting in a finish steps aside (blocks, so the pool activates or adds a worker) when work
     * waits in the shared queue, before it helps its finish again; and how long it looks for the finish's tasks in
     * other workers' deques, finding none, before it blocks.
     */
    static final long STEP_ASIDE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * How long a worker waiting for a future's value, or in a finish whose tasks run elsewhere, waits in one go for
     * the producer (the finish) to end before it looks again for tasks of its subtree to help with
     * ({@link #helpProduce}, {@link #runFinish}).
     */
    static final long JOIN_SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /**
     * How {@link #runFinish} runs a body whose type belongs to the calling package (this one sits below it): a
     * method reference such as {@code TaskBody::run}, which captures nothing, so that a finish allocates nothing
     * for it.
     */
    @FunctionalInterface
    public interface BodyRunner<B> {
        /** Runs {@code body}; whatever it throws, checked or not, is a failure of the finish. */
        void run(B body) throws Exception;
    }

    private final Scheduler scheduler;

    FinishWait(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** For tests: refuses a blocking {@code get()} on a worker once the pool has {@code threads} spare threads. */
    public void maxSpareThreads(int threads) {
        this.maxSpareThreads = threads;
    }

    /**
     * Called on a worker of this runtime by a {@code get()} whose value {@code producer} computes, before it blocks:
     * if no thread has started the producer, runs it here; otherwise helps with the queued tasks the producer
     * spawned, in any worker's deque (its subtree: what its value may depend on, never unrelated work), as
     * {@code ForkJoinTask.join} helps, and, while there are none, waits for up to {@link #STEP_ASIDE_NANOS}.
     * Returns when the value (or failure) is there or when that time has passed without work to help; the caller
     * then blocks, and the pool may add a thread for the wait. A divide-and-conquer recursion on futures therefore
     * runs on the workers it has, as it does on a {@code ForkJoinPool}; only a wait with nothing to help and no
     * quick end costs a thread.
     * Past {@link WorkerWaits#MAX_HELPING_DEPTH} nested waits this thread does not help (its stack is deep enough).
     */
    public void helpProduce(ProducingTask producer) {
        Worker w = (Worker) Thread.currentThread();
        if (WorkerWaits.nestedWaits(w) >= WorkerWaits.MAX_HELPING_DEPTH) {
            return;
        }
        WorkerWaits.enterBlocking(w);
        try {
            if (!producer.isClaimed()) {
                producer.tryUnfork();              // usually the newest task of this deque: leave no stale entry
                w.runChain(producer);              // runs it unless another thread claims it first (run())
            }
            Clock pacing = Clock.system();          // the runtime's own pacing: real time, whatever its clock
            long idleSince = 0;
            while (!producer.valueReady()) {
                if (refusalOf(w) != null) {
                    return;                      // helping would run a refused recursion on: block, which refuses
                }
                WorkerWaits.stashInterrupt(w);   // one that came meanwhile: not for the tasks it helps with
                long before = w.progress();
                // Runs queued tasks of the producer's subtree from any worker's deque, then waits, for one slice at
                // most, for the producer to mark itself done, which it does once its value is there.
                producer.quietlyJoinUninterruptibly(JOIN_SLICE_NANOS, TimeUnit.NANOSECONDS);
                if (w.progress() != before) {
                    idleSince = 0;
                    continue;
                }
                long now = pacing.nanoTime();
                if (idleSince == 0) {
                    idleSince = now;
                } else if (now - idleSince >= STEP_ASIDE_NANOS) {
                    return;
                }
            }
        } finally {
            WorkerWaits.exitBlocking(w);
        }
    }

    /**
     * Runs {@code body} (with {@code runner}) as a finish and waits until it and everything it spawned have ended,
     * until {@code timeoutNanos} (if positive) has passed since the call (the body's own time included: it is not
     * interrupted, and a finish whose body took longer waits no more), or until a fatal failure
     * ({@link Failures#isFatal}) arrives. Returns the scope; the caller checks {@link Scope#isEnded()} and rethrows
     * {@link Scope#failures()}. If the finish stopped waiting early, the scope's outstanding work is adopted by the
     * enclosing context (or the global scope), so the enclosing finish still waits for it and later failures reach
     * it.
     */
    public <B> Scope runFinish(B body, BodyRunner<? super B> runner, long timeoutNanos) {
        scheduler.requireOpen("finish");
        long failAt = timeoutNanos > 0 ? scheduler.clock().nanoTime() + timeoutNanos : 0;
        Thread thread = Thread.currentThread();
        Node outer = Context.current();
        int depth = outer == null ? 1 : outer.scope().depth() + 1;
        if (depth > Scheduler.MAX_FINISH_DEPTH) {
            throw new IllegalStateException("finish nested " + depth + " deep: more than the "
                    + Scheduler.MAX_FINISH_DEPTH + " levels a runtime supports (each level beyond "
                    + WorkerWaits.MAX_HELPING_DEPTH
                    + " on one thread makes the pool add a thread); is a recursion missing its base case?");
        }
        if (depth > StackRoom.CHECKED_DEPTH) {
            StackRoom.ensure();                  // at the stack's edge, the StackOverflowError comes before any change
        }
        // A nested finish is a child of the node that opens it: one spawn tree, so a worker waiting for the outer
        // finish can help with the tasks of finishes nested below it (on another worker, say).
        Scope scope;
        if (outer == null) {
            scope = new Scope(null, scheduler, null, false, depth);
        } else {
            Node parent = outer.attachChild();
            try {
                scope = new Scope(parent, scheduler, outer.owner(), false, depth);
            } catch (Throwable t) {          // no memory, no stack: the child never existed
                parent.addToPendingCount(-1);
                throw t;
            }
        }
        try {
            Node previous = Context.enter(thread, scope);
            try {
                runner.run(body);
            } catch (Throwable t) {
                scope.addFailure(t);
                if (scheduler.isClosed() && ClosedRuntimes.isClosedException(t)) {
                    scope.stopWaiting(t);        // the close ended the body (a get it freed): it ended the finish
                }
            } finally {
                scope.sealSpawns();
                Context.restore(thread, previous);
            }
        } finally {
            // the body has ended, even if something above threw (a StackOverflowError, say): a nested scope is
            // counted in its parent, which would otherwise wait for it forever
            scope.tryComplete();
        }
        if (!scope.isEnded() && !helpedToEnd(scope, thread)) {
            await(scope, thread, failAt);
            if (!scope.isEnded()) {
                scope.adoptInto(outer != null ? outer : scheduler.globalScope().attachChild());
            }
        }
        return scope;
    }

    /**
     * The common case of a finish on a worker, before any bookkeeping of a wait: its tasks are still in this
     * worker's deque (nobody stole them), and running them here ends it. Returns whether the scope has ended.
     */
    private static boolean helpedToEnd(Scope scope, Thread thread) {
        if (!(thread instanceof Worker w) || WorkerWaits.nestedWaits(w) >= WorkerWaits.MAX_HELPING_DEPTH) {
            return false;
        }
        WorkerWaits.enterBlocking(w);
        try {
            scope.helpComplete(HELP_BITE);
        } finally {
            WorkerWaits.exitBlocking(w);
        }
        return scope.isEnded();
    }

    /** Waits for {@code scope} until it ends, until {@code failAt} on the runtime's clock (if not 0), or it stops. */
    private void await(Scope scope, Thread thread, long failAt) {
        if (scheduler.deterministic != null) {
            scheduler.deterministic.awaitFinish(scope);      // the test thread runs the work, or it fails at once
            return;
        }
        long reportAfter = scheduler.hangs.hangReportAfterNanos();
        Worker w = thread instanceof Worker ww ? ww : null;
        Clock clock = scheduler.clock();
        long start = clock.nanoTime();
        // Helping runs the finish's tasks on this thread's stack, and a task may open a finish of its own: deep
        // nesting would overflow the stack. Past a depth, this thread only blocks and another runs the tasks.
        boolean help = w != null && WorkerWaits.nestedWaits(w) < WorkerWaits.MAX_HELPING_DEPTH;
        long reportAt = reportAfter > 0 ? start + reportAfter : 0;
        long reportProgress = reportAt != 0 ? scheduler.hangs.workersProgress() : 0;
        boolean reported = false;                 // reported once: again only for a deadlock formed since
        boolean deadlockReported = false;
        scope.timesOutAt(failAt);
        scheduler.openScopes.waiting.add(scope);
        if (w != null) {
            WorkerWaits.enterBlocking(w);
        }
        try {
            long idleSince = 0;
            while (!scope.isEnded() && scope.stopped() == null) {
                if (scheduler.isClosed()) {      // after add: close() either sees this scope or we see closed
                    scope.stop(scheduler.closing.closedWhileWaiting(scope));
                    break;
                }
                long deadline = earliest(failAt, reportAt);
                if (help) {
                    WorkerWaits.stashInterrupt(w);   // one that came while it blocked: not for the tasks it runs
                    // Help in bites, so that deadlines and other work are looked at in between: this thread runs
                    // only the finish's own tasks, so while work waits in the shared queue it blocks for a moment
                    // and the pool lets another worker run it (the finish's tasks may never end: endless chains).
                    long before = w.progress();
                    scope.helpComplete(deadline == 0 ? HELP_BITE : 8);          // this deque's
                    if (scope.isEnded() || scope.stopped() != null) {
                        break;
                    }
                    if (!scheduler.runQueue.isEmpty()) {
                        if (clock == Clock.system()) {   // a manual clock's waiter blocks; the pool adds a worker
                            long soon = clock.nanoTime() + STEP_ASIDE_NANOS;
                            deadline = deadline == 0 ? soon : earliest(deadline, soon);
                        }
                    } else if (deadline == 0 || clock.nanoTime() - deadline < 0) {
                        if (w.progress() != before) {
                            idleSince = 0;
                            continue;               // it ran tasks, and may find more: keep helping
                        }
                        // Nothing of this finish here: its tasks (and those of the finishes nested in it) may wait
                        // in other workers' deques. Run those, as a join of a stolen task helps its thief, waiting
                        // one slice at most for the finish to end; block only after a while of finding none. The
                        // pool's join runs every task of the finish it finds before it returns: the worker stops
                        // it when the finish stops or times out, or other work waits (WorkerWaits#helpThrough).
                        WorkerWaits.helpThrough(w, scope, failAt);
                        long now = clock.nanoTime();
                        long real = Clock.system().nanoTime();   // the step aside is pacing: real time
                        if (w.progress() != before) {
                            idleSince = 0;
                        } else if (idleSince == 0) {
                            idleSince = real;
                        }
                        if ((idleSince == 0 || real - idleSince < STEP_ASIDE_NANOS)
                                && (deadline == 0 || now - deadline < 0)) {
                            continue;
                        }
                        idleSince = 0;
                    }
                }
                scope.deadline(deadline);
                if (w != null) {
                    WorkerWaits.beforeBlocking(w);
                }
                try {
                    ForkJoinPool.managedBlock(scope);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();   // not thrown by Scope.block; kept for the contract
                }
                if (scope.isEnded()) {
                    break;
                }
                if (scope.outlivedAWorker()) {
                    scope.stop(scheduler.deaths.lastDeath());
                    break;
                }
                long now = clock.nanoTime();
                if (reportAt != 0 && now - reportAt >= 0) {
                    Scope.TaskFailures failed = scope.takeTaskFailuresToLog();   // an open finish's, seen
                    if (failed != null) {
                        scheduler.failureLog().tasksFailed(scope.name(), failed.count(), failed.first());
                    }
                    long progress = scheduler.hangs.workersProgress();
                    if (progress != reportProgress) {
                        // the runtime's workers started work in the last period: not stuck, look again later
                        reportProgress = progress;
                    } else if (!reported || !deadlockReported) {
                        // once; after that only a deadlock that formed since (an idle service is told once)
                        boolean deadlock = scheduler.hangs.reportHang(scope, reported);
                        reported = true;
                        deadlockReported = deadlock;
                    }
                    reportAt = now + reportAfter;
                }
                if (failAt != 0 && now - failAt >= 0) {
                    return;                       // timed out; the caller reports it
                }
            }
        } finally {
            scope.deadline(0);
            if (w != null) {
                WorkerWaits.exitBlocking(w);
            }
            scheduler.openScopes.waiting.remove(scope);
            scope.timesOutAt(0);
        }
    }

    private static long earliest(long a, long b) {
        if (a == 0) {
            return b;
        }
        if (b == 0) {
            return a;
        }
        return a - b <= 0 ? a : b;
    }

    /**
     * Threads the pool may have beyond the runtime's workers, each added for a worker blocked in a {@code get()}:
     * a {@code get()} that would need one more is refused ({@link #block}). Nested finishes stay within it up to
     * their own limit ({@link Scheduler#MAX_FINISH_DEPTH}, one thread per {@link WorkerWaits#MAX_HELPING_DEPTH}
     * levels); a recursion of futures missing its base case reaches it after some 130,000 levels, instead of adding
     * threads until the JVM has no memory left to stop.
     */
    static final int MAX_SPARE_THREADS = 1_024;

    /** {@link #MAX_SPARE_THREADS}, or fewer in a test. */
    private volatile int maxSpareThreads = MAX_SPARE_THREADS;

    /** The refusal the finish that {@code w}'s current work counts in stopped for (see {@link #block}), or null. */
    private static IllegalStateException refusalOf(Worker w) {
        Node current = w.current();
        return current != null ? current.scope().spareThreadsRefused : null;
    }

    /**
     * Refuses the get() of {@code future} on worker {@code w}, about to block, if the pool has its
     * {@link #maxSpareThreads} already, or if its finish stopped for that already: after the first refusal, every
     * get() of the finish that would block fails at once, with that refusal, so that the recursion ends as its
     * links fail, instead of going on on the threads that take its newest tasks.
     */
    private void refuseBeyondSpareThreads(Worker w, Object future, ProducingTask producer) {
        IllegalStateException first = refusalOf(w);
        if (first != null) {
            throw withdrawn(producer, first);        // the same failure: the finish counts it once
        }
        int spare = scheduler.pool.getPoolSize() - scheduler.parallelism();
        if (spare >= maxSpareThreads) {
            IllegalStateException refused = new IllegalStateException("runtime '" + scheduler.name()
                    + "' refused get() of " + SafeText.of(future) + " on " + Threads.name(w) + ": it has " + spare
                    + " threads beyond its " + scheduler.parallelism() + " workers already, each added for a worker"
                    + " blocked in a wait nested in the others'; is a recursion of futures missing its base case?"
                    + " (asyncAwait waits without a thread)");
            Node current = w.current();
            if (current != null) {
                Scope scope = current.scope();
                scope.spareThreadsRefused = refused;
                scope.stopWaiting(refused);          // recorded as the failure of the task that gets it
            }
            throw withdrawn(producer, refused);
        }
    }

    /**
     * {@code refused}, once the task that would compute the refused get()'s value, if no thread has started it, is
     * withdrawn with it: left queued, it would carry the recursion on from where the refusal cut it.
     */
    private static IllegalStateException withdrawn(ProducingTask producer, IllegalStateException refused) {
        if (producer != null) {
            producer.withdraw(refused);
        }
        return refused;
    }

    /**
     * Blocks the current thread (helping the pool stay live) until {@code blocker} is releasable; {@code future} (the
     * one whose {@code get()} waits) names the wait if it is refused, and {@code producer}, the task that computes
     * it (or null), is then withdrawn if no thread has started it.
     *
     * @throws IllegalStateException on a worker, if the pool has {@link #MAX_SPARE_THREADS} threads beyond the
     *         runtime's workers already, or the finish the worker's work counts in stopped for such a refusal; the
     *         first stops that finish
     */
    public void block(ForkJoinPool.ManagedBlocker blocker, Object future, ProducingTask producer) {
        if (scheduler.deterministic != null) {
            scheduler.deterministic.awaitOnThisThread("a blocking wait", blocker::isReleasable);
        }
        Worker w = Thread.currentThread() instanceof Worker ww && ww.scheduler == scheduler ? ww : null;
        if (w != null && !blocker.isReleasable()) {
            refuseBeyondSpareThreads(w, future, producer);
        }
        if (w != null) {
            WorkerWaits.enterBlocking(w);
            WorkerWaits.beforeBlocking(w);
        }
        try {
            ForkJoinPool.managedBlock(blocker);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (w != null) {
                WorkerWaits.exitBlocking(w);
            }
        }
    }
}

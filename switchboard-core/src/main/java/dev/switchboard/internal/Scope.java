package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One {@code finish}: the root of its spawn tree, which is itself a child of the node that opened the finish
 * when finishes nest.
 *
 * <h2>Overview</h2>
 * The finish body runs with this scope as its current node; everything it spawns (and everything those spawn)
 * completes into this scope through the spawn tree (see {@link Node}). The body's own end is the scope's
 * {@link #tryComplete()}; when that and all children have happened, {@link #onCompletion} marks the scope done
 * and wakes the waiting thread, and a nested scope then completes into the node that opened it. Failures of any
 * task or actor in the tree, up to the next nested finish, are collected here ({@link ScopeFailures}, made at the
 * first failure and guarded by this scope's monitor, which also guards its stopping) and rethrown by the finish.
 *
 * <p>For the hang diagnostic and the runtime's close the scope keeps the actors started in it, the asyncAwait
 * tasks created in it and the replies awaited in it ({@link #track}, a {@link TrackedNodes} made at the first); a
 * report lists those still open.
 *
 * <h2>Implementation notes</h2>
 * The global scope of a runtime accepts spawns from any thread and so attaches children directly.
 */
public final class Scope extends Node implements ForkJoinPool.ManagedBlocker {
    private static final VarHandle TRACKED;
    private static final VarHandle ADOPTION_RELEASED;

    /** Failures a finish keeps to rethrow; beyond these it counts them ("and N more"). */
    public static final int MAX_KEPT_FAILURES = 100;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TRACKED = l.findVarHandle(Scope.class, "tracked", TrackedNodes.class);
            ADOPTION_RELEASED = l.findVarHandle(Scope.class, "adoptionReleased", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final boolean global;
    /** How many finishes enclose this one, itself included (0 for the global scope). */
    private final int depth;
    /** Workers of the runtime that had died when this finish was opened. */
    private final long deathsAtOpen;
    private final Object owner;
    private final String openedBy;
    /** See {@link #origin()}. */
    private String origin;
    private final long openedAtNanos;

    /** Set (before the waiter is unparked) when the body and every node of the tree have completed. */
    private volatile boolean done;
    private volatile Thread waiter;
    /** Deadline of the current wait, 0 for none; confined to the waiting thread. */
    private long deadline;
    /** When the finish waiting for this scope times out (the runtime's clock), or 0: read by a clock's nextDue. */
    private volatile long timesOutAt;

    /**
     * Task failures since a log last told of them, and the first of them; guarded by this. Here, not in
     * {@link #failures}: a task failure that found no memory to make that is counted too.
     */
    private long tasksFailedUnlogged;
    private Throwable firstTaskFailureUnlogged;
    /**
     * The failures recorded here, or null before the first: made by {@link #addFailure}, so that a finish that does
     * not fail allocates nothing for failures; guarded by this.
     */
    private ScopeFailures failures;
    /**
     * The first failure that could not be recorded for lack of memory, kept without allocating (here, not in
     * {@link #failures}, which there may have been no memory to make); guarded by this.
     */
    private Throwable unrecorded;
    /** Failures that could not be recorded for lack of memory; guarded by this. */
    private long unrecordedCount;
    /**
     * Whether any failure was recorded here (kept, counted or forwarded): set, under this monitor, before the
     * failing node completes, so a finish that sees its scope ended reads it without taking the monitor.
     */
    private volatile boolean anyFailure;
    /**
     * Why the finish stopped waiting before its work ended: the first fatal failure ({@link Failures#isFatal}),
     * the runtime's close, a lost task. Written holding this monitor, read by the waiter without it.
     */
    private volatile Throwable stopped;
    /**
     * The first get() of this finish's work refused for the pool's spare threads ({@code FinishWait.block}), or
     * null: once set, every get() of the work that would block is refused too.
     */
    volatile IllegalStateException spareThreadsRefused;
    /** After its finish gave up waiting (a timeout): the node this scope completes into instead. */
    private volatile Node adoptedBy;   // written under this
    private volatile int adoptionReleased;

    /** The actors, awaiting tasks and awaited replies of this finish, or null before the first ({@link #track}). */
    private volatile TrackedNodes tracked;

    /**
     * @param parent the node this scope counts in as a child (attached for it by the thread opening the finish), or
     *        null for a root: the global scope, or a finish opened outside every finish
     */
    Scope(Node parent, Scheduler scheduler, Object owner, boolean global, int depth) {
        super(parent, scheduler);
        startsTaskChains();
        this.global = global;
        this.depth = depth;
        this.deathsAtOpen = scheduler.workerDeaths();
        this.owner = owner;
        this.openedBy = Threads.name(Thread.currentThread());
        this.openedAtNanos = scheduler.roughNanoTime();
    }

    @Override
    public Node attachChild() {
        if (global) {                // spawns arrive from any thread
            addToPendingCount(1);
            return this;
        }
        return super.attachChild();
    }

    @Override
    public Scope scope() {
        return this;
    }

    @Override
    public Object owner() {
        return owner;
    }

    public boolean isGlobal() {
        return global;
    }

    /** How many finishes enclose this one, itself included (0 for the global scope). */
    int depth() {
        return depth;
    }

    /** Whether the body and every node of the tree have completed. */
    public boolean isEnded() {
        return done;
    }

    @Override
    protected void run() {
        throw new AssertionError("a finish scope is never scheduled");
    }

    @Override
    public void onCompletion(java.util.concurrent.CountedCompleter<?> caller) {
        done = true;
        if (tracked != null) {
            scheduler.openScopes.tracking.remove(this);
        }
        if (tasksFailedUnlogged != 0) {          // stable now: every task has ended (their ends came before this)
            scheduler.openScopes.failedUnlogged.remove(this);
        }
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        if (getCompleter() == null) {
            if (adoptedBy != null) {
                releaseAdoption();
            }
        } else {
            // A nested scope completes into its parent, which is not done with it: mark it done here, which ends
            // a helper's helpComplete on it at once (the pool marks only roots).
            quietlyComplete();
            super.onCompletion(caller);
        }
    }

    /**
     * Hands this scope's outstanding work to {@code parent} when its finish stops waiting: the enclosing finish then
     * waits for that work, and failures it reports from now on go to the enclosing finish. A nested scope counts in
     * its parent already and names it; a root scope is given a child slot attached to the global scope, which it
     * completes when it ends. Returns the failures collected so far.
     */
    List<Throwable> adoptInto(Node parent) {
        List<Throwable> before;
        synchronized (this) {
            adoptedBy = parent;                 // written before reading done; onCompletion does the reverse
            before = failures == null ? List.of() : failures.listedSoFar();
        }
        if (done && getCompleter() == null) {
            releaseAdoption();
        }
        return before;
    }

    /** Whether this scope's finish stopped waiting and handed its work to {@code target} ({@link #adoptInto}). */
    boolean handedTo(Scope target) {
        Scope s = this;
        for (int hops = 0; hops <= Scheduler.MAX_FINISH_DEPTH && !s.done; hops++) {
            Node a = s.adoptedBy;
            if (a == null) {
                return false;
            }
            s = a.scope();
            if (s == target) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a failure added to this scope now reaches no finish: this is the global scope, or its finish stopped
     * waiting (a time-out, a close) and handed its work, directly or through finishes that did the same, to the
     * global scope, whose handler hears of a failure at once. A failure added meanwhile may see either answer.
     */
    public boolean reachesNoFinish() {
        Scope s = this;
        for (int hops = 0; hops <= Scheduler.MAX_FINISH_DEPTH; hops++) {
            if (s.global) {
                return true;
            }
            Node a = s.adoptedBy;
            if (a == null) {
                return false;
            }
            s = a.scope();
        }
        return false;
    }

    private void releaseAdoption() {
        if (ADOPTION_RELEASED.compareAndSet(this, 0, 1)) {
            adoptedBy.tryComplete();
        }
    }

    // ---------------------------------------------------------------- failures

    /**
     * A task's failure ({@link #addFailure}), which no log has told of yet: a finish that stays open, waiting or
     * still running its body, logs it ({@link #takeTaskFailuresToLog}), so that a failure in a service whose finish
     * never ends is seen.
     */
    public void addTaskFailure(Throwable failure) {
        addTaskFailure(failure, false);
    }

    /**
     * The failure of the task computing a future's value, reported before the future fails with it: the tasks that
     * get it from the future's {@code get()} and rethrow it, bare or in {@link CompletionException}s, add nothing.
     */
    public void addFutureFailure(Throwable failure) {
        addTaskFailure(failure, true);
    }

    private void addTaskFailure(Throwable failure, boolean ofAFuture) {
        if (!addFailure(failure, ofAFuture)) {
            return;
        }
        boolean first;
        synchronized (this) {
            first = tasksFailedUnlogged++ == 0;
            if (first) {
                firstTaskFailureUnlogged = failure;
            }
        }
        if (first && !global) {
            try {                                    // so that an open finish's log tells of it (the watchdog's)
                scheduler.openScopes.failedUnlogged.putIfAbsent(this, scheduler.clock().nanoTime());
            } catch (Throwable noMemory) {
                // its finish still throws it when it ends; only the log while it stays open misses it
            }
        }
    }

    /** Task failures no log has told of: how many, and the first of them. */
    public record TaskFailures(long count, Throwable first) {
    }

    /**
     * For the waiting finish and the watchdog ({@code HangReports.logFailuresOfOpenFinishes}): the task failures
     * not yet logged, then none; null if none.
     */
    public TaskFailures takeTaskFailuresToLog() {
        TaskFailures taken;
        synchronized (this) {
            if (tasksFailedUnlogged == 0) {
                return null;
            }
            taken = new TaskFailures(tasksFailedUnlogged, firstTaskFailureUnlogged);
            tasksFailedUnlogged = 0;
            firstTaskFailureUnlogged = null;
        }
        scheduler.openScopes.failedUnlogged.remove(this);
        return taken;
    }

    /**
     * Records a failure of the body, a task or an actor in this scope. Never loses one: without memory to record
     * it the normal way, it is counted and the first such failure is kept in a field. A fatal failure
     * ({@link Failures#isFatal}) also wakes the finish waiting for this scope, which then stops waiting. A future's
     * failure recorded already in this finish ({@link #addFutureFailure}), bare or in {@link CompletionException}s
     * (a task got it from the future's {@code get()} and rethrew it), is not recorded again; returns false then.
     * Any other failure is recorded however often its instance comes (a cached exception, the one the JVM
     * preallocates for a hot throw site: each throw is a failure), and so is every failure of the global scope,
     * which lives as long as its runtime and tells each to its handler.
     */
    public boolean addFailure(Throwable failure) {
        return addFailure(failure, false);
    }

    private boolean addFailure(Throwable failure, boolean ofAFuture) {
        boolean fatal = Failures.isFatal(failure);
        Node forwardTo;
        boolean wake;
        // Plain monitors, no VarHandle and no allocation on the way to the waiter: this must work when the heap is
        // exhausted (a VarHandle call site used for the first time allocates to link itself). One monitor, this,
        // guards the failures and the stopping both. The ScopeFailures is made here, at the first failure: without
        // the memory for it, the failure is counted below, which needs no ScopeFailures.
        try {
            synchronized (this) {
                forwardTo = adoptedBy;
                if (forwardTo == null) {
                    ScopeFailures f = failures;
                    if (f == null) {
                        failures = f = new ScopeFailures();
                    }
                    if (!f.record(failure, ofAFuture && !global)) {
                        return false;
                    }
                }
                anyFailure = true;
                wake = fatal && stopOnce(failure);   // recorded first: the finish it ends rethrows this failure
            }
        } catch (Throwable noMemory) {
            synchronized (this) {
                if (unrecorded == null) {           // allocates nothing
                    unrecorded = failure;
                }
                unrecordedCount++;
                anyFailure = true;
                forwardTo = null;
                wake = fatal && stopOnce(failure);
            }
        }
        if (wake) {
            wakeWaiter();
        }
        if (forwardTo != null) {
            return forwardTo.scope().addFailure(failure, ofAFuture);   // the finish that took over this scope's work
        } else if (global) {
            scheduler.reportUnscopedFailure(failure);
        }
        return true;
    }

    /** Sets {@link #stopped} if it is not set; returns whether this call set it. Called holding this monitor. */
    private boolean stopOnce(Throwable cause) {
        if (stopped != null || global) {           // nobody waits for the global scope: it never stops
            return false;
        }
        stopped = cause;
        return true;
    }

    /** The failures kept so far, oldest first (at most {@link #MAX_KEPT_FAILURES}, see {@link #failureCount()}). */
    public List<Throwable> failures() {
        List<Throwable> kept;
        Throwable u;
        synchronized (this) {
            kept = failures == null ? new ArrayList<>(1) : failures.listCopy();
            u = unrecorded;
        }
        if (u != null && kept.size() < MAX_KEPT_FAILURES && !kept.contains(u)) {
            kept.add(u);
        }
        return List.copyOf(kept);
    }

    /** Every failure reported to this scope, including those not kept. */
    public synchronized long failureCount() {
        return (failures == null ? 0 : failures.recorded()) + unrecordedCount;
    }

    /** The failures kept and how many there were in all, read together. */
    public record Failed(List<Throwable> kept, long count) {
    }

    /**
     * Whether any failure was reported to this scope. A finish whose scope has ended asks this first: it is false
     * for almost every finish, and cheaper than {@link #failed()}.
     */
    public boolean anyFailure() {
        return anyFailure;
    }

    /** {@link #failures()} and {@link #failureCount()} as one snapshot, for the finish that rethrows them. */
    public Failed failed() {
        synchronized (this) {
            return new Failed(failures(), failureCount());
        }
    }

    /**
     * Stops the wait of this scope's finish with {@code cause}, which is recorded as a failure (the runtime was
     * closed, a worker died): once per finish, and not at all if its work has ended already. The work goes on;
     * the finish hands it to the enclosing scope, as after a timeout.
     */
    public void stop(Throwable cause) {
        boolean first;
        synchronized (this) {
            first = !done && stopped == null;      // one cause per finish, and none once its work has ended
        }
        if (first) {
            addFailure(cause);
            stopWaiting(cause);
        }
    }

    /**
     * Stops the wait of this scope's finish with {@code cause} (already recorded by the caller, if it is to be),
     * unless it was stopped already.
     */
    public void stopWaiting(Throwable cause) {
        boolean wake;
        synchronized (this) {
            wake = stopOnce(cause);
        }
        if (wake) {
            wakeWaiter();
        }
    }

    /** Why the finish stopped waiting early (a fatal failure, the runtime's close), or null. */
    public Throwable stopped() {
        return stopped;
    }

    void wakeWaiter() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    // ---------------------------------------------------------------- waiting

    /** Sets the deadline (by the runtime's {@link Clock}; 0: none) for the next {@link ForkJoinPool#managedBlock}. */
    void deadline(long deadlineNanos) {
        this.deadline = deadlineNanos;
    }

    /** When the finish waiting for this scope times out (by the runtime's clock), or 0: no time-out, nobody waits. */
    long timesOutAt() {
        return timesOutAt;
    }

    /** Set by the waiting finish as it starts to wait (its time-out, or 0), and to 0 when it stops. */
    void timesOutAt(long failAt) {
        timesOutAt = failAt;
    }

    /**
     * How often a waiting finish checks whether a worker died since it was opened (the dying worker wakes it too,
     * when it has the memory to; this is the fallback).
     */
    static final long DEATH_CHECK_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /**
     * Whether a worker died after this finish was opened: its work may have been cancelled with the worker's
     * deque, so the finish stops waiting ({@link WorkerDeaths#died}).
     */
    boolean outlivedAWorker() {
        return scheduler.workerDeaths() != deathsAtOpen;
    }

    @Override
    public boolean isReleasable() {
        return done || stopped != null || (deadline != 0 && scheduler.clock().nanoTime() - deadline >= 0)
                || outlivedAWorker();
    }

    @Override
    public boolean block() {
        waiter = Thread.currentThread();   // publish before re-checking done: onCompletion sets done, then reads waiter
        boolean interrupted = false;
        while (!isReleasable()) {
            long wait = deadline == 0 ? DEATH_CHECK_PERIOD_NANOS
                    : Math.min(DEATH_CHECK_PERIOD_NANOS,
                            scheduler.clock().parkNanos(deadline - scheduler.clock().nanoTime()));
            LockSupport.parkNanos(this, wait);
            if (Thread.interrupted()) {     // a finish is not interruptible; keep the status for the caller
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    // ---------------------------------------------------------------- diagnostics

    /** Adds an actor activation, an awaiting task or a reply's hold to the list a hang report and a close walk. */
    public void track(Node node) {
        TrackedNodes t = tracked;
        (t != null ? t : startTracking()).push(node);
    }

    /**
     * The first node's tracker: puts this scope in the scheduler's set of scopes with tracked nodes, then installs
     * the list, or takes the one another thread installed first. In the set before the list exists, so that a
     * close finds every node pushed to it (adding twice is harmless).
     */
    private TrackedNodes startTracking() {
        if (!global) {
            scheduler.openScopes.tracking.add(this);
        }
        TrackedNodes fresh = new TrackedNodes();
        TrackedNodes won = (TrackedNodes) TRACKED.compareAndExchange(this, null, fresh);
        return won != null ? won : fresh;
    }

    /** The node tracked last, or null: walk on through {@link Node#nextTracked}. */
    private Node firstTracked() {
        TrackedNodes t = tracked;
        return t != null ? t.first() : null;
    }

    /** The runtime is closed: tells every tracked node (actors terminate). */
    void closeTracked() {
        for (Node n = firstTracked(); n != null; n = n.nextTracked) {
            try {
                n.runtimeClosed();
            } catch (Throwable t) {
                Failures.lastResort(this, t);
            }
        }
    }

    /**
     * Gives {@code each} every node on the tracked list now (actors' activations and awaiting tasks; those closed
     * since the last pruning too), without locking: a node pushed meanwhile may be missed.
     */
    void forEachTracked(java.util.function.Consumer<? super Node> each) {
        for (Node n = firstTracked(); n != null; n = n.nextTracked) {
            each.accept(n);
        }
    }

    /** A report of what keeps this scope open: the actors and awaiting tasks that have not ended. */
    public List<String> openItems(long now) {
        List<String> items = new ArrayList<>();
        for (Node n = firstTracked(); n != null; n = n.nextTracked) {
            try {
                String d = n.describeIfOpen(now);
                if (d != null) {
                    String running = scheduler.hangs.runningNow(n);
                    items.add(running == null ? d : d + "; " + running);
                }
            } catch (Throwable t) {      // a description runs the program's toString: one failure loses one item
                items.add(n.getClass().getSimpleName() + " (its description failed: " + SafeText.of(t) + ")");
            }
        }
        return items;
    }

    /** The thread running the finish body, in words (made at the first future created in the body, then kept). */
    @Override
    public Object origin() {
        String o = origin;
        if (o == null) {
            origin = o = global ? "work outside every finish" : "thread '" + openedBy + "'";   // racy, same value
        }
        return o;
    }

    @Override
    public String describe() {
        return global ? "work outside every finish of runtime '" + scheduler.name() + "'"
                : "the body of a " + finishOpened();
    }

    /** "the finish opened by thread 'main'" (and in whose processing, if an actor's): where a failure goes. */
    public String name() {
        return global ? "the global scope of runtime '" + scheduler.name() + "'" : "the " + finishOpened();
    }

    private String finishOpened() {
        return "finish opened by thread '" + openedBy + "'" + (owner != null ? " in " + owner : "");
    }

    /** One line naming this scope: who opened it, when, and for whom. */
    public String describe(long now) {
        long ageMillis = TimeUnit.NANOSECONDS.toMillis(now - openedAtNanos);
        String who = global ? "global scope of runtime '" + scheduler.name() + "'"
                : "finish opened by thread '" + openedBy + "' " + Durations.ago(ageMillis);
        if (owner != null) {
            who += " inside " + owner;
        }
        return who;        // what is open follows, item by item (a count of the spawn tree's nodes told nobody much)
    }
}

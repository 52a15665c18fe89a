package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The root of a spawn tree: one {@code finish}.
 *
 * <h2>Overview</h2>
 * The finish body runs with this scope as its current node; everything it spawns (and everything those spawn)
 * completes into this scope through the spawn tree (see {@link Node}). The body's own end is the scope's
 * {@link #tryComplete()}; when that and all children have happened, {@link #onCompletion} marks the scope done
 * and wakes the waiting thread. Failures of any task or actor in the tree are collected here and rethrown by
 * the finish.
 *
 * <p>For the hang diagnostic the scope keeps a list of the actors started in it and the asyncAwait tasks created
 * in it ({@link #track}); a report lists those still open.
 *
 * <h2>Implementation notes</h2>
 * The tracked list is a Treiber stack linked through {@link Node#nextTracked}. It is pruned of closed entries,
 * amortised, by one pruner at a time; pushers only ever replace the head and a pruner only unlinks nodes below
 * the head it read, so the two never write the same link. Readers (reports) may see an unlinked node, which is
 * harmless. The global scope of a runtime accepts spawns from any thread and so attaches children directly.
 */
public final class Scope extends Node implements ForkJoinPool.ManagedBlocker {
    private static final VarHandle TRACKED;
    private static final VarHandle PRUNING;
    private static final VarHandle ADOPTION_RELEASED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TRACKED = l.findVarHandle(Scope.class, "tracked", Node.class);
            PRUNING = l.findVarHandle(Scope.class, "pruning", int.class);
            ADOPTION_RELEASED = l.findVarHandle(Scope.class, "adoptionReleased", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final boolean global;
    private final Object owner;
    private final String openedBy;
    private final long openedAtNanos;

    /** Set (before the waiter is unparked) when the body and every node of the tree have completed. */
    private volatile boolean done;
    private volatile Thread waiter;
    /** Deadline of the current wait, 0 for none; confined to the waiting thread. */
    private long deadline;

    private List<Throwable> failures; // guarded by this
    /** After its finish gave up waiting (a timeout): the node this scope completes into instead. */
    private volatile Node adoptedBy;   // written under this
    private volatile int adoptionReleased;

    private volatile Node tracked;
    private volatile int pruning;
    private int pushesSincePrune;     // racy on purpose: only a heuristic for when to prune
    private int liveAfterPrune;

    Scope(Scheduler scheduler, Object owner, boolean global) {
        super(null, scheduler);
        this.global = global;
        this.owner = owner;
        this.openedBy = Thread.currentThread().getName();
        this.openedAtNanos = System.nanoTime();
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
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        if (adoptedBy != null) {
            releaseAdoption();
        }
    }

    /**
     * Hands this scope's outstanding work to {@code parent} (a child slot already attached to the enclosing
     * context) when its finish stops waiting: the enclosing finish then waits for that work, and failures it
     * reports from now on go to the enclosing finish. Returns the failures collected so far.
     */
    List<Throwable> adoptInto(Node parent) {
        List<Throwable> before;
        synchronized (this) {
            adoptedBy = parent;                 // written before reading done; onCompletion does the reverse
            before = failures == null ? List.of() : List.copyOf(failures);
        }
        if (done) {
            releaseAdoption();
        }
        return before;
    }

    private void releaseAdoption() {
        if (ADOPTION_RELEASED.compareAndSet(this, 0, 1)) {
            adoptedBy.tryComplete();
        }
    }

    // ---------------------------------------------------------------- failures

    /** Records a failure of the body, a task or an actor in this scope. */
    public void addFailure(Throwable failure) {
        Node forwardTo;
        synchronized (this) {
            forwardTo = adoptedBy;
            if (forwardTo == null) {
                if (failures == null) {
                    failures = new ArrayList<>(2);
                }
                failures.add(failure);
            }
        }
        if (forwardTo != null) {
            forwardTo.scope().addFailure(failure);     // the finish that took over this scope's work
        } else if (global) {
            scheduler.reportUnscopedFailure(failure);
        }
    }

    /** The failures collected so far, oldest first. */
    public synchronized List<Throwable> failures() {
        return failures == null ? List.of() : List.copyOf(failures);
    }

    // ---------------------------------------------------------------- waiting

    /** Sets the deadline (System.nanoTime based, 0 = none) for the next {@link ForkJoinPool#managedBlock} call. */
    void deadline(long deadlineNanos) {
        this.deadline = deadlineNanos;
    }

    @Override
    public boolean isReleasable() {
        return done || (deadline != 0 && System.nanoTime() - deadline >= 0);
    }

    @Override
    public boolean block() {
        waiter = Thread.currentThread();   // publish before re-checking done: onCompletion sets done, then reads waiter
        boolean interrupted = false;
        while (!isReleasable()) {
            if (deadline == 0) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, deadline - System.nanoTime());
            }
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

    /** Adds an actor activation or an awaiting task to the list a hang report walks. */
    public void track(Node node) {
        Node h;
        do {
            h = tracked;
            node.nextTracked = h;
        } while (!TRACKED.compareAndSet(this, h, node));
        if (++pushesSincePrune > 2 * liveAfterPrune + 64) {
            prune();
        }
    }

    private void prune() {
        if (!PRUNING.compareAndSet(this, 0, 1)) {
            return;
        }
        try {
            Node prev = tracked;
            int live = 1;
            if (prev != null) {
                for (Node n = prev.nextTracked; n != null; n = n.nextTracked) {
                    if (!n.isOpen()) {
                        prev.nextTracked = n.nextTracked;
                    } else {
                        prev = n;
                        live++;
                    }
                }
            }
            liveAfterPrune = live;
            pushesSincePrune = 0;
        } finally {
            pruning = 0;
        }
    }

    /** A report of what keeps this scope open: the actors and awaiting tasks that have not ended. */
    public List<String> openItems(long now) {
        List<String> items = new ArrayList<>();
        for (Node n = tracked; n != null; n = n.nextTracked) {
            String d = n.describeIfOpen(now);
            if (d != null) {
                items.add(d);
            }
        }
        return items;
    }

    /** One line naming this scope: who opened it, when, and for whom. */
    public String describe(long now) {
        long ageMillis = TimeUnit.NANOSECONDS.toMillis(now - openedAtNanos);
        String who = global ? "global scope of runtime '" + scheduler.name() + "'"
                : "finish opened by thread '" + openedBy + "' " + Durations.ago(ageMillis);
        if (owner != null) {
            who += " inside " + owner;
        }
        // CountedCompleter counts the body's own end as one more completion: once the body has ended, the open
        // children are one more than the pending count (the global scope's body never ends).
        int open = getPendingCount() + (global ? 0 : 1);
        return who + " (" + open + " direct " + (open == 1 ? "child" : "children") + " open)";
    }

    /** Nanosecond timestamp at which this scope was opened. */
    public long openedAtNanos() {
        return openedAtNanos;
    }
}

package dev.switchboard.internal;

import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinTask;

/**
 * A node of the spawn tree: a unit of work that a {@code finish} waits for.
 *
 * <h2>Overview</h2>
 * Switchboard does not keep one counter per finish. Every task, actor activation, asyncAwait task and finish
 * scope is a {@link CountedCompleter} whose completer is the node that spawned it, so termination is counted
 * along the spawn tree: a node's pending count is the number of its live children, and a node completes into
 * its parent only when its own body has ended ({@link #tryComplete()}) and all its children have completed.
 * A {@link Scope}'s completion ends its {@code finish}; a finish opened inside another is a child of the node that
 * opened it, so the root of every tree is an outermost finish (or a runtime's global scope).
 *
 * <p>Under divide and conquer each counter sees a handful of writers. Flat fan-out (one body spawning thousands
 * of asyncs) would make the spawner's counter one contended word, so after {@value #DIRECT_CHILDREN} direct
 * children a spawner attaches further children to {@link SpawnGroup}s of {@value #GROUP_SIZE}: the owner pops
 * the youngest tasks and thieves steal the oldest, so concurrently completing children mostly decrement
 * different groups.
 *
 * <p>Because every node is a CountedCompleter below the scopes it belongs to, a worker waiting in {@code finish}
 * can use {@link #helpComplete(int)} (its own deque) and {@code quietlyJoin} (every worker's) to run exactly the
 * queued tasks that belong to that finish, those of finishes nested in it included, never an unrelated task that
 * could create a dependency the program did not have.
 *
 * <h2>Implementation notes</h2>
 * {@link #attachChild()} and {@link #sealSpawns()} are not thread-safe: they are called only by the thread that
 * currently runs this node as a spawner (a task body, a finish body, or the actor activation that holds the
 * actor's scheduling token). Scopes that accept spawns from any thread override {@link #attachChild()}.
 */
public abstract class Node extends CountedCompleter<Void> {
    /** Children attached to a spawner directly before it switches to groups. */
    static final int DIRECT_CHILDREN = 8;
    /** Children per spawn group. */
    static final int GROUP_SIZE = 32;
    /** How deep a chain of tasks, each spawned by the one before, grows before it is flattened: see attachChild. */
    static final int CHAIN_DEPTH = 64;

    /** The runtime this node executes in. */
    final Scheduler scheduler;

    // Spawn bookkeeping; only the thread running this node as a spawner touches these.
    private SpawnGroup group;
    private int direct;

    /** Link in a scope's list of tracked nodes (actors, awaiting tasks, reply holds): see {@link TrackedNodes}. */
    volatile Node nextTracked;

    /**
     * Whether this node has been handed to the pool before ({@link #poolTask}). Written and read by whoever
     * schedules the node, one thread at a time: the holder of an actor's token, or the thread that took the
     * node out of a handoff slot with an atomic swap, which orders it after the previous scheduler.
     */
    private boolean queuedBefore;

    /** Tasks between this node and the nearest finish or actor above it, at most {@link #CHAIN_DEPTH}. */
    private byte taskDepth;

    protected Node(Node completer, Scheduler scheduler) {
        super(completer);
        this.scheduler = scheduler;
        if (completer != null) {
            taskDepth = (byte) Math.min(CHAIN_DEPTH, completer.taskDepth + 1);
        }
    }

    /** Tasks between this node and the nearest finish or actor above it; for tests. */
    int taskDepth() {
        return taskDepth;
    }

    /** For a node whose spawns start chains of their own: a finish's scope, an actor's activation. */
    protected final void startsTaskChains() {
        taskDepth = 0;
    }

    /** The runtime this node executes in. */
    public final Scheduler scheduler() {
        return scheduler;
    }

    /**
     * Registers one new child of this node and returns the node the child must name as its completer.
     * Only the thread currently running this node as a spawner may call this.
     */
    public Node attachChild() {
        if (taskDepth >= CHAIN_DEPTH && getCompleter() instanceof Node parent) {
            // A task that spawns its successor, for ever: as children of each other, the newest task would keep
            // every earlier one reachable (through its completer) until the chain ends. As siblings of this node
            // they keep none. The parent cannot complete meanwhile: this node is one of its pending children.
            parent.addToPendingCount(1);
            return parent;
        }
        if (direct < DIRECT_CHILDREN) {
            direct++;
            addToPendingCount(1);
            return this;
        }
        SpawnGroup g = group;
        if (g == null || g.attached == GROUP_SIZE) {
            addToPendingCount(1);           // the new group counts as one child of this node
            SpawnGroup full = g;
            group = g = new SpawnGroup(this);
            if (full != null) {
                full.tryComplete();         // seal the full group: it completes once its children have
            }
        }
        g.attached++;
        g.addToPendingCount(1);
        return g;
    }

    /** Seals the open spawn group, if any; called once, when this node stops spawning. */
    public final void sealSpawns() {
        SpawnGroup g = group;
        if (g != null) {
            group = null;
            g.tryComplete();
        }
    }

    /** The finish scope this node counts toward: the nearest enclosing one. */
    public Scope scope() {
        Node n = this;
        while (!(n instanceof Scope s)) {
            n = (Node) n.getCompleter();
        }
        return s;
    }

    /**
     * The actor whose processing context this node belongs to, or {@code null}: tasks spawned while an actor
     * processes a message (and their descendants) belong to that actor.
     */
    public Object owner() {
        Node n = this;
        for (;;) {
            Node c = (Node) n.getCompleter();
            if (c == null) {
                return null;
            }
            if (c instanceof Scope || c.ownsContext()) {
                return c.owner();
            }
            n = c;
        }
    }

    /** Whether this node answers {@link #owner()} itself (an actor's activation, a scope) instead of asking up. */
    protected boolean ownsContext() {
        return false;
    }

    /** For tracked nodes (actors, awaiting tasks): whether this node still keeps its finish open. */
    public boolean isOpen() {
        return false;
    }

    /**
     * For diagnostics: what this node is, in a few words a user recognises ("task running Main (lambda)",
     * "actor Parser@3", "the body of a finish opened by thread 'main'").
     */
    public String describe() {
        Object o = owner();
        return getClass().getSimpleName() + (o != null ? " of " + o : "");
    }

    /**
     * For a stall report ({@link HangReports#lookForStalls}): a count that moves while this node makes progress
     * within one run (an actor's activation: the messages it has processed), or 0 for a node whose run is one piece
     * of work (a task's body). Read by the watchdog without synchronization.
     */
    public long turnProgress() {
        return 0;
    }

    /**
     * For diagnostics of things this node creates (a future): what this node is, without keeping it or its spawn
     * tree alive, and without allocating: a task's body class, an actor, or a description; see
     * {@link #describeOrigin}.
     */
    public Object origin() {
        return describe();
    }

    /** Words for what {@link #origin()} returned: "task running Main (lambda)", "actor Parser@3", ... */
    public static String describeOrigin(Object origin) {
        if (origin instanceof Class<?> body) {
            return "task running " + AsyncTask.nameOf(body);
        }
        if (origin instanceof String words) {
            return words;
        }
        return "actor " + origin;
    }

    /**
     * For tracked nodes: the runtime has been closed; end what this node keeps alive (an actor terminates). Called
     * by the closing thread, possibly again after the pool has ended; never throws.
     */
    protected void runtimeClosed() {
    }

    /**
     * For diagnostics: a one-line description of why this tracked node still keeps its finish open, or
     * {@code null} when it no longer does.
     */
    public String describeIfOpen(long nowNanos) {
        return null;
    }

    /**
     * Called when this node and everything below it have ended: tells the parent (skipping a spawn group), so an
     * actor can know when the last task it spawned is gone ({@link #childEnded()}).
     */
    @Override
    public void onCompletion(CountedCompleter<?> caller) {
        Node parent = (Node) getCompleter();
        if (parent instanceof SpawnGroup g) {
            parent = (Node) g.getCompleter();
        }
        if (parent != null) {
            try {
                parent.childEnded();
            } catch (Throwable t) {   // completion runs inside tryComplete's propagation: it must not be cut short
                Failures.lastResort(parent.scope(), t);
            }
        }
    }

    /** Called once for each child attached to this node when that child's subtree has ended. */
    protected void childEnded() {
    }

    /**
     * The task to hand to the pool ({@code fork}, {@code execute}) to run this node once: the node itself the
     * first time, a new {@link Rerun} every later time.
     *
     * <p>Why: {@link ForkJoinTask#fork()} says it is "a usage error to fork a task more than once unless it has
     * completed and been reinitialized", and an actor's activation is scheduled again and again without
     * completing. A node is therefore pushed as itself only once; every later push is a new one-shot task whose
     * completer is the node. (Breaking the rule hung a finish: docs/decisions/008-one-push-per-task-object.md.)
     */
    public final ForkJoinTask<?> poolTask() {
        if (!queuedBefore) {
            queuedBefore = true;
            return this;
        }
        return new Rerun(this);
    }

    /**
     * Forks this node into the current worker's deque; when {@code spreader} is not null, as a {@link Spread} that
     * reports to {@link Spreading#spreadChainEnded} how far the chain it starts on another worker gets. A refusal
     * (out of memory) is this node's failure ({@link #refused}).
     */
    final void forkToDeque(Worker spreader) {
        ForkJoinTask<?> pushed = spreader == null ? poolTask() : new Spread(this, spreader);
        try {
            pushed.fork();
        } catch (Throwable t) {
            // The pool throws either before storing the task (a full deque it could not grow) or after (it failed
            // to start a worker it then wanted): only a task it does not hold is refused; one it holds will run.
            if (t instanceof java.util.concurrent.RejectedExecutionException || pushed.tryUnfork()) {
                refused(t);
            } else {
                Failures.lastResort(scope(), t);
            }
        }
    }

    /**
     * Moves every task still queued in the current worker's deque to the shared queue: called by a worker about to
     * block or to die. A blocked worker's deque is served only by thieves, and a busy worker (one running endless
     * chains, say) never steals, while every busy worker takes from the shared queue; a dying worker's deque is
     * cancelled by the pool. The shared queue's pending pump, if taken out, is replaced by a fresh one submitted
     * from outside the deque (a task object must not be pushed twice, see {@link #poolTask()}).
     */
    static void moveLocalTasksToSharedQueue(Scheduler scheduler) {
        ForkJoinTask<?> t;
        while ((t = pollNextLocalTask()) != null) {
            if (t instanceof Rerun || t instanceof Spread) {
                scheduler.share((Node) ((CountedCompleter<?>) t).getCompleter(), false);
            } else if (t instanceof Node n) {
                scheduler.share(n, false);
            } else {
                try {
                    scheduler.runQueue.replacePump();   // t was the pending pump of the shared queue
                } catch (Throwable notSubmitted) {
                    // refused (closed, or no memory): the watchdog signals again while entries wait
                }
            }
        }
    }

    /**
     * A one-shot task that runs a node the pool has seen before. Its completer is the node, so a worker helping
     * its finish ({@link #helpComplete(int)}) still recognises it as part of that finish; it never completes
     * itself, so it never touches the node's pending count.
     */
    static final class Rerun extends CountedCompleter<Void> {
        Rerun(Node node) {
            super(node);
        }

        @Override
        public void compute() {
            ((Node) getCompleter()).compute();   // never throws
        }
    }

    /**
     * A one-shot task that runs a node a worker spread from its handoff buffer to an idle worker (like
     * {@link Rerun}, it never completes itself): the worker that runs it tells the scheduler how long a chain
     * the node started there ({@link Spreading#spreadChainEnded}), which decides whether spreading short turns
     * pays ({@link SpreadRule}).
     */
    static final class Spread extends CountedCompleter<Void> {
        private final Worker spreader;

        Spread(Node node, Worker spreader) {
            super(node);
            this.spreader = spreader;
        }

        @Override
        public void compute() {
            Node node = (Node) getCompleter();
            try {
                if (Thread.currentThread() instanceof Worker w && w.scheduler == node.scheduler) {
                    int turns = w.runChain(node);
                    if (w != spreader) {
                        node.scheduler.spreading.spreadChainEnded(turns);
                    }
                    w.spinForWork();
                } else {
                    node.compute();
                }
            } catch (Throwable t) {
                Failures.lastResort(node.scope(), t);
            }
        }
    }

    /** {@link ForkJoinTask#pollTask} for a worker: its own next task, or one stolen from another worker. */
    static ForkJoinTask<?> pollAnyTask() {
        return pollTask();
    }

    /** Whether this node is an actor's activation, which runs on one worker while short turns are held. */
    protected boolean concentrates() {
        return false;
    }

    /** Runs this node's work. Implementations catch everything: a node never completes abnormally. */
    protected abstract void run();

    /**
     * Runs this node's work as a worker's turn and returns how much work the turn did, in the unit
     * {@link SpreadingTrials} compares: one for a task, the messages processed for an actor's activation (at
     * least one).
     */
    protected int runTurn() {
        run();
        return 1;
    }

    /**
     * Called when something escaped {@link #run()} after all (an error inside the runtime's own code: an
     * OutOfMemoryError while recording a failure, say). Reports it to this node's finish; a node that must also
     * put its own bookkeeping right (an actor's activation) overrides this. Never throws.
     */
    protected void escaped(Throwable failure) {
        scope().addFailure(Failures.internal(failure, this));
    }

    /**
     * Called instead of running this node when the pool refused to queue it: the runtime is closed, or there was
     * no memory to queue it (the pool turns an OutOfMemoryError while growing a deque into a
     * {@code RejectedExecutionException}). Completes the node, so its finish does not wait for work that will
     * never run, and, unless the finish's runtime was closed (its finishes are told once, by {@code close()}),
     * stops that finish with the cause: work it was waiting for is lost, so it must not report success. A task of
     * this runtime in a finish of another (an {@code async} of runtime B in runtime A's finish) tells that finish
     * here, since B's close does not. Kinds with more to put right override this. Never throws.
     */
    protected void refused(Throwable cause) {
        try {
            Scope scope = scope();
            if (!scope.scheduler.isClosed()) {
                scope.addFailure(cause);            // every refused task is a failure of its own
                scope.stopWaiting(cause);
            }
            sealSpawns();
            tryComplete();
        } catch (Throwable t) {
            Failures.lastResort(scope(), t);
        }
    }

    /**
     * The pool's entry point. Never lets anything escape: a task that completes abnormally would propagate its
     * exception up the spawn tree instead of completing it, and the finish would wait forever.
     */
    @Override
    public final void compute() {
        try {
            if (Thread.currentThread() instanceof Worker w) {
                w.runChain(this);
                w.spinForWork();
            } else {
                Context.runOnForeignThread(this);
            }
        } catch (Throwable t) {
            Failures.lastResort(scope(), t);
        }
    }
}

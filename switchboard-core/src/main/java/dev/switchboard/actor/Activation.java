package dev.switchboard.actor;

import dev.switchboard.internal.Node;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Scope;
import dev.switchboard.internal.Threads;

/**
 * An actor's presence in the spawn tree, created by {@code start()}: the lingering task of [Unified] §6.1 and,
 * at the same time, the actor's schedulable task.
 *
 * <p>It counts as one child of the node that started the actor, so the enclosing finish waits for it; it
 * completes (releasing the finish) only when the actor has terminated and every task the actor spawned has
 * ended. Each time the actor has messages to process, this same object is scheduled again (a
 * {@code CountedCompleter} that does not complete when it runs can run any number of times), so the hot path
 * allocates nothing: through a worker's handoff buffer it goes as itself; into the pool's queues, after its
 * first time, as a fresh one-shot wrapper ({@link Node#poolTask}).
 */
final class Activation extends Node {
    private static final VarHandle SPAWNED;
    private static final VarHandle ENDED;
    private static final VarHandle PROCESSED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SPAWNED = l.findVarHandle(Activation.class, "spawned", int.class);
            ENDED = l.findVarHandle(Activation.class, "ended", int.class);
            PROCESSED = l.findVarHandle(Activation.class, "processed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ActorCore<?> actor;
    private final boolean countChildren;
    /** Whether the actor's class overrides {@code onExit()} (looked up once, by start()). */
    final boolean exitHook;
    /** True while the actor's {@code onExit()} runs; confined to the thread that runs it (the token's holder). */
    boolean inExitHook;
    /*
     * Tasks and actors attached to this activation, and how many of their subtrees have ended (counted for
     * selectors only, whose stall check asks whether one is still alive: spawned != ended). Two counters, not
     * one live count, so that a spawn is a plain store: only the holder of the actor's token attaches children,
     * and only the ends race with each other. Both wrap around; only their difference matters.
     */
    private int spawned;
    private volatile int ended;
    /**
     * Messages the actor has processed. Kept here rather than in the actor: senders read the actor's status on
     * every send, and a write per message next to it would move that cache line back and forth.
     */
    private long processed;
    /**
     * Whether GONE went out with RELEASED ({@link #goneWithRelease}): written and then read by the releasing
     * thread, whose completion of this activation runs onCompletion; read by a metrics snapshot
     * ({@link #endCounted}).
     */
    private boolean goneAtRelease;
    private final Scope scope;
    private final String startedBy;
    private final long startedAtNanos;

    Activation(Node completer, Scheduler scheduler, ActorCore<?> actor, boolean exitHook) {
        super(completer, scheduler);
        startsTaskChains();
        this.actor = actor;
        this.exitHook = exitHook;
        this.countChildren = actor.tracksSpawnedTasks();
        this.scope = completer.scope();
        this.startedBy = Threads.name(Thread.currentThread());
        this.startedAtNanos = scheduler.roughNanoTime();
    }

    @Override
    protected void run() {
        actor.runActivation();
    }

    /**
     * The actor and every task it spawned have ended: the messages it processed join its runtime's count of ended
     * actors' messages (before its watchers hear of the end, so that a watcher's snapshot includes them), and its
     * watchers are told ({@link ActorWatch#ended}).
     */
    @Override
    public void onCompletion(java.util.concurrent.CountedCompleter<?> caller) {
        if (actor.activation() == this) {  // not the activation of a start() that lost a race: that actor lives on
            if (!goneAtRelease) {
                countEnded();
            }
            ActorWatch.ended(actor, goneAtRelease);  // never throws
        }
        super.onCompletion(caller);
    }

    /**
     * Called by the holder of the terminated actor's token, on the actor's own activation, just before it
     * publishes RELEASED and completes it. If no child is alive (none can attach any more, and one that has ended
     * stays ended), that completion runs {@link #onCompletion} in this thread now: the ended messages are counted
     * here (before GONE, which a watcher that registers late reads before it is told) and GONE is returned, to be
     * published with RELEASED in one atomic. Otherwise 0: the last child's end marks GONE.
     */
    int goneWithRelease() {
        if (getPendingCount() != 0) {
            return 0;
        }
        goneAtRelease = true;      // before the count: a snapshot that sees the count sees this (endCounted)
        countEnded();
        return ActorCell.GONE;
    }

    /**
     * Whether the actor's messages were added to its runtime's count of ended actors' messages while it was still
     * open (by {@link #goneWithRelease}, just before its release). A metrics snapshot reads the ended count first,
     * with acquire, and then the open actors: one whose count that read saw is seen here as counted (the flag is
     * written before the count's release store), and is not counted again.
     */
    boolean endCounted() {
        return goneAtRelease;
    }

    /** The messages the actor processed join its runtime's count of ended actors' messages. Never throws. */
    private void countEnded() {
        try {
            scheduler().counters().actorEnded(processed());  // final now: every processing has ended
        } catch (Throwable noMemory) {
            // the metrics miss this actor's messages; its end goes on
        }
    }

    /** The messages this turn processed (at least one): read plainly, as the holder of the actor's token. */
    @Override
    protected int runTurn() {
        long before = processed;
        actor.runActivation();
        return (int) Math.max(1, Math.min(processed - before, Integer.MAX_VALUE));
    }

    /** The activation loop let something escape, with the actor's token held: the actor fails with it. */
    @Override
    protected void escaped(Throwable failure) {
        ActorFailures.crashed(actor, failure);
    }

    /** The pool would not queue this activation, whose actor holds its token: the actor is terminated. */
    @Override
    protected void refused(Throwable cause) {
        ActorFailures.schedulingRefused(actor, cause);
    }

    @Override
    protected void runtimeClosed() {
        ActorTermination.terminateByClose(actor);
    }

    /** An actor's turns run on one worker while the runtime holds short turns (see the scheduler's notes). */
    @Override
    protected boolean concentrates() {
        return true;
    }

    @Override
    public Object owner() {
        return actor;
    }

    @Override
    public String describe() {
        return "actor " + actor;
    }

    /** The messages processed so far: a stall report's sign that a long activation still moves. */
    @Override
    public long turnProgress() {
        return (long) PROCESSED.getOpaque(this);
    }

    /** Futures created by the actor name it (the actor, which its senders keep alive anyway). */
    @Override
    public Object origin() {
        return actor;
    }

    @Override
    protected boolean ownsContext() {
        return true;
    }

    @Override
    public Node attachChild() {
        if (countChildren) {
            SPAWNED.setOpaque(this, spawned + 1);      // single writer; opaque for the racy reads in childEnded
        }
        return super.attachChild();
    }

    @Override
    protected void childEnded() {
        // When the last child ends, every spawn happened before some end, and every end before this one (the
        // ends are one chain of read-modify-writes), so this read of `spawned` sees them all and the stall
        // check runs. A stale read otherwise only runs the check when it is not needed.
        if (countChildren && (int) ENDED.getAndAdd(this, 1) + 1 == (int) SPAWNED.getOpaque(this)) {
            actor.onQuiet();
        }
    }

    /** Counts one processed message: by the token holder ({@code serial}), or by a task processing in parallel. */
    void countProcessed(boolean serial) {
        if (serial) {
            PROCESSED.setOpaque(this, processed + 1);      // single writer: the holder of the actor's token
        } else {
            PROCESSED.getAndAdd(this, 1L);
        }
    }

    long processed() {
        return (long) PROCESSED.getOpaque(this);
    }

    /**
     * Whether a task the actor spawned has not ended (only counted when the actor kind asks for it). Exact for
     * the holder of the actor's token, the only thread that spawns; a hint for any other.
     */
    boolean hasLiveChildren() {
        return (int) SPAWNED.getOpaque(this) != ended;
    }

    @Override
    public Scope scope() {
        return scope;
    }

    @Override
    public boolean isOpen() {
        return actor.isOpen();
    }

    @Override
    public String describeIfOpen(long nowNanos) {
        return ActorDiagnostics.describeIfOpen(actor, actor.status(), nowNanos, startedAtNanos, startedBy);
    }
}

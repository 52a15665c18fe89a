package dev.switchboard.actor;

import dev.switchboard.internal.Node;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Scope;

/**
 * An actor's presence in the spawn tree, created by {@code start()}: the lingering task of paper 002 §6.1 and,
 * at the same time, the actor's schedulable task.
 *
 * <p>It counts as one child of the node that started the actor, so the enclosing finish waits for it; it
 * completes (releasing the finish) only when the actor has terminated and every task the actor spawned has
 * ended. Each time the actor has messages to process, this same object is scheduled again (a
 * {@code CountedCompleter} that does not complete when it runs can be forked any number of times), so the hot
 * path allocates nothing.
 */
final class Activation extends Node {
    private static final VarHandle LIVE_CHILDREN;

    static {
        try {
            LIVE_CHILDREN = MethodHandles.lookup().findVarHandle(Activation.class, "liveChildren", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ActorCore<?> actor;
    private final boolean countChildren;
    /** Tasks and actors attached to this activation whose subtrees have not ended (counted for selectors only). */
    private volatile int liveChildren;
    private final Scope scope;
    private final String startedBy;
    private final long startedAtNanos;

    Activation(Node completer, Scheduler scheduler, ActorCore<?> actor) {
        super(completer, scheduler);
        this.actor = actor;
        this.countChildren = actor.tracksSpawnedTasks();
        this.scope = completer.scope();
        this.startedBy = Thread.currentThread().getName();
        this.startedAtNanos = System.nanoTime();
    }

    @Override
    protected void run() {
        actor.runActivation();
    }

    @Override
    public Object owner() {
        return actor;
    }

    @Override
    public Node attachChild() {
        if (countChildren) {
            LIVE_CHILDREN.getAndAdd(this, 1);
        }
        return super.attachChild();
    }

    @Override
    protected void childEnded() {
        if (countChildren && (int) LIVE_CHILDREN.getAndAdd(this, -1) == 1) {
            actor.onQuiet();                 // the last task the actor spawned has ended
        }
    }

    /** Tasks the actor spawned that have not ended (only counted when the actor kind asks for it). */
    int liveChildren() {
        return liveChildren;
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
        return actor.describeIfOpen(nowNanos - startedAtNanos, startedBy);
    }
}

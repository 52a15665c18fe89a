package dev.switchboard.actor;

import dev.switchboard.internal.Node;
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
    final ActorCore<?> actor;
    private final Scope scope;
    private final String startedBy;
    private final long startedAtNanos;

    Activation(Node completer, Scheduler scheduler, ActorCore<?> actor) {
        super(completer, scheduler);
        this.actor = actor;
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

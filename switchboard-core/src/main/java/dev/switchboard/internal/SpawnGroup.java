package dev.switchboard.internal;

/**
 * An intermediate counting node that spreads the completions of a wide fan-out over several words
 * (see {@link Node}). It is never executed: it completes when it has been sealed and its children have completed.
 */
final class SpawnGroup extends Node {
    /** Children attached so far; written only by the spawner thread. */
    int attached;

    SpawnGroup(Node spawner) {
        super(spawner, spawner.scheduler);
    }

    /** A group is bookkeeping, not a child of its own: its children tell the spawner when they end. */
    @Override
    public void onCompletion(java.util.concurrent.CountedCompleter<?> caller) {
    }

    @Override
    protected void run() {
        throw new AssertionError("a spawn group is never scheduled");
    }
}

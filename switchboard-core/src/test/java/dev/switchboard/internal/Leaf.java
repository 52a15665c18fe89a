package dev.switchboard.internal;

/** A spawn-tree node that does nothing when run: stands for a task in the finish-counter tests. */
final class Leaf extends Node {
    static final Scheduler SCHEDULER = new Scheduler("stress-tree", 1, 64, 64, 0);

    Leaf(Node completer) {
        super(completer, SCHEDULER);
    }

    @Override
    protected void run() {
    }
}

package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The nodes a finish keeps track of for its hang report and its runtime's close: the activations of the actors
 * started in it, the tasks awaiting a future, the holds of replies awaited. Made by a scope at its first such node
 * ({@link Scope#track}); a finish that starts no actor and awaits nothing has none.
 *
 * <h2>Implementation notes</h2>
 * A Treiber stack linked through {@link Node#nextTracked}: a push links its node to the head it read and swings the
 * head with a CAS. Nodes that have closed ({@link Node#isOpen} false) are unlinked by {@link #prune}, amortised
 * (after more pushes than twice the nodes alive at the last pruning, plus 64), by one pruner at a time. A pusher
 * writes only the link of its own node, which no one else can reach before its CAS, and the head; a pruner writes
 * only the links of nodes at or below the head it read, never the head. So the two never write the same field, and
 * a node pushed during a pruning stays above it. A reader walks from the head without locking; it may see a node a
 * pruning is unlinking (harmless: a closed node describes nothing) and may miss one pushed after its read of the
 * head.
 */
final class TrackedNodes {
    private static final VarHandle HEAD;
    private static final VarHandle PRUNING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(TrackedNodes.class, "head", Node.class);
            PRUNING = l.findVarHandle(TrackedNodes.class, "pruning", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Node head;
    /** 1 while a pruning runs: one pruner at a time. */
    private volatile int pruning;
    private int pushesSincePrune;     // racy on purpose: only a heuristic for when to prune
    private int liveAfterPrune;

    /** Adds {@code node}, which is in no list: any thread. */
    void push(Node node) {
        Node h;
        do {
            h = head;
            node.nextTracked = h;         // a plain link would do before the CAS publishes it; the field is volatile
        } while (!HEAD.compareAndSet(this, h, node));
        if (++pushesSincePrune > 2 * liveAfterPrune + 64) {
            prune();
        }
    }

    /** Unlinks the closed nodes below the head, unless another thread is pruning. */
    void prune() {
        if (!PRUNING.compareAndSet(this, 0, 1)) {
            return;
        }
        try {
            Node prev = head;
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

    /** The node pushed last; walk on through {@link Node#nextTracked}. */
    Node first() {
        return head;
    }
}

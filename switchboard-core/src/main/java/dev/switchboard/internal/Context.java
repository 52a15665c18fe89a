package dev.switchboard.internal;

/**
 * The execution context of the current thread: the spawn-tree node that new tasks, actors and finish scopes
 * attach to. On a worker it is a field of the {@link Worker}; on any other thread (the thread that calls
 * {@code finish} from {@code main}, say) it is a thread local that is set only while a finish body runs there.
 */
public final class Context {
    private static final ThreadLocal<Node> FOREIGN = new ThreadLocal<>();

    private Context() {
    }

    /** The current node of this thread, or {@code null} outside every finish. */
    public static Node current() {
        return Thread.currentThread() instanceof Worker w ? w.current : FOREIGN.get();
    }

    /** Installs {@code node} as the current node and returns the previous one (for {@link #restore}). */
    public static Node enter(Thread thread, Node node) {
        if (thread instanceof Worker w) {
            Node previous = w.current;
            w.current = node;
            return previous;
        }
        Node previous = FOREIGN.get();
        FOREIGN.set(node);
        return previous;
    }

    public static void restore(Thread thread, Node previous) {
        if (thread instanceof Worker w) {
            w.current = previous;
        } else if (previous == null) {
            FOREIGN.remove();
        } else {
            FOREIGN.set(previous);
        }
    }

    /** Runs a node on a thread that is not a Switchboard worker (only reachable through foreign helping). */
    static void runOnForeignThread(Node node) {
        Thread t = Thread.currentThread();
        Node previous = enter(t, node);
        try {
            node.run();
        } finally {
            restore(t, previous);
        }
    }
}

package dev.switchboard.internal;

/**
 * The execution context of the current thread: the spawn-tree node that new tasks, actors and finish scopes
 * attach to. On a worker it is a field of the {@link Worker}; on any other thread (the thread that calls
 * {@code finish} from {@code main}, say) it is a thread local that is set only while a finish body runs there.
 *
 * <h2>Implementation notes</h2>
 * A finish body on {@code main} that spawns in a loop asks for its context several times per spawn (the runtime,
 * the spawn's parent, a new future's creator), and a thread-local lookup is most of what such a spawn costs. So
 * the last thread that is not a worker to enter a context leaves a {@link Recent} record of it: a lookup by that
 * thread that finds its own record is answered from it. Only a thread writes records naming itself, each one
 * when its context changes, and a volatile read returns the latest write or a later one by another thread, whose
 * record names that other thread: so a thread that finds its own record finds its current context. A record is
 * cleared when its thread leaves every finish, so it never keeps a thread that left, or the node it was in.
 */
public final class Context {
    private static final ThreadLocal<Node> FOREIGN = new ThreadLocal<>();

    /** A thread that is not a worker and the context it entered last. */
    private record Recent(Thread thread, Node node) {
    }

    /** The context the last foreign thread to enter one entered, or null; see the implementation notes. */
    private static volatile Recent recent;

    private Context() {
    }

    /** The current node of this thread, or {@code null} outside every finish. */
    public static Node current() {
        Thread t = Thread.currentThread();
        if (t instanceof Worker w) {
            return w.current();
        }
        Recent r = recent;
        return r != null && r.thread == t ? r.node : FOREIGN.get();
    }

    /** Installs {@code node} as the current node and returns the previous one (for {@link #restore}). */
    public static Node enter(Thread thread, Node node) {
        if (thread instanceof Worker w) {
            Node previous = w.current();
            w.setCurrent(node);
            return previous;
        }
        Node previous = FOREIGN.get();
        FOREIGN.set(node);
        recent = new Recent(thread, node);
        return previous;
    }

    public static void restore(Thread thread, Node previous) {
        if (thread instanceof Worker w) {
            w.setCurrent(previous);
        } else if (previous == null) {
            FOREIGN.remove();
            Recent r = recent;
            if (r != null && r.thread == thread) {
                recent = null;      // racing with another thread's enter only costs that thread a lookup
            }
        } else {
            FOREIGN.set(previous);
            recent = new Recent(thread, previous);
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

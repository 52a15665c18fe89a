package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Which runtime work started outside every task and finish belongs to: the default runtime, and the runtimes each
 * thread created and has not closed (work started there by mistake is refused, saying so). Owns the default
 * scheduler and the per-thread lists. May touch nothing else.
 */
final class RuntimesOfThreads {
    private RuntimesOfThreads() {
    }

    private static volatile Scheduler defaultScheduler;

    /** The default runtime's scheduler, or null until {@code TaskRuntime.defaultRuntime()} first ran. */
    static Scheduler defaultScheduler() {
        return defaultScheduler;
    }

    /** Set once, by {@code TaskRuntime.defaultRuntime()}. */
    static void defaultScheduler(Scheduler s) {
        defaultScheduler = s;
        List<Scheduler> here = CREATED_HERE.get();
        if (here != null) {
            here.remove(s);                // the default runtime is never the surprise
        }
    }

    /** The runtimes each thread created, while they may be open (pruned of closed ones as they are looked at). */
    private static final ThreadLocal<List<Scheduler>> CREATED_HERE = new ThreadLocal<>();

    static void createdOnThisThread(Scheduler s) {
        List<Scheduler> here = CREATED_HERE.get();
        if (here == null) {
            CREATED_HERE.set(here = new ArrayList<>(2));
        }
        here.removeIf(Scheduler::isClosed);
        here.add(s);
    }

    /**
     * Work started outside every task and finish ({@code what}: "start Foo@3", say) goes to the default runtime;
     * but if this thread created a runtime that is still open, it almost certainly meant that one (it is inside
     * {@code try (var rt = ...)}, outside rt's finishes), so this throws, saying how to do it.
     *
     * @throws IllegalStateException if this thread created a runtime that is not closed
     */
    static void requireNoRuntimeOpenedHere(String what) {
        List<Scheduler> here = CREATED_HERE.get();
        if (here == null) {
            return;
        }
        here.removeIf(Scheduler::isClosed);
        if (here.isEmpty()) {
            CREATED_HERE.remove();         // nothing kept for a thread whose runtimes are all closed
        } else {
            Scheduler open = here.get(here.size() - 1);
            throw new IllegalStateException(what + " was called outside every finish, on thread '"
                    + Threads.name(Thread.currentThread()) + "', which created runtime '" + open.name()
                    + "' and has not closed it: it would run on the default runtime, not on '" + open.name()
                    + "'. Call it inside that runtime's finish (rt.finish(() -> ...)), or, in a test with the test"
                    + " kit, start actors with kit.spawn(actor); to use the default runtime on purpose, call it inside"
                    + " TaskRuntime.defaultRuntime().finish(() -> ...)");
        }
    }
}

package dev.switchboard.stm;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.spi.Seam;

/**
 * The read-only message a thread is processing, if any, so that a write to a {@link TRef} from one fails naming
 * it. A write reads one static flag, set by the first read-only message ever processed, before it looks.
 */
final class ReadOnlyScope {
    /*
     * Implementation notes: `used` is written once (false to true) by the processing thread of the first read-only
     * message; only that thread's own writes are checked against its own scope, which it sees in program order,
     * and a thread that reads a stale false has no scope to find. The same argument as the core's send
     * interception.
     */
    private static final ThreadLocal<Object> CURRENT = new ThreadLocal<>();
    private static boolean used;

    private ReadOnlyScope() {
    }

    /** Enters the processing of read-only message {@code message} of {@code actor}; returns what to restore. */
    static Object enter(Object actor, Object message) {
        if (!used) {
            used = true;
        }
        Object previous = CURRENT.get();
        CURRENT.set(new Object[] {actor, message});
        return previous;
    }

    static void exit(Object previous) {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /**
     * Fails a write to a TRef ({@code op}) made by the processing of a read-only message on this thread (or a task
     * of its actor that this thread runs inside it); another actor's work that a waiting thread helps with there
     * writes as anywhere.
     */
    static void requireWritable(String op) {
        if (used && CURRENT.get() instanceof Object[] scope && Seam.runsFor((ActorCore<?>) scope[0])) {
            throw new IllegalStateException("TRef." + op + "() in the read-only message " + brief(scope[1]) + " of "
                    + scope[0] + ": read-only messages may not write (send it as a transactional message, or do not"
                    + " mark its type ReadOnly)");
        }
    }

    private static String brief(Object message) {
        String s;
        try {
            s = String.valueOf(message);
        } catch (RuntimeException | StackOverflowError e) {       // a cyclic toString
            s = null;
        }
        if (s == null) {                                       // it threw, or returned null
            s = message.getClass().getName();
        }
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }
}

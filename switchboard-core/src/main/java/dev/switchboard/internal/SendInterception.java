package dev.switchboard.internal;

/**
 * The send interceptors installed per thread ({@code Seam.interceptSends}, which wraps the user's
 * {@code SendInterceptor} in an {@link Interceptor}), and the flag that lets a send skip the lookup while none was
 * ever installed.
 */
public final class SendInterception {
    /*
     * Implementation notes. `used` is a plain static field, set by the first install and never cleared. A send
     * reads it before looking at the thread-local: only the installing thread's own sends are intercepted, and
     * that thread sees its own write in program order; another thread that reads a stale false has no interceptor
     * to find anyway. So plain actors, in a program that never installs one, pay one load of a field that stays
     * in cache for each send.
     */
    private static final ThreadLocal<Interceptor> CURRENT = new ThreadLocal<>();
    private static boolean used;

    private SendInterception() {
    }

    /** Whether a send must ask {@link #current()} (false while no interceptor was ever installed). */
    public static boolean used() {
        return used;
    }

    /** The interceptor of this thread, or null. */
    public static Interceptor current() {
        return CURRENT.get();
    }

    /** Whether an interceptor on this thread holds the {@code exit()} of {@code actor} (its ActorRef). */
    public static boolean interceptExit(Object actor) {
        if (!used) {
            return false;
        }
        Interceptor i = CURRENT.get();
        return i != null && i.interceptExit(actor);
    }

    /** Whether an interceptor on this thread holds an answer to {@code replyTo} (a ReplyTo). */
    public static boolean interceptReply(Object replyTo, Object reply, Throwable failure) {
        if (!used) {
            return false;
        }
        Interceptor i = CURRENT.get();
        return i != null && i.interceptReply(replyTo, reply, failure);
    }

    /**
     * The interceptor of this thread, or null; reads the thread-local only once one was ever installed. A spawn
     * asks this before it makes the action to hand over ({@code interceptSpawn}), so a spawn on a thread without
     * an interceptor allocates nothing for it.
     */
    public static Interceptor interceptor() {
        return used ? CURRENT.get() : null;
    }

    /**
     * Fails {@code op} (a finish, a blocking get, a future) if an interceptor on this thread forbids waiting.
     *
     * @throws IllegalStateException with the interceptor's reason
     */
    public static void requireMayBlock(String op) {
        requireMayBlock(op, null);
    }

    /**
     * Fails {@code op} on {@code subject} (a blocking get on a future) if an interceptor on this thread forbids
     * waiting; the subject is described only then, since describing it costs more than the wait it precedes.
     *
     * @throws IllegalStateException with the interceptor's reason
     */
    public static void requireMayBlock(String op, Object subject) {
        if (!used) {
            return;
        }
        Interceptor i = CURRENT.get();
        String reason = i == null ? null : i.blockingForbidden();
        if (reason != null) {
            throw new IllegalStateException(op + (subject != null ? " on " + subject : "") + " was called " + reason);
        }
    }

    /** Installs {@code interceptor} on this thread; returns the one it replaces (null if none). */
    public static Interceptor install(Interceptor interceptor) {
        if (!used) {
            used = true;                  // written once: the line every send reads stays shared
        }
        Interceptor previous = CURRENT.get();
        CURRENT.set(interceptor);
        return previous;
    }

    /**
     * Puts back {@code previous} (null: none). A null is set, not removed: the thread's entry stays for the next
     * install (a transactional actor installs one per attempt), instead of being made again each time.
     */
    public static void restore(Interceptor previous) {
        CURRENT.set(previous);
    }
}

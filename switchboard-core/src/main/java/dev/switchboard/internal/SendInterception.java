package dev.switchboard.internal;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.spi.SendInterceptor;

/**
 * The send interceptors installed per thread ({@code Seam.interceptSends}), and the flag that lets a send skip
 * the lookup while none was ever installed.
 */
public final class SendInterception {
    /*
     * Implementation notes. `used` is a plain static field, set by the first install and never cleared. A send
     * reads it before looking at the thread-local: only the installing thread's own sends are intercepted, and
     * that thread sees its own write in program order; another thread that reads a stale false has no interceptor
     * to find anyway. So plain actors, in a program that never installs one, pay one load of a field that stays
     * in cache for each send.
     */
    private static final ThreadLocal<SendInterceptor> CURRENT = new ThreadLocal<>();
    private static boolean used;

    private SendInterception() {
    }

    /** Whether a send must ask {@link #current()} (false while no interceptor was ever installed). */
    public static boolean used() {
        return used;
    }

    /** The interceptor of this thread, or null. */
    public static SendInterceptor current() {
        return CURRENT.get();
    }

    /** Whether an interceptor on this thread holds {@code actor}'s {@code exit()}. */
    public static boolean interceptExit(ActorRef<?> actor) {
        if (!used) {
            return false;
        }
        SendInterceptor i = CURRENT.get();
        return i != null && i.interceptExit(actor);
    }

    /** Whether an interceptor on this thread holds an answer to {@code replyTo}. */
    public static boolean interceptReply(ReplyTo<?> replyTo, Object reply, Throwable failure) {
        if (!used) {
            return false;
        }
        SendInterceptor i = CURRENT.get();
        return i != null && i.interceptReply(replyTo, reply, failure);
    }

    /**
     * The interceptor of this thread, or null; reads the thread-local only once one was ever installed. A spawn
     * asks this before it makes the action to hand over ({@code interceptSpawn}), so a spawn on a thread without
     * an interceptor allocates nothing for it.
     */
    public static SendInterceptor interceptor() {
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
        SendInterceptor i = CURRENT.get();
        String reason = i == null ? null : i.blockingForbidden();
        if (reason != null) {
            throw new IllegalStateException(op + (subject != null ? " on " + subject : "") + " was called " + reason);
        }
    }

    /** Installs {@code interceptor} on this thread; returns the one it replaces (null if none). */
    public static SendInterceptor install(SendInterceptor interceptor) {
        if (!used) {
            used = true;                  // written once: the line every send reads stays shared
        }
        SendInterceptor previous = CURRENT.get();
        CURRENT.set(interceptor);
        return previous;
    }

    /** Puts back {@code previous} (null: none). */
    public static void restore(SendInterceptor previous) {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }
}

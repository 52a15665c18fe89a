package dev.switchboard.internal;

/**
 * What {@link SendInterception} holds per thread and asks about each send, exit, reply, spawn and wait: the spi
 * installs one that hands these to the user's {@code SendInterceptor}, whose doc says what each answer means. The
 * references and reply handles are typed {@code Object} here so that this package names nothing above it.
 */
public interface Interceptor {
    /** Whether to hold the send of {@code message} to {@code to} (an ActorRef), into {@code mailbox} (-1: routed). */
    boolean interceptSend(Object to, int mailbox, Object message);

    /** Whether to hold the {@code exit()} of {@code actor} (its ActorRef). */
    boolean interceptExit(Object actor);

    /** Whether to hold the answer to {@code replyTo} (a ReplyTo): {@code reply}, or {@code failure} if not null. */
    boolean interceptReply(Object replyTo, Object reply, Throwable failure);

    /** Whether to hold the start of an actor or the spawn of a task, which running {@code spawn} does. */
    boolean interceptSpawn(Runnable spawn);

    /** Whether to hold a request's send or an actor's stop, which running {@code effect} does. */
    boolean interceptEffect(Runnable effect);

    /** Whether to hold the {@code stopNow()} of {@code actor} (its ActorRef), which running {@code stop} does. */
    boolean interceptStopNow(Object actor, Runnable stop);

    /** Why this thread may not wait now, or null if it may. */
    String blockingForbidden();
}

package dev.switchboard.spi;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;

/**
 * Sees the sends made on one thread while it is installed ({@link Seam#interceptSends}) and may hold them: a
 * transaction holds the messages it sends until it commits, and sends them then with {@link Seam#sendNow}, or
 * drops them when it rolls back. It may hold an actor's {@code exit()} the same way.
 */
@FunctionalInterface
public interface SendInterceptor {
    /**
     * A send on this thread: {@code message} to {@code to}, into mailbox {@code mailbox}, or {@code -1} for a
     * send that names no mailbox (the receiver routes it). Returns true to hold the message (it is not sent), false
     * to let it go now.
     */
    boolean intercept(ActorRef<?> to, int mailbox, Object message);

    /**
     * The actor {@code actor}, processing on this thread, calls {@code exit()}. Returns true to hold the exit (the
     * actor goes on; the kind calls {@code exit()} again, with the interceptor closed, when it wants it to take
     * effect), false to let it take effect now. By default exits take effect now.
     */
    default boolean interceptExit(ActorRef<?> actor) {
        return false;
    }

    /**
     * This thread answers a request: {@code reply}, or {@code failure} if not null. Returns true to hold the answer
     * (the kind gives it later with {@link Seam#replyNow}, or drops it), false to let it go now. By default answers
     * go now.
     */
    default boolean interceptReply(ReplyTo<?> replyTo, Object reply, Throwable failure) {
        return false;
    }

    /**
     * This thread starts an actor or spawns a task ({@code async}, {@code asyncAwait}); running {@code spawn} does
     * it. Returns true to hold it (the kind runs {@code spawn} later, with the interceptor closed, or drops it),
     * false to let it happen now. By default it happens now.
     */
    default boolean interceptSpawn(Runnable spawn) {
        return false;
    }

    /**
     * This thread asks an actor ({@code ask}: the request is built, its future made and its timeout armed) or
     * stops one ({@code stop}, {@code stopNow}); running {@code effect} sends the request or stops the actor.
     * Returns true to hold it (the kind runs {@code effect} later, with the interceptor closed, in the order it
     * came among the sends it holds, or drops it and tells it so with {@link Seam#dropEffect}: an ask's future
     * then fails), false to let it happen now. By default it happens now.
     */
    default boolean interceptEffect(Runnable effect) {
        return false;
    }

    /**
     * This thread stops {@code actor} at once ({@code stopNow()}); running {@code stop} does it. Answers as
     * {@link #interceptEffect} does, and by default is that: a kind overrides it to know whose stop it holds (an
     * actor's stop of itself ends it, as its exit does).
     */
    default boolean interceptStopNow(ActorRef<?> actor, Runnable stop) {
        return interceptEffect(stop);
    }

    /**
     * Why this thread may not wait now (a {@code finish}, a blocking {@code get}, a {@code future} whose value would
     * escape), or null if it may: a transaction, which may run several times, must neither wait nor let work
     * escape it. The runtime's waits then fail with an {@code IllegalStateException} giving the reason. By default
     * null.
     */
    default String blockingForbidden() {
        return null;
    }
}

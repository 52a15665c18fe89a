package dev.switchboard.spi;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.internal.Interceptor;

/**
 * The interceptor {@link Seam#interceptSends} installs for a {@link SendInterceptor}: it owns nothing but the user's
 * interceptor, and gives it the references and reply handles the runtime passes as Objects. Its identity is the
 * installation's: {@code Seam.Interception.close} compares it with the thread's current one.
 */
final class InstalledInterceptor implements Interceptor {
    private final SendInterceptor user;

    InstalledInterceptor(SendInterceptor user) {
        this.user = user;
    }

    @Override
    public boolean interceptSend(Object to, int mailbox, Object message) {
        return user.intercept((ActorRef<?>) to, mailbox, message);
    }

    @Override
    public boolean interceptExit(Object actor) {
        return user.interceptExit((ActorRef<?>) actor);
    }

    @Override
    public boolean interceptReply(Object replyTo, Object reply, Throwable failure) {
        return user.interceptReply((ReplyTo<?>) replyTo, reply, failure);
    }

    @Override
    public boolean interceptSpawn(Runnable spawn) {
        return user.interceptSpawn(spawn);
    }

    @Override
    public boolean interceptEffect(Runnable effect) {
        return user.interceptEffect(effect);
    }

    @Override
    public boolean interceptStopNow(Object actor, Runnable stop) {
        return user.interceptStopNow((ActorRef<?>) actor, stop);
    }

    @Override
    public String blockingForbidden() {
        return user.blockingForbidden();
    }
}

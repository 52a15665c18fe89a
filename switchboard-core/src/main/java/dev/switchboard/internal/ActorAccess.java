package dev.switchboard.internal;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.spi.DispatchPolicy;

/**
 * The actor package's operations that {@code dev.switchboard.spi} exposes to other modules, reached without
 * making them public API (the JDK's SharedSecrets pattern): the actor package installs the implementation when
 * {@code ActorCore} is initialized.
 */
public abstract class ActorAccess {
    private static volatile ActorAccess instance;

    /** Called once, by the actor package. */
    protected static synchronized void install(ActorAccess access) {
        if (instance != null) {
            throw new IllegalStateException("the actor package's access is installed already");
        }
        instance = access;
    }

    public static ActorAccess get() {
        ActorAccess a = instance;
        if (a == null) {
            try {
                Class.forName(ActorCore.class.getName(), true, ActorAccess.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = instance;
        }
        return a;
    }

    /** Binds {@code policy} to {@code actor} (before it starts). */
    public abstract void bind(ActorCore<?> actor, DispatchPolicy policy);

    /** Sends {@code message} to {@code to} (into {@code mailbox}, or routed if -1) without interception. */
    public abstract void sendNow(ActorRef<?> to, int mailbox, Object message);

    /** Answers {@code replyTo} without interception. */
    public abstract void replyNow(dev.switchboard.actor.ReplyTo<?> replyTo, Object reply, Throwable failure);
}

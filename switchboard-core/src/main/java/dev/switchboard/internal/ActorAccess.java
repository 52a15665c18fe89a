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

    /** A reference to an actor of another JVM ({@code mailboxes} -1: not a selector). */
    public abstract ActorRef<?> remoteRef(long id, String name, int mailboxes, dev.switchboard.spi.RemoteRoute route);

    /** Gives an actor whose reference has no id yet the id {@code id}. */
    public abstract void presetId(ActorCore<?> actor, long id);

    /** Sets the places' bits of this JVM's actor ids. */
    public abstract void usePlaceBits(long bits);

    /** The reference of {@code actor}, started or not. */
    public abstract ActorRef<?> referenceOf(ActorCore<?> actor);

    /** Whether {@code ref}, a reference of this JVM, names an actor that has terminated. */
    public abstract boolean hasTerminated(ActorRef<?> ref);

    /** Whether {@code ref} is the reference of an actor of another JVM. */
    public abstract boolean isRemote(ActorRef<?> ref);

    /** The classes of references, local and remote. */
    public abstract java.util.List<Class<?>> referenceClasses();

    /** Answers {@code replyTo} without interception. */
    public abstract void replyNow(dev.switchboard.actor.ReplyTo<?> replyTo, Object reply, Throwable failure);
}

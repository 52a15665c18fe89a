package dev.switchboard.internal;

/**
 * The actor package's operations that the spi package ({@code Seam}) exposes to other modules, reached without
 * making them public API (the JDK's SharedSecrets pattern): the actor package installs the implementation when
 * its actors' class is initialized. The parameters and results are actors, references, policies and reply handles,
 * typed {@code Object} here so that this package names nothing above it: {@code Seam} passes them typed and casts
 * what comes back, the implementation casts what it receives.
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

    /** The installed access, or null until the actor package has been initialized ({@code Seam} initializes it). */
    public static ActorAccess get() {
        return instance;
    }

    /** Binds {@code policy} (a DispatchPolicy) to {@code actor} (an ActorCore, before it starts). */
    public abstract void bind(Object actor, Object policy);

    /**
     * Sends {@code message} to {@code to} (an ActorRef; into {@code mailbox}, or routed if -1) without
     * interception.
     */
    public abstract void sendNow(Object to, int mailbox, Object message);

    /** A reference (an ActorRef) to an actor of another JVM ({@code mailboxes} -1: not a selector). */
    public abstract Object remoteRef(long id, String name, int mailboxes, RemoteSend route);

    /** Gives {@code actor} (an ActorCore), whose reference has no id yet, the id {@code id}. */
    public abstract void presetId(Object actor, long id);

    /** Sets the places' bits of this JVM's actor ids. */
    public abstract void usePlaceBits(long bits);

    /** The reference (an ActorRef) of {@code actor} (an ActorCore), started or not. */
    public abstract Object referenceOf(Object actor);

    /** Whether {@code ref}, a reference of this JVM, names an actor that has terminated. */
    public abstract boolean hasTerminated(Object ref);

    /**
     * Whether the actor {@code ref} (a reference of this JVM) has an active timer under {@code key}, read from any
     * thread (the test kit's look; a timer started or cancelled meanwhile may or may not be seen).
     */
    public abstract boolean hasActiveTimer(Object ref, Object key);

    /** Whether the current thread runs the processing of {@code actor} (an ActorCore) or a task it spawned. */
    public abstract boolean runsFor(Object actor);

    /**
     * A dead letter (a DeadLetter) in words for the log: its reason, its message's type (never the message's
     * contents, which may be private) and its recipient.
     */
    public abstract String withoutContents(Object deadLetter);

    /** The internal state of {@code actor} (an ActorCore) in words: its status word, activation and queues. */
    public abstract String internals(Object actor);

    /** Whether {@code ref} is the reference of an actor of another JVM. */
    public abstract boolean isRemote(Object ref);

    /** The classes of references, local and remote. */
    public abstract java.util.List<Class<?>> referenceClasses();

    /** Answers {@code replyTo} (a ReplyTo) without interception. */
    public abstract void replyNow(Object replyTo, Object reply, Throwable failure);

    /** A reply handle for a request from another JVM to {@code target}: its answer goes to {@code answer}. */
    public abstract Object remoteReplyTo(Object target, RemoteAnswer answer);

    /** The {@link RemoteAnswer} of a reply handle {@link #remoteReplyTo} made, or null for one made here. */
    public abstract RemoteAnswer remoteAnswerOf(Object replyTo);

    /** Whether the requester of a reply handle made here still waits for its answer. */
    public abstract boolean isAwaited(Object replyTo);

    /** The runtime's answer to a reply handle when none can come; ignored once answered. */
    public abstract void giveUp(Object replyTo, Throwable cause);

    /** The actor a reply handle's request was sent to. */
    public abstract Object requestTarget(Object replyTo);

    /** Sends a request whose answer goes to {@code replyTo} to the actor of this JVM {@code to}. */
    public abstract void sendRequest(Object to, int mailbox, Object message, Object replyTo);
}

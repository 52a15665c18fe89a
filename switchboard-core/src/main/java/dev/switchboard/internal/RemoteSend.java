package dev.switchboard.internal;

/**
 * Where a reference to an actor of another JVM sends ({@code RemoteRef} holds one): {@code Seam.remoteRef} wraps
 * the places module's {@code RemoteRoute} in it, so that the reference's package and this one name no spi type.
 */
public interface RemoteSend {
    /** Sends {@code message} to {@code to} (the remote ActorRef sending), into {@code mailbox}, or routed if -1. */
    void send(Object to, int mailbox, Object message);

    /**
     * The runtime of this JVM whose timers and dead letters a request to the remote actor uses ({@code ask} and
     * {@code awaitReply}), or null if requests cannot cross to its JVM.
     */
    Scheduler scheduler();

    /**
     * A stage that completes with how the remote actor {@code ref} ended (a {@code Terminated}), or null if its
     * JVM cannot tell.
     */
    java.util.concurrent.CompletionStage<?> whenTerminated(Object ref);
}

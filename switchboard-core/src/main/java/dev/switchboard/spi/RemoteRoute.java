package dev.switchboard.spi;

import dev.switchboard.actor.ActorRef;

/**
 * Where the sends to a reference of an actor in another JVM go ({@link Seam#remoteRef}): the places module
 * implements it, encoding the message and writing it to the connection of the actor's place.
 */
@FunctionalInterface
public interface RemoteRoute {
    /**
     * The runtime of this JVM whose timers and dead-letter counts the requests ({@code ask}, {@code awaitReply}) to
     * the route's actors use; null (the default) if requests cannot cross to their JVM, which refuses them.
     */
    default dev.switchboard.task.TaskRuntime runtime() {
        return null;
    }

    /**
     * A stage that completes with how {@code ref}, an actor this route reaches, ended — with
     * {@code Terminated.Reason.PLACE_LOST} if its JVM is lost; null (the default) if the route cannot tell, which
     * refuses death watch of its actors.
     */
    default java.util.concurrent.CompletionStage<dev.switchboard.actor.Terminated> whenTerminated(ActorRef<?> ref) {
        return null;
    }

    /**
     * Sends {@code message} to {@code to} (a remote reference this route made), into {@code mailbox}, or, if
     * {@code mailbox} is -1, wherever the actor routes it. Called on the sender's thread; must not block for long.
     *
     * @throws RuntimeException if the message cannot be sent (its class cannot be encoded, say): the send fails
     *         at the sender with it
     */
    void send(ActorRef<?> to, int mailbox, Object message);
}

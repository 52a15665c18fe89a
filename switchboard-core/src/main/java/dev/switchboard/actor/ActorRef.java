package dev.switchboard.actor;

import dev.switchboard.task.DataDrivenFuture;

/**
 * What a sender holds to talk to an actor: the actor's address, separate from the actor's class, so a handle to
 * an actor in another JVM can implement it and sending code never changes.
 *
 * <pre>{@code
 * ActorRef<Greeting> printer = new PrintActor().start();
 * printer.send(new Greeting("Hello"));
 * }</pre>
 *
 * <p>{@link #send} never blocks. Messages from one sender to one actor are processed in the order they were
 * sent. A message sent to an actor that has exited is a {@linkplain DeadLetter dead letter}: counted and
 * reported to the runtime's dead-letter listener, never silently lost.
 *
 * @param <M> the type of message the actor accepts
 */
public interface ActorRef<M> {
    /** Sends {@code message} asynchronously. */
    void send(M message);

    /**
     * Sends {@code message} as a request: the receiver answers with {@link ActorCore#reply(Object)}, which puts
     * the answer into {@code reply}. If the receiver cannot answer (it has exited, or it finished processing the
     * request without replying), {@code reply} is failed with a {@link NoReplyException}. Actors normally use
     * {@link ActorCore#awaitReply} instead of calling this directly.
     */
    void request(M message, DataDrivenFuture<Object> reply);
}

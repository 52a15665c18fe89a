package dev.switchboard.actor;

import dev.switchboard.task.DataDrivenFuture;

/**
 * What a sender holds to talk to an actor: a small object apart from the actor, with an id and a name. Messages
 * carry references, never actor objects; whoever holds a reference can send to the actor and compare it with
 * other references, nothing more.
 *
 * <pre>{@code
 * ActorRef<Greeting> printer = new PrintActor().start("printer");
 * printer.send(new Greeting("Hello"));
 * printer.send(new Greeting("World"));
 * System.out.println(printer);          // printer@17
 * }</pre>
 *
 * <p>{@link #send} never blocks. Messages from one sender to one actor are processed in the order they were
 * sent. A message sent to an actor that has exited is a {@linkplain DeadLetter dead letter}: counted and
 * reported to the runtime's dead-letter listener, never silently lost.
 *
 * <p>An actor has one reference: {@code start()} returns it and the actor's own {@code self()} gives it. Two
 * references are equal when they have the same {@linkplain #id() id}, so they work as keys of hash maps and
 * sets.
 *
 * @param <M> the type of message the actor accepts
 */
public sealed interface ActorRef<M> permits LocalRef, SelectorRef {
    /**
     * Sends {@code message} asynchronously.
     *
     * @throws NullPointerException if {@code message} is null
     */
    void send(M message);

    /**
     * Sends {@code message} as a request: the receiver answers with {@link ActorCore#reply(Object)}, which puts
     * the answer into {@code reply}. If the receiver cannot answer (it has exited, or it finished processing the
     * request without replying), {@code reply} is failed with a {@link NoReplyException}. Actors normally use
     * {@link ActorCore#awaitReply} instead of calling this directly.
     */
    void request(M message, DataDrivenFuture<Object> reply);

    /**
     * The actor's id: unique among the actors of this JVM, and the same for the actor's whole life. Its top 16
     * bits are reserved for the number of the place (JVM) the actor was created on, and are 0.
     */
    long id();

    /** The actor's name: the one given to {@code start(name)}, else the simple name of the actor's class. */
    String name();

    /** {@code name@id}, as the actor appears in errors, hang reports and dead letters. */
    @Override
    String toString();
}

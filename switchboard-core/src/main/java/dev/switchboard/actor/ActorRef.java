package dev.switchboard.actor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

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
 * sets. In a program on several places a reference is location-transparent: sent in a message to another place
 * it arrives as a reference to the same actor (equal to the original), through which that place sends as to a
 * local one; requests ({@code ask}, {@code awaitReply}) reach only the actors of the sender's own place.
 *
 * @param <M> the type of message the actor accepts
 */
public sealed interface ActorRef<M> permits LocalRef, RemoteRef, SelectorRef {
    /**
     * Sends {@code message} asynchronously.
     *
     * @throws NullPointerException if {@code message} is null
     */
    void send(M message);

    /**
     * Asks the actor: builds the request with {@code request} around a fresh {@link ReplyTo}, sends it, and
     * returns a future of the answer. Works from anywhere: plain code, a task (which awaits the answer with
     * {@code DataDrivenFuture.of(future)} and {@code asyncAwait}), an actor (which can use {@code awaitReply}
     * instead, to handle the answer on its own thread of control). Does not block, unless the actor's mailbox is a
     * bounded one that makes senders outside the runtime wait for room ({@link BoundedMailbox}); the timeout runs
     * from the moment the request is in the mailbox.
     *
     * <pre>{@code
     * record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {}
     *
     * CompletableFuture<Long> balance = bank.ask(replyTo -> new Balance("alice", replyTo), Duration.ofSeconds(1));
     * }</pre>
     *
     * <p>The future completes with the reply; or fails with a {@link ReplyTimeoutException} naming the actor, the
     * request and who asked, when no reply came within {@code timeout}; with a {@link NoReplyException} when the
     * actor terminated (or its runtime closed) before processing the request; or with the failure the actor
     * answered with ({@link ReplyTo#fail}). A reply after the timeout is a dead letter
     * ({@link DeadLetter.Reason#REPLY_TOO_LATE}, counted on the actor asked), as is one after the caller cancelled
     * the future. Actions chained on the future without an executor ({@code thenAccept}) run on the thread that
     * completes it, the replier's worker or the runtime's timer thread, as work outside every finish: keep them
     * short, or use the {@code ...Async} forms.
     *
     * <p>An actor of another place is asked the same way, with the same timeouts, errors and late-reply dead
     * letters (counted at the asking place); a failure it answers with arrives as a {@code PlaceFailureException}
     * naming its place, its class and its message.
     *
     * @param <R> the type of the reply, as the request's {@code ReplyTo} declares it
     * @throws NullPointerException     if {@code request} is null or builds a null request
     * @throws IllegalArgumentException if {@code timeout} is not positive
     * @throws MailboxFullException     if the actor's bounded mailbox is full and refuses the request
     */
    <R> CompletableFuture<R> ask(Function<? super ReplyTo<R>, ? extends M> request, Duration timeout);

    /**
     * The actor's id: the same for the actor's whole life, and unique among the actors of this JVM and, in a
     * program on several places (JVMs), of every place. Its top 24 bits are the place the actor was created from
     * (12 bits) and the place it lives on (12 bits), both 0 outside a program on several places; the 40 bits below
     * are a sequence number. The one exception is a runtime the test kit runs under a deterministic schedule: it
     * numbers its own actors from 1, so that a seed's run has the same ids each time, and its ids are unique only
     * among its own actors (do not mix its references with other runtimes').
     */
    long id();

    /**
     * A stage that completes, with how it ended, once the actor (exited, failed, or its runtime closed) and every
     * task it spawned have ended; at once if they have already. For code outside the actor (an actor uses
     * {@code watch}). Every call returns the same stage, which callers cannot complete, so asking again costs
     * nothing; but what is chained on it ({@code thenAccept}, {@code toCompletableFuture()}) stays registered until
     * the actor ends, as on any {@code CompletionStage}, even if it is cancelled: to wait for the end with a timeout
     * per request, keep one {@code toCompletableFuture()} and call its {@code get(timeout)}. Actions chained
     * without an executor run on the thread that completes it (a worker, or a thread closing the runtime): keep
     * them short, or use the {@code ...Async} forms.
     *
     * <pre>{@code
     * ActorRef<Job> worker = new Worker().start();
     * worker.whenTerminated().thenAccept(end -> log.info("{} ended: {}", end.actor(), end.reason()));
     * }</pre>
     *
     * <p>For an actor of another place, its place tells when it ends; if that place is lost, the stage completes
     * with {@link Terminated.Reason#PLACE_LOST}.
     *
     * @throws UnsupportedOperationException for an actor of another JVM whose route cannot tell when it ends
     */
    CompletionStage<Terminated> whenTerminated();

    /**
     * Stops the actor gracefully, from any code: it processes the messages already in its mailbox, then ends, as
     * after {@code exit()} ({@code onExit()} runs, watchers hear {@link Terminated.Reason#STOPPED}); messages sent
     * after this call become dead letters. Pekko's {@code PoisonPill}. The stop waits its turn in the mailbox (a
     * bounded one takes it even when full); a selector takes it in every mailbox, each of which closes once its
     * stop is taken, and ends with the last, or as soon as it is idle with every mailbox disabled (what is left in
     * a mailbox it kept disabled becomes dead letters); a stateless actor ends once it has started every earlier
     * message, and an actor bound to a monitor once its policy has; they run to their end. A no-op on an actor
     * that has ended; several stops end the actor once.
     *
     * <pre>{@code
     * worker.stop();                                      // after what is queued
     * worker.whenTerminated().toCompletableFuture().join();
     * }</pre>
     *
     * @throws UnsupportedOperationException for an actor of another place
     */
    void stop();

    /**
     * Stops the actor now, from any code: after the message it is processing (if any), it ends as after
     * {@code exit()}; the messages in its mailbox become {@link DeadLetter.Reason#UNPROCESSED_AT_EXIT} dead
     * letters. Watchers hear {@link Terminated.Reason#STOPPED}. A no-op on an actor that has ended.
     *
     * @throws IllegalStateException         if the actor was never started ({@link #stop()} may be called then)
     * @throws UnsupportedOperationException for an actor of another place
     */
    void stopNow();

    /** The actor's name: the one given to {@code start(name)}, else the simple name of the actor's class. */
    String name();

    /** {@code name@id}, as the actor appears in errors, hang reports and dead letters. */
    @Override
    String toString();

    /**
     * A new array of {@code length} references (all null) to actors of one message type, without the unchecked
     * conversion that {@code new ActorRef[n]} needs. Where the number of actors is known when they are created, a
     * {@code List} is often simpler: {@code IntStream.range(0, n).mapToObj(i -> new Worker().start()).toList()}.
     *
     * <pre>{@code
     * ActorRef<Token>[] ring = ActorRef.newArray(n);
     * for (int i = 0; i < n; i++) ring[i] = new Node(i).ref();
     * }</pre>
     *
     * <p>The array's runtime type is {@code ActorRef[]}: it can hold only references, so no element can ever be
     * of another kind; like every generic array, do not hand it to code that stores references of another message
     * type through an {@code ActorRef<?>[]} view.
     *
     * @param <M> the message type of the actors
     * @throws NegativeArraySizeException if {@code length} is negative
     */
    @SuppressWarnings("unchecked")
    static <M> ActorRef<M>[] newArray(int length) {
        return (ActorRef<M>[]) new ActorRef<?>[length];
    }
}

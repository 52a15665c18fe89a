package dev.switchboard.actor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The reference to a {@link Selector}: besides sending as to any actor (the selector {@linkplain Selector#route
 * routes} the message), a sender can name the mailbox, by a constant of the selector's mailbox enum {@code B}
 * (checked by the compiler) or by its number (for computed mailbox numbers).
 *
 * <pre>{@code
 * enum Box { PUT, TAKE }
 * SelectorRef<BufferMsg, Box> buffer = new Buffer().start();
 * buffer.send(Box.PUT, new Put(42));
 * buffer.send(1, new Take(consumer));     // mailbox 1 is TAKE
 * }</pre>
 *
 * @param <M> the type of message the selector accepts
 * @param <B> the enum naming the selector's mailboxes ({@link Selector.Numbered} when they only have numbers)
 */
public sealed interface SelectorRef<M, B extends Enum<B>> extends ActorRef<M> permits LocalRef.OfSelector, RemoteRef.OfSelector {
    /**
     * Sends {@code message} into mailbox {@code mailbox} (0-based).
     *
     * @throws IllegalArgumentException if the selector has no such mailbox
     */
    void send(int mailbox, M message);

    /**
     * Sends {@code message} into the mailbox named by {@code mailbox}.
     *
     * @throws IllegalArgumentException if the selector's mailboxes were declared by a count, not by the enum
     *         (they have numbers only)
     */
    void send(B mailbox, M message);

    /**
     * {@link ActorRef#ask} into the mailbox named by {@code mailbox}.
     *
     * @throws IllegalArgumentException if the selector's mailboxes have numbers only, or {@code timeout} is not
     *         positive
     */
    <R> CompletableFuture<R> ask(B mailbox, Function<? super ReplyTo<R>, ? extends M> request, Duration timeout);

    /** The number of mailboxes. */
    int mailboxCount();

    /**
     * A new array of {@code length} selector references (all null), without the unchecked conversion that
     * {@code new SelectorRef[n]} needs; see {@link ActorRef#newArray}.
     *
     * <pre>{@code
     * SelectorRef<Work, Numbered>[] workers = SelectorRef.newArray(n);
     * }</pre>
     *
     * @param <M> the message type of the selectors
     * @param <B> the enum naming their mailboxes
     * @throws NegativeArraySizeException if {@code length} is negative
     */
    @SuppressWarnings("unchecked")
    static <M, B extends Enum<B>> SelectorRef<M, B>[] newArray(int length) {
        return (SelectorRef<M, B>[]) new SelectorRef<?, ?>[length];
    }
}

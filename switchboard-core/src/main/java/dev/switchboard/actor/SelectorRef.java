package dev.switchboard.actor;

/**
 * What a sender holds to talk to a {@link Selector}: like an {@link ActorRef}, plus sends that name the target
 * mailbox. A message sent without a mailbox goes where the selector routes it ({@link Selector#route}).
 *
 * <pre>{@code
 * SelectorRef<Item> adder = new AdderRoundRobin(3, sink).start();
 * adder.send(1, new Item(42));                // into mailbox 1
 * buffer.send(Mailboxes.PRODUCER, data);      // mailboxes named by an enum
 * }</pre>
 *
 * @param <M> the type of message the selector accepts
 */
public interface SelectorRef<M> extends ActorRef<M> {
    /**
     * Sends {@code message} into mailbox {@code mailbox} (0-based).
     *
     * @throws IllegalArgumentException if the selector has no such mailbox
     */
    void send(int mailbox, M message);

    /**
     * Sends {@code message} into the mailbox named by {@code mailbox}, a constant of the enum the selector's
     * mailboxes were declared with.
     *
     * @throws IllegalArgumentException if the constant is not one of the selector's mailboxes
     */
    void send(Enum<?> mailbox, M message);

    /** The number of mailboxes. */
    int mailboxCount();
}

package dev.switchboard.actor;

/**
 * A message in a mailbox that whoever sent it can still take back while it waits there: a timer's (cancelled or
 * replaced) and a death watch's (unwatched, or watched again). The actor takes the message only if its sender says
 * so ({@link Sender#deliver}) when its turn comes; one taken back is dropped, counted neither as processed nor as a
 * dead letter.
 *
 * <p>Owns nothing but the message and who sent it. The senders decide under their own lock whether a take-back or
 * the actor's take comes first: once a take-back has returned, the message is not processed. The class is final,
 * so the dispatch tells it from a plain message with one class compare.
 */
final class RevocableMessage {
    /** Who sent a revocable message, and can take it back. */
    interface Sender {
        /** Called when the actor takes the message from its mailbox: whether to process it (false: taken back). */
        boolean deliver();

        /**
         * Called when the actor has ended before taking it: whether it is dropped rather than counted as a dead
         * letter ({@code RECIPIENT_TERMINATED}, {@code UNPROCESSED_AT_EXIT}).
         */
        boolean droppedAtEnd();

        /** Called when the message becomes a dead letter: it will never be taken. */
        default void undelivered() {
        }
    }

    private final Object message;
    private final Sender sender;

    RevocableMessage(Object message, Sender sender) {
        this.message = message;
        this.sender = sender;
    }

    /** The message the actor's {@code process} sees. */
    Object message() {
        return message;
    }

    /** See {@link Sender#deliver}. */
    boolean deliver() {
        return sender.deliver();
    }

    /** See {@link Sender#droppedAtEnd}. */
    boolean droppedAtEnd() {
        return sender.droppedAtEnd();
    }

    /** See {@link Sender#undelivered}. */
    void undelivered() {
        sender.undelivered();
    }
}

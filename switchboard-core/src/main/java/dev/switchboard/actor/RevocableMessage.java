package dev.switchboard.actor;

/**
 * A message in a mailbox that whoever sent it can still take back until the actor processes it: a timer's
 * (cancelled or replaced) and a death watch's (unwatched, or watched again). The actor processes the message only if
 * its sender says so ({@link Sender#deliver}) when its turn comes (a policy-bound actor's: when the policy runs it);
 * one taken back is dropped, counted neither as processed nor as a dead letter.
 *
 * <p>Owns nothing but the message and who sent it. The senders decide under their own lock whether a take-back or
 * the actor's take comes first: once a take-back has returned, the message is not processed. The class is final,
 * so the dispatch tells it from a plain message with one class compare.
 */
final class RevocableMessage {
    /** Who sent a revocable message, and can take it back. */
    interface Sender {
        /**
         * Called when the actor is about to process the message: whether to (false: it was taken back). From then
         * on it cannot be taken back.
         */
        boolean deliver();

        /** Whether the message was taken back: it is dropped, never processed nor counted as a dead letter. */
        boolean takenBack();

        /**
         * Called when the actor has ended before taking it: whether it is dropped rather than counted as a dead
         * letter ({@code RECIPIENT_TERMINATED}, {@code UNPROCESSED_AT_EXIT}).
         */
        default boolean droppedAtEnd() {
            return takenBack();
        }

        /** Called when the message would be a dead letter: it will never be processed. */
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

    /** See {@link Sender#takenBack}. */
    boolean takenBack() {
        return sender.takenBack();
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

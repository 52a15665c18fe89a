package dev.switchboard.actor;

/**
 * A message that whoever sent it can still take back while it waits in the mailbox: a timer's (cancelled or
 * replaced) and a death watch's (unwatched, or watched again). The actor takes the message it carries only if
 * {@link #deliver} says so when its turn comes; one taken back is dropped, counted neither as processed nor as a
 * dead letter.
 *
 * <p>Owns nothing but the message it carries. The subclasses decide under their own lock whether a take-back or
 * the actor's take comes first: once a take-back has returned, the message is not processed.
 */
abstract class RevocableMessage {
    private final Object message;

    RevocableMessage(Object message) {
        this.message = message;
    }

    /** The message the actor's {@code process} sees. */
    final Object message() {
        return message;
    }

    /** Called once, when the actor takes it from its mailbox: whether to process it (false: taken back). */
    abstract boolean deliver();

    /**
     * Called when its actor has ended before taking it: whether it is dropped rather than counted as a dead letter
     * ({@code RECIPIENT_TERMINATED}, {@code UNPROCESSED_AT_EXIT}).
     */
    abstract boolean droppedAtEnd();

    /** Called when it becomes a dead letter: it will never be taken. */
    void undelivered() {
    }
}

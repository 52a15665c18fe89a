package dev.switchboard.actor;

/**
 * A message that no actor will process. Dead letters are counted per actor ({@link ActorCore#deadLetterCount()})
 * and per runtime ({@link dev.switchboard.task.TaskRuntime#deadLetterCount()}), and passed to the runtime's
 * listener ({@link dev.switchboard.task.TaskRuntime.Builder#onDeadLetter}).
 *
 * @param message   the message as sent
 * @param recipient the actor it was sent to
 * @param reason    why it was not processed
 */
public record DeadLetter(Object message, ActorRef<?> recipient, Reason reason) {
    /** Why a message became a dead letter. */
    public enum Reason {
        /** Sent after the recipient had exited. */
        RECIPIENT_TERMINATED,
        /** Still in the recipient's mailbox when it exited. */
        UNPROCESSED_AT_EXIT,
        /**
         * A reply the recipient awaited with {@code awaitReply} arrived after it had exited, so its handler did not
         * run (the message is the reply, or the {@link NoReplyException} if the request failed).
         */
        REPLY_AFTER_EXIT,
        /**
         * A reply sent after the {@code awaitReply} that asked for it had timed out (the recipient is the actor
         * that waited; its handler ran with a {@link ReplyTimeoutException}).
         */
        REPLY_TOO_LATE,
        /** The recipient's mailbox was full: a bounded mailbox that drops, or the 2^30 limit of any mailbox. */
        MAILBOX_FULL,
        /**
         * The recipient's runtime was closed: the message was still in its mailbox, or was sent afterwards, or the
         * actor was started after the close.
         */
        RUNTIME_CLOSED
    }

    /** {@code RECIPIENT_TERMINATED: too late to pong@3}: the reason, the message (shortened) and the recipient. */
    @Override
    public String toString() {
        return reason + ": " + ActorDiagnostics.brief(message) + " to " + recipient;
    }
}

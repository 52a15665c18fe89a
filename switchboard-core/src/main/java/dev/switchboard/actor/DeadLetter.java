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
        /** The recipient's mailbox was at its capacity limit (2^30 messages). */
        MAILBOX_FULL
    }
}

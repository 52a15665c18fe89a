package dev.switchboard.actor;

import java.io.Serial;

/**
 * A message was not sent because the recipient's {@linkplain BoundedMailbox bounded mailbox} was full (and its
 * overflow is {@code FAIL}, or {@code WAIT} and the sender could not, or could no longer, wait). The message says
 * which actor and mailbox, the capacity, and what was not sent.
 */
public final class MailboxFullException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient ActorRef<?> recipient;
    private final int capacity;

    MailboxFullException(String message, ActorRef<?> recipient, int capacity) {
        super(message);
        this.recipient = recipient;
        this.capacity = capacity;
    }

    /** The actor whose mailbox was full. */
    public ActorRef<?> recipient() {
        return recipient;
    }

    /** The capacity of that mailbox. */
    public int capacity() {
        return capacity;
    }
}

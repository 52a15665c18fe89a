package dev.switchboard.actor;

import java.io.Serial;

/**
 * The reply to a request will never come, and the runtime knows it before the timeout: the receiver ended before
 * processing the request, dropped it (a full bounded mailbox), or failed processing it without replying; or the
 * runtime that would time it out was closed. A request processed without a reply and without a failure stays open
 * (its {@link ReplyTo} may be answered later, from elsewhere) until its timeout, a {@link ReplyTimeoutException}.
 * An actor waiting in {@code awaitReply} without a timeout fails with this exception (and its finish reports it)
 * instead of staying paused forever.
 */
public final class NoReplyException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public NoReplyException(String message) {
        super(message);
    }

    /** Whether the close of a runtime caused this (the request was dead-lettered by it, or its timer refused). */
    transient boolean byClose;

    /** Marks this as caused by the close of a runtime when {@code closing}; returns it. */
    NoReplyException causedByClose(boolean closing) {
        byClose = closing;
        return this;
    }
}

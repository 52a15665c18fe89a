package dev.switchboard.actor;

import java.io.Serial;

/**
 * The reply to a request will never come: the receiver exited before processing it, or processed it without
 * replying. An actor waiting in {@code awaitReply} fails with this exception (and its finish reports it) instead
 * of staying paused forever.
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

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
}

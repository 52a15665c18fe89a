package dev.switchboard.actor;

import java.io.Serial;

/**
 * Attached as a suppressed exception to a failure that escaped an actor's message processing, so the finish
 * that rethrows it also tells which actor it terminated and which message it was processing.
 */
final class ProcessingFailure extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    ProcessingFailure(String message) {
        super(message, null, false, false);
    }
}

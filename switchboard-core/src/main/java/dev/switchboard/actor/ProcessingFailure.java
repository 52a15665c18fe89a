package dev.switchboard.actor;

import java.io.Serial;

/**
 * Says which actor a failure terminated, and what it was doing. It is attached as a suppressed exception to the
 * failure, which the finish rethrows as itself; for a failure that cannot carry suppressed exceptions (the JVM
 * creates some errors that way, {@link StackOverflowError} among them), the finish receives this exception
 * instead, with the failure as its cause.
 *
 * <pre>{@code
 * ProcessingFailure: Parser@3 was terminated: this exception escaped process(Line[...])
 * Caused by: java.lang.StackOverflowError
 * }</pre>
 */
public final class ProcessingFailure extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    ProcessingFailure(String message) {
        super(message, null, true, false);
    }

    ProcessingFailure(String message, Throwable cause) {
        super(message, cause, true, false);
    }
}

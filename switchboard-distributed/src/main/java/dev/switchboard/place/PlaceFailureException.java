package dev.switchboard.place;

import java.io.Serial;

/**
 * A failure on another place, as the program's top-level finish ({@link Places.Builder#run}) reports it: the place,
 * what failed there (an actor, a task), and the exception's class, message and stack trace as that place printed
 * them (the exception itself stays there: its class need not be a message class).
 */
public final class PlaceFailureException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;
    private final String place;
    private final String exceptionClass;
    private final String remoteStackTrace;
    private final String remoteMessage;

    PlaceFailureException(String place, String exceptionClass, String message, String remoteStackTrace) {
        super("on place " + place + ": " + exceptionClass + (message == null ? "" : ": " + message), null, false,
                false);
        this.place = place;
        this.exceptionClass = exceptionClass;
        this.remoteStackTrace = remoteStackTrace;
        this.remoteMessage = message;
    }

    /** The name of the place the failure happened on. */
    public String place() {
        return place;
    }

    /** The class name of the exception thrown there. */
    public String exceptionClass() {
        return exceptionClass;
    }

    /** The exception's own message, as thrown there (null if it had none). */
    String remoteMessage() {
        return remoteMessage;
    }

    /** The exception's stack trace, as {@code printStackTrace} printed it on its place. */
    public String remoteStackTrace() {
        return remoteStackTrace;
    }
}

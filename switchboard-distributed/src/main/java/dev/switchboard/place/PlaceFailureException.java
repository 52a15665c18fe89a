package dev.switchboard.place;

import java.io.Serial;

/**
 * A failure on another place, as the program's top-level finish ({@link Places.Builder#run}) reports it: the place,
 * what failed there (an actor, a task), and the exception's class, message and stack trace as that place printed
 * them (the exception itself stays there: its class need not be a message class). For a failure that ended an
 * actor, the message names the actor and what it was doing, as its {@code ProcessingFailure} there says: {@code on
 * place p1: java.lang.IllegalStateException: the vault is locked (vault@1099511627776 was terminated: this
 * exception escaped process(Open[...]))}.
 */
public final class PlaceFailureException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;
    private final String place;
    private final String exceptionClass;
    private final String remoteStackTrace;
    private final String remoteMessage;
    private final String actor;

    PlaceFailureException(String place, String exceptionClass, String message, String remoteStackTrace) {
        this(place, exceptionClass, message, null, remoteStackTrace);
    }

    /** @param actor the actor the failure ended and what it was doing, as its place said (null: no actor's) */
    PlaceFailureException(String place, String exceptionClass, String message, String actor,
                          String remoteStackTrace) {
        super("on place " + place + ": " + what(exceptionClass, message, actor), null, false, false);
        this.place = place;
        this.exceptionClass = exceptionClass;
        this.remoteStackTrace = remoteStackTrace;
        this.remoteMessage = message;
        this.actor = actor;
    }

    /** The failure as the message says it after its place: class, message, and the actor it ended if any. */
    static String what(String exceptionClass, String message, String actor) {
        return exceptionClass + (message == null ? "" : ": " + message) + (actor == null ? "" : " (" + actor + ")");
    }

    /**
     * {@link #what}, for a log line: the actor named without what it was doing, whose text may show the contents
     * of the message it processed ("vault@3 was terminated"), as the runtime's failure log never does.
     */
    static String whatForLog(String exceptionClass, String message, String actor) {
        int colon = actor == null ? -1 : actor.indexOf(": ");
        return what(exceptionClass, message, colon < 0 ? actor : actor.substring(0, colon));
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

    /** The actor the failure ended and what it was doing, as its place said it (null: no actor's). */
    String actor() {
        return actor;
    }

    /** The exception's stack trace, as {@code printStackTrace} printed it on its place. */
    public String remoteStackTrace() {
        return remoteStackTrace;
    }
}

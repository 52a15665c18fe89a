package dev.switchboard.place;

/**
 * A message could not be handed to the connection to a place: the place is unreachable or its connection was
 * lost, or it did not take messages fast enough (its connection's outbound buffer stayed full for longer than
 * the bound). The message names the place and what happened; the message was not sent.
 */
public final class PlaceConnectionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    PlaceConnectionException(String message) {
        super(message);
    }

    PlaceConnectionException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code place} ("place p1") cannot listen at {@code at}: {@code cause} says why. */
    static PlaceConnectionException cannotListen(String place, java.net.InetSocketAddress at, Exception cause) {
        String why = String.valueOf(cause.getMessage());
        return new PlaceConnectionException(place + " cannot listen at " + at.getHostString() + ":" + at.getPort()
                + ": " + why + (cause instanceof java.net.BindException || why.contains("Address already in use")
                ? " (is the port in use? each place of a host needs a port of its own)" : ""), cause);
    }
}

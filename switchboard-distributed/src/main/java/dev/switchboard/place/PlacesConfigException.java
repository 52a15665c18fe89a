package dev.switchboard.place;

/**
 * A places configuration that cannot be used: missing, not HOCON, a key missing or of the wrong type, two places
 * with one name or one address, a host that does not resolve, a message class that is not on the class path. The
 * message names the file (and the line, where known), the key and what is wrong; it is thrown before anything
 * starts.
 */
public final class PlacesConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    PlacesConfigException(String message) {
        super(message);
    }

    PlacesConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.switchboard.place;

/**
 * The first frames of every connection between places: the connecting place says who it is and which program
 * it belongs to ({@link Hello}); the accepting place welcomes it ({@link Welcome}) or refuses it with the reason
 * ({@link Refused}) and closes. Nothing else is accepted on a connection before its handshake. (The
 * authentication of places, a later step, goes here too.)
 */
final class Handshake {
    private Handshake() {
    }

    /** From the connecting place: its index, and the program both must run (a run's id). */
    record Hello(String program, int place) {
    }

    /** From the accepting place: its index. */
    record Welcome(int place) {
    }

    /** From the accepting place, before it closes the connection: why. */
    record Refused(String reason) {
    }

    /** A liveness probe, either way after the handshake: the transport answers it with a {@link Pong}. */
    record Ping(long id) {
    }

    /** The answer to the {@link Ping} with the same id. */
    record Pong(long id) {
    }
}

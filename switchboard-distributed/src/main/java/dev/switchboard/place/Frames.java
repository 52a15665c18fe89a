package dev.switchboard.place;

/**
 * What places send each other once connected (after the {@link Handshake}), encoded by the {@link MessageCodec}.
 * {@link Create}, {@link Deliver} and {@link Failed} are the program's traffic: each place counts those it sends
 * and receives, and global termination compares the sums ({@link PlaceRuntime}). {@link Wave} and
 * {@link Shutdown} are termination's own; {@link Heartbeat}, {@link Ping}, {@link Pong} and {@link Closing}
 * the transport's.
 */
final class Frames {
    private Frames() {
    }

    /**
     * Create the actor {@code recipe} makes, with the id {@code id} and the name {@code name}, and start it; a
     * selector of {@code mailboxes} mailboxes (-1: an actor).
     */
    record Create(long id, String name, Object recipe, int mailboxes) {
    }

    /**
     * A message for the actor {@code to}: into {@code mailbox}, or routed if -1. {@code request}: the one reply
     * handle the message carried, read with it (not written: it is inside the message), or null.
     */
    record Deliver(long to, int mailbox, Object message, dev.switchboard.actor.ReplyTo<?> request) {
        Deliver(long to, int mailbox, Object message) {
            this(to, mailbox, message, null);
        }
    }

    /**
     * The answer to a request of place {@code to}'s handle {@code id} ({@link RemoteRequests}): a reply, or a
     * failure's class and message; {@code noReply}: the runtime's, as no answer could come.
     */
    record Answer(long id, Object reply, String failureClass, String failureMessage, boolean noReply) {
    }

    /**
     * A failure on place {@code place}, for the program's finish on place 0; {@code actor}: the actor it ended and
     * what that actor was doing, as its {@code ProcessingFailure} says (null: no actor's); {@code lostConnection}:
     * that place lost its connection to another, and the program cannot end as written.
     */
    record Failed(int place, String exceptionClass, String message, String actor, String stackTrace,
                  boolean lostConnection) {
    }

    /**
     * The termination ring's token: sent by place 0 to place 1, passed on to the next place, back to place 0. Each
     * place adds whether it was idle when the token passed, what it has sent and received, and its dead letters.
     */
    record Wave(int round, boolean idle, long sent, long received, long[] deadLetters) {
    }

    /**
     * From place 0 when the program has ended everywhere: close and exit. {@code failures}: what the program's finish
     * threw on place 0, each as the place it happened on reported it (none: the program succeeded), the first of
     * {@code failureCount}.
     */
    record Shutdown(Failed[] failures, long failureCount) {
    }

    /** A liveness probe, either way: the transport answers it with a {@link Pong}. */
    record Ping(long id) {
    }

    /** The answer to the {@link Ping} with the same id. */
    record Pong(long id) {
    }

    /** Place {@code from} watches the actor {@code id} of the place it is sent to ({@link RemoteWatches}). */
    record Watch(long id) {
    }

    /** How the watched actor {@code id} ended: a {@code Terminated.Reason}'s name, and its failure's, if any. */
    record Ended(long id, String reason, String failureClass, String failureMessage) {
    }

    /** From place 0, when its program's finish makes no progress: each place's part of the hang report, please. */
    record ReportRequest(long id) {
    }

    /** A place's part of the hang report {@code id}: what keeps it busy. */
    record Report(long id, int place, String text) {
    }

    /** Sent on every connection every heartbeat interval: the place is alive ({@link FailureDetector}). */
    record Heartbeat() {
    }

    /** Sent before a place closes a connection whose handshake is done: why. */
    record Closing(String reason) {
    }
}

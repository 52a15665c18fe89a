package dev.switchboard.spi;

/**
 * Where the answer to a request that came from another JVM goes ({@link Seam#remoteReplyTo}): the places module
 * implements it, sending the answer back to the requester's place.
 */
public interface RemoteReply {
    /**
     * The replier's answer: {@code reply} ({@code failure} null) or {@code failure}. Called on the replier's
     * thread; must not block for long.
     */
    void answer(Object reply, Throwable failure);

    /** The runtime's answer when none can come: the request became a dead letter, or its processing failed. */
    void gaveUp(Throwable cause);
}

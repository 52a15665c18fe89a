package dev.switchboard.internal;

/**
 * Where the answer to a request from another JVM goes: back to the requester's place ({@code Seam.remoteReplyTo}
 * wraps the places module's {@code RemoteReply} in it, so that the actor package names no spi type).
 */
public interface RemoteAnswer {
    /** The replier's answer: a reply ({@code failure} null) or a failure. */
    void answer(Object reply, Throwable failure);

    /** The runtime's answer when none can come (the request became a dead letter, or its processing failed). */
    void gaveUp(Throwable cause);
}

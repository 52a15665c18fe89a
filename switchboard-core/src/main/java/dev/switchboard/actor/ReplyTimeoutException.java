package dev.switchboard.actor;

import java.io.Serial;
import java.time.Duration;

/**
 * No reply came within the timeout of an {@code awaitReply}: what the handler receives instead of a reply. The
 * message names the actor that waited, the actor it asked and the request. A reply that arrives later is a
 * {@linkplain DeadLetter.Reason#REPLY_TOO_LATE dead letter}.
 */
public final class ReplyTimeoutException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient ActorRef<?> requester;
    private final Duration timeout;

    ReplyTimeoutException(ActorRef<?> requester, ActorRef<?> target, String request, Duration timeout) {
        super(requester + " awaited a reply from " + target + " to " + request + " for " + timeout.toMillis()
                + " ms; none came");
        this.requester = requester;
        this.timeout = timeout;
    }

    /** The actor that waited. */
    public ActorRef<?> requester() {
        return requester;
    }

    /** How long it waited. */
    public Duration timeout() {
        return timeout;
    }
}

package dev.switchboard.actor;

import java.io.Serial;
import java.time.Duration;

/**
 * No reply came within the timeout of an {@link ActorRef#ask} or an {@code awaitReply}: what the future fails
 * with, or the handler receives, instead of a reply. The message names the actor asked, the request, the timeout
 * and who asked (an actor, or the thread outside every actor), the routee a router asked handed the request to,
 * and says so when the actor asked (or that routee) was never started
 * (the request still waits in its mailbox), has exited, or is bound to a monitor that holds messages it has not
 * started (the request may be among them). A reply that arrives later is a
 * {@linkplain DeadLetter.Reason#REPLY_TOO_LATE dead letter}.
 */
public final class ReplyTimeoutException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient ActorRef<?> requester;
    private final transient ActorRef<?> target;
    private final Duration timeout;

    /**
     * {@code thread} names the thread that asked when {@code requester} is null; {@code routedTo}, if not null, is
     * the actor {@code target} handed the request on to (a router's routee, or by {@code ReplyTo.forward}).
     */
    ReplyTimeoutException(ActorRef<?> requester, String thread, ActorRef<?> target, ActorRef<?> routedTo,
            String request, Duration timeout) {
        this(requester, thread, target, routedTo, request, timeout,
                ActorDiagnostics.whyNoReply(routedTo != null ? routedTo : target));
    }

    /** As the other form, with {@code why} (" (...)" or "") in place of the note on the silent actor. */
    ReplyTimeoutException(ActorRef<?> requester, String thread, ActorRef<?> target, ActorRef<?> routedTo,
            String request, Duration timeout, String why) {
        super(target + (routedTo != null ? " (which " + (routes(target) ? "routed it to " : "handed it on to ")
                + routedTo + ")" : "") + " did not reply to "
                + request + " within " + timeout.toMillis() + " ms (asked by "
                + (requester != null ? requester : "thread '" + thread + "'") + ")" + why);
        this.requester = requester;
        this.target = target;
        this.timeout = timeout;
    }

    private static boolean routes(ActorRef<?> target) {
        return target instanceof LocalRef<?> l && l.actor instanceof Router<?>;
    }

    /** The actor that asked, or null if the request was asked from outside every actor. */
    public ActorRef<?> requester() {
        return requester;
    }

    /** The actor that was asked. */
    public ActorRef<?> target() {
        return target;
    }

    /** How long the requester waited. */
    public Duration timeout() {
        return timeout;
    }
}

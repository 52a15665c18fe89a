package dev.switchboard.actor;

import dev.switchboard.internal.RemoteAnswer;

/**
 * The waiter of a {@link ReplyTo} made for a request that came from another JVM ({@code Seam.remoteReplyTo}): the
 * answer, or the runtime's when none can come, goes back to the requester's place, which decides there whether it
 * is still awaited or a dead letter.
 */
record RemoteAnswerWaiter(RemoteAnswer answer) implements ReplyTo.Waiter {
    @Override
    public void answer(Object reply, Throwable failure) {
        answer.answer(reply, failure);
    }

    @Override
    public void gaveUp(Throwable cause) {
        answer.gaveUp(cause);
    }
}

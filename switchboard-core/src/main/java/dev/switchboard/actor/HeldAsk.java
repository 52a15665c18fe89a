package dev.switchboard.actor;

import dev.switchboard.internal.DroppableEffect;
import java.util.concurrent.CancellationException;

/**
 * The request of an {@link ActorRef#ask} that an interceptor holds (a transaction, until it commits): running it
 * sends the request; a failure to send it (a full mailbox that fails, a selector's routing) fails the ask's future
 * instead of the commit; dropped (the attempt rolled back), the future fails saying so. The ask's timeout runs from
 * the ask, so that a wait on a future made from it ends.
 */
final class HeldAsk<M> implements DroppableEffect {
    private final AskFuture<?> future;
    private final ActorCore<M> target;
    private final M message;
    private final ReplyTo<?> replyTo;
    private final int index;

    HeldAsk(AskFuture<?> future, ActorCore<M> target, M message, ReplyTo<?> replyTo, int index) {
        this.future = future;
        this.target = target;
        this.message = message;
        this.replyTo = replyTo;
        this.index = index;
    }

    @Override
    public void run() {
        future.held = false;                           // sent now: a timeout from here on is the target's
        try {
            MailboxAdmission.request(target, new Request(message, replyTo), message, index);
        } catch (RuntimeException notSent) {
            future.notSent(notSent);                   // the ask's own outcome, not its transaction's
        }
    }

    @Override
    public void drop(String why) {
        future.notSent(new CancellationException("the request " + ActorDiagnostics.brief(message) + " to "
                + target + " was not sent: " + why));
    }
}

package dev.switchboard.actor;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The requester's side of {@code awaitReply}, in one object per actor (created by its first {@code awaitReply}):
 * the replies it awaits, for hang reports and for its exit, and the handlers whose reply has arrived, which its
 * activation runs ahead of messages. How many replies are awaited is counted in the actor's status word (the
 * count holds its messages back); this object holds what the count stands for.
 */
final class AwaitedReplies {
    /** Awaited and not yet handled; read by diagnostics from any thread. */
    private final ConcurrentLinkedQueue<PendingReply<?>> awaited = new ConcurrentLinkedQueue<>();
    /** Handlers ready to run: offered by whoever completes the reply, polled by the token's holder. */
    private final MailboxQueue ready = new MailboxQueue(4, ActorCore.MAX_QUEUED);

    void awaiting(PendingReply<?> pending) {
        awaited.add(pending);
    }

    void handled(PendingReply<?> pending) {
        awaited.remove(pending);
    }

    /** Queues a handler whose reply arrived; false if 2^30 are already waiting. */
    boolean offerReady(PendingReply<?> pending) {
        return ready.offer(pending);
    }

    /** The next handler to run, or null. */
    PendingReply<?> pollReady() {
        return (PendingReply<?>) ready.poll();
    }

    boolean hasReady() {
        return !ready.isEmpty();
    }

    /** The awaited replies, oldest first (a weakly consistent view). */
    Iterable<PendingReply<?>> awaited() {
        return awaited;
    }

    /** The actor the oldest unanswered request went to, or null: the next hop of a deadlock search. */
    ActorCore<?> firstUnansweredTarget() {
        for (PendingReply<?> p : awaited) {
            if (!p.answer.isDone() && p.target instanceof LocalRef<?> r) {
                return r.actor;
            }
        }
        return null;
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * The requester's side of {@code awaitReply}, in one object per actor (created by its first {@code awaitReply}):
 * sending the request and holding the actor's messages until the handler has run, the replies it awaits (for hang
 * reports and for its exit), and the handlers whose reply has arrived, which its activation runs ahead of
 * messages. How many replies are awaited is counted in the actor's status word (the count holds its messages
 * back); this object holds what the count stands for.
 */
final class AwaitedReplies {
    /** Awaited and not yet handled; read by diagnostics from any thread. */
    private final ConcurrentLinkedQueue<PendingReply<?>> awaited = new ConcurrentLinkedQueue<>();
    /** Handlers ready to run: offered by whoever completes the reply, polled by the token's holder. */
    private final MailboxQueue ready = new MailboxQueue(4, ActorCore.MAX_QUEUED);

    /**
     * Sends the request {@code request} builds to {@code to}, and holds {@code requester}'s messages until
     * {@code pending}'s handler has run (once its answer is done). Called by the requester's processing.
     */
    static <Q, R> void await(ActorCore<?> requester, ActorRef<Q> to, Function<? super ReplyTo<R>, ? extends Q> request,
            PendingReply<R> pending) {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(request, "request");
        if (to.equals(requester.self)) {
            throw new IllegalArgumentException(requester + ".awaitReply() to itself would wait forever: it takes no"
                    + " message until the reply, and only it could send the reply");
        }
        requester.requireNoPolicy("awaitReply()", "send the reply as a message, or ask() and handle the future");
        requester.scheduler().requireOpen("awaitReply");
        ActorCore<Q> target = ((LocalRef<Q>) to).actor;
        ReplyTo<R> replyTo = new ReplyTo<>(pending, to);
        Q message = replyTo.build(request, target, "awaitReply");
        pending.request = message;
        requester.addAwaited(1);                    // hold further messages until the handler has run
        AwaitedReplies replies = requester.replies();
        replies.awaiting(pending);
        Node context = Context.current();
        pending.hold = new ReplyHold(context.attachChild(), context.scheduler(), pending);
        try {
            target.enqueueRequest(new Request(message, replyTo), message, -1);
        } catch (Throwable t) {                      // not sent (a full bounded mailbox, say): nothing to await
            replies.handled(pending);
            requester.addAwaited(-1);
            pending.hold.tryComplete();
            throw t;
        }
    }

    /**
     * Keeps the finish of the context that awaits a reply open until the handler is queued (a child node that is
     * never run: the answer completes it).
     */
    private static final class ReplyHold extends Node {
        private final PendingReply<?> pending;

        ReplyHold(Node completer, Scheduler scheduler, PendingReply<?> pending) {
            super(completer, scheduler);
            this.pending = pending;
        }

        @Override
        protected void run() {
            throw new AssertionError("a reply hold is completed, never run");
        }

        @Override
        public String describe() {
            return pending.requester + " awaiting a reply from " + pending.target + " to "
                    + ActorDiagnostics.brief(pending.request);
        }

        @Override
        public Object origin() {
            return pending.requester;
        }
    }

    /** Queues a handler whose answer came, to run on the requester's activation, ahead of messages and despite a pause. */
    void ready(ActorCore<?> requester, PendingReply<?> handler) {
        if (!ready.offer(handler)) {
            throw new IllegalStateException(requester + " has " + ActorCore.MAX_QUEUED + " reply handlers waiting to run");
        }
        requester.signal();
    }

    /**
     * Runs the handler of a reply that has arrived, on the requester (called by {@link PendingReply#run()}, which
     * the activation runs ahead of messages). A handler that throws fails the actor, and so does a request that
     * failed, unless the handler takes failures (the form with a timeout).
     */
    void run(ActorCore<?> requester, PendingReply<?> pending) {
        try {
            pending.handle();
        } catch (Throwable t) {
            Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            requester.fail(cause, "the reply to " + ActorDiagnostics.brief(pending.request) + " from "
                    + pending.target + " could not be processed");
        } finally {
            handled(pending);
            requester.addAwaited(-1);
        }
    }

    private void awaiting(PendingReply<?> pending) {
        awaited.add(pending);
    }

    void handled(PendingReply<?> pending) {
        awaited.remove(pending);
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
            if (!p.isDone() && p.target instanceof LocalRef<?> r) {
                return r.actor;
            }
        }
        return null;
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Node;
import dev.switchboard.internal.TimerService;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One {@code awaitReply} of an actor: the request it sent and to whom (for hang reports, which name the target
 * and find cycles of actors awaiting each other), the answer once it came, and the handler, which the actor's
 * activation runs once the answer is there ({@link #run()}). It is the {@link ReplyTo}'s waiter: an answer after
 * the first (the timeout passed) is a dead letter of the requester.
 */
final class PendingReply<R> implements Runnable, ReplyTo.Waiter {
    /*
     * Implementation notes. The answer is taken once, by a CAS of `outcome` from UNSET (the replier's reply, the
     * runtime's give-up or the timeout, whichever comes first). Whoever takes it queues this handler on the
     * requester (its ready queue, then a signal: the same enqueue-then-check as a message), and only then
     * releases `hold`, so the finish cannot end between the answer and the handler's queueing. No task runs in
     * between: the answer goes straight to the requester's activation.
     *
     * The hold: what keeps the requester's finish open until the answer is queued. While the requester is alive
     * its activation does that (it completes only when the actor is released), so a request sent by the actor's
     * own processing needs no node of its own; one sent by a task of the actor gets a child node of that task
     * (`ReplyHold`), set before the request is sent; and when the actor is released with answers still awaited,
     * each gets a node of the actor's finish scope then, in place of a task's node, so that the actor's end is
     * told at once (`AwaitedReplies.holdUnanswered`; in a closed runtime the answers are abandoned instead,
     * `abandonAtEnd`). The field goes null -> node (-> node ...) -> RELEASED, or straight to
     * RELEASED (and a node offered then is completed at once); a node leaves the field once, by the swap that
     * replaces it or by the release, and whoever takes it out completes it, so a node is completed exactly once
     * whichever comes first. A task's node is set before the reply is listed, so the release finds it.
     */
    private static final VarHandle OUTCOME;
    private static final VarHandle HOLD;
    private static final Object UNSET = new Object();
    /** {@link #outcome} of a request that could not be sent, withdrawn before any answer. */
    private static final Object WITHDRAWN = new Object();
    /** {@link #hold} once the answer is queued: a hold set after that is completed at once. */
    private static final Object RELEASED = new Object();

    static {
        try {
            OUTCOME = MethodHandles.lookup().findVarHandle(PendingReply.class, "outcome", Object.class);
            HOLD = MethodHandles.lookup().findVarHandle(PendingReply.class, "hold", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An answer that is a failure. */
    private record Failed(Throwable cause) {
    }

    final ActorCore<?> requester;
    final ActorRef<?> target;
    /** The request, once built. */
    Object request;
    /** The {@code ReplyTo} the answer comes through (set with the request): a timeout reads whom a router chose. */
    ReplyTo<?> replyTo;
    /** UNSET, then the reply or a {@link Failed}. */
    private volatile Object outcome = UNSET;
    /** Null, a node that keeps the requester's finish open until the answer is queued, or RELEASED. */
    private volatile Object hold;
    private final Consumer<? super R> onReply;
    /** The handler of an awaitReply with a timeout, which hears failures too; null for the plain form. */
    private final BiConsumer<? super R, ? super Throwable> onResult;
    /** When the request was sent, for hang reports: the scheduler's rough clock (a watchdog period behind). */
    final long sinceNanos;

    PendingReply(ActorCore<?> requester, ActorRef<?> target, Consumer<? super R> onReply,
            BiConsumer<? super R, ? super Throwable> onResult, long sinceNanos) {
        this.requester = requester;
        this.target = target;
        this.onReply = onReply;
        this.onResult = onResult;
        this.sinceNanos = sinceNanos;
    }

    /**
     * Set by a restart of the requester (its processing, which also runs the handler): the handler belongs to the
     * replaced instance and does not run.
     */
    boolean abandoned;
    /** Whether a task the requester spawned awaits this reply (not its processing); set before it is listed. */
    boolean byTask;
    /** Set by {@link #abandonAtEnd()} before it takes the outcome: a later answer is a dead letter after exit. */
    private volatile boolean requesterEnded;

    /** The timeout, while armed; cancelled by the answer. */
    private volatile ScheduledFuture<?> timeout;

    @Override
    public void answer(Object reply, Throwable failure) {
        if (!complete(reply, failure)) {             // timed out, abandoned by a restart or by the requester's end
            requester.deadLetter(failure == null ? reply : failure, requesterEnded
                    ? DeadLetter.Reason.REPLY_AFTER_EXIT : DeadLetter.Reason.REPLY_TOO_LATE);
        }
    }

    @Override
    public void gaveUp(Throwable cause) {
        complete(null, cause);
    }

    @Override
    public boolean awaited() {
        return outcome == UNSET;
    }

    /** Takes the answer if none was taken, and queues the handler; returns false if an answer came first. */
    private boolean complete(Object reply, Throwable failure) {
        if (!OUTCOME.compareAndSet(this, UNSET, failure == null ? reply : new Failed(failure))) {
            return false;
        }
        cancelTimeout();
        try {
            requester.extras().replies().ready(requester, this);
        } finally {
            releaseHold();
        }
        return true;
    }

    /**
     * Keeps the requester's finish open with {@code node} (a node counted in a task of the requester, or in its
     * finish scope) until the answer is queued, in place of the hold it had, if any, which is completed now; completes
     * {@code node} at once if the answer is queued already.
     */
    void holdWith(Node node) {
        Object h;
        do {
            h = hold;
            if (h == RELEASED) {
                node.tryComplete();                   // the answer came first
                return;
            }
        } while (!HOLD.compareAndSet(this, h, node));
        if (h instanceof Node replaced) {
            replaced.tryComplete();                   // taken out of the field by this swap: completed once, here
        }
    }

    /**
     * The requester has ended without this answer, and nothing will run its handler (the runtime that would is
     * closed): takes the outcome, so that a later answer is a {@code REPLY_AFTER_EXIT} dead letter, and ends the
     * hold. False if the answer came first (its handler is queued, and the requester's drain dead-letters it).
     */
    boolean abandonAtEnd() {
        requesterEnded = true;                        // before the outcome: a later answer reads it after
        if (!OUTCOME.compareAndSet(this, UNSET, WITHDRAWN)) {
            return false;
        }
        cancelTimeout();
        releaseHold();
        return true;
    }

    /**
     * The request could not be sent: takes the outcome so that no answer is queued for it. False if an answer
     * (the runtime giving up on the request while failing to send it) came first, and its handler is queued.
     */
    boolean withdraw() {
        return OUTCOME.compareAndSet(this, UNSET, WITHDRAWN);
    }

    /** Whether a node holds the finish for this reply, or the answer is queued. */
    boolean held() {
        return hold != null;
    }

    /** The answer is queued (or the request was never sent): completes the hold, if any. */
    void releaseHold() {
        if (HOLD.getAndSet(this, RELEASED) instanceof Node n) {
            n.tryComplete();
        }
    }

    /** Whether the answer came. */
    boolean isDone() {
        return outcome != UNSET;
    }

    void cancelTimeout() {
        ScheduledFuture<?> t = timeout;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** Runs the handler on the requester (the activation calls this). */
    @Override
    public void run() {
        requester.extras().replies().run(requester, this);
    }

    /**
     * Fails the answer with a {@link ReplyTimeoutException} after {@code after}, unless it came first (then the
     * timeout is cancelled, by whichever of the two sees the other: both write a volatile, then read the other's).
     */
    void timeoutAfter(Duration after, TimerService timers) {
        try {
            ScheduledFuture<?> t = timers.schedule(ActorTimers.nanos(after), () -> {
                if (!isDone()) {
                    complete(null, new ReplyTimeoutException(requester.self, null, target,
                            replyTo == null ? null : replyTo.routedTo, ActorDiagnostics.brief(request), after));
                }
            });
            timeout = t;
            if (isDone()) {
                t.cancel(false);
            }
        } catch (RejectedExecutionException closed) {   // the runtime closed since the request was sent
            complete(null, new NoReplyException("the runtime of " + requester + " was closed while it awaited a reply"
                    + " from " + target + " to " + ActorDiagnostics.brief(request)).causedByClose(true));
        }
    }

    /**
     * Whether the answer is a failure the close of a runtime caused (the request was dead-lettered by the close, or
     * its timeout refused), which the handler (the plain form, which takes none) would throw.
     */
    boolean failedByTheClose() {
        return onResult == null && outcome instanceof Failed f && f.cause() instanceof NoReplyException n && n.byClose;
    }

    /** Runs the handler with the answer (on the requester); a failure reaches the plain form's caller thrown. */
    @SuppressWarnings("unchecked")
    void handle() {
        Object o = outcome;
        if (onResult == null) {
            if (o instanceof Failed f) {
                throw new CompletionException(f.cause());
            }
            onReply.accept((R) o);
        } else if (o instanceof Failed f) {
            onResult.accept(null, f.cause());
        } else {
            onResult.accept((R) o, null);
        }
    }

    /** What arrived, as a dead letter shows it: the reply, or the reason there is none. */
    Object arrived() {
        Object o = outcome;
        return o instanceof Failed f ? f.cause() : o;
    }
}

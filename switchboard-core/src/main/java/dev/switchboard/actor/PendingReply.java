package dev.switchboard.actor;

import dev.switchboard.internal.TimerService;
import dev.switchboard.task.DataDrivenFuture;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One {@code awaitReply} of an actor: the request it sent and to whom (for hang reports, which name the target
 * and find cycles of actors awaiting each other), the future the answer arrives in, and the handler, which the
 * actor's activation runs once the answer is there ({@link #run()}). It is the {@link ReplyTo}'s waiter: an answer
 * after the future is done (the timeout passed) is a dead letter of the requester.
 */
final class PendingReply<R> implements Runnable, ReplyTo.Waiter {
    final ActorCore<?> requester;
    final ActorRef<?> target;
    /** The request, once built. */
    Object request;
    final DataDrivenFuture<Object> answer = new DataDrivenFuture<>();
    private final Consumer<? super R> onReply;
    /** The handler of an awaitReply with a timeout, which hears failures too; null for the plain form. */
    private final BiConsumer<? super R, ? super Throwable> onResult;
    final long sinceNanos = System.nanoTime();

    PendingReply(ActorCore<?> requester, ActorRef<?> target, Consumer<? super R> onReply,
            BiConsumer<? super R, ? super Throwable> onResult) {
        this.requester = requester;
        this.target = target;
        this.onReply = onReply;
        this.onResult = onResult;
    }

    /** The timeout, while armed; cancelled by the answer. */
    private volatile ScheduledFuture<?> timeout;

    @Override
    public void answer(Object reply, Throwable failure) {
        if (!(failure == null ? answer.tryPut(reply) : answer.tryFail(failure))) {
            requester.deadLetter(failure == null ? reply : failure, DeadLetter.Reason.REPLY_TOO_LATE);
            return;
        }
        cancelTimeout();
    }

    @Override
    public void gaveUp(Throwable cause) {
        if (answer.tryFail(cause)) {
            cancelTimeout();
        }
    }

    private void cancelTimeout() {
        ScheduledFuture<?> t = timeout;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** Runs the handler on the requester (the activation calls this). */
    @Override
    public void run() {
        requester.replies().run(requester, this);
    }

    /**
     * Fails the answer with a {@link ReplyTimeoutException} after {@code after}, unless it came first (then the
     * timeout is cancelled, by whichever of the two sees the other: both write a volatile, then read the other's).
     */
    void timeoutAfter(Duration after, TimerService timers) {
        try {
            ScheduledFuture<?> t = timers.schedule(ActorCore.nanos(after), () -> {
                if (!answer.isDone()) {
                    answer.tryFail(new ReplyTimeoutException(requester.self, null, target,
                            ActorDiagnostics.brief(request), after));
                }
            });
            timeout = t;
            if (answer.isDone()) {
                t.cancel(false);
            }
        } catch (RejectedExecutionException closed) {   // the runtime closed since the request was sent
            answer.tryFail(new NoReplyException("the runtime of " + requester + " was closed while it awaited a reply"
                    + " from " + target + " to " + ActorDiagnostics.brief(request)));
        }
    }

    @SuppressWarnings("unchecked")
    void handle() {
        if (onResult == null) {
            onReply.accept((R) answer.get());
            return;
        }
        R reply;
        try {
            reply = (R) answer.get();
        } catch (CompletionException e) {
            onResult.accept(null, e.getCause() != null ? e.getCause() : e);
            return;
        }
        onResult.accept(reply, null);
    }

    /** What arrived, as a dead letter shows it: the reply, or the reason there is none. */
    Object arrived() {
        try {
            return answer.get();
        } catch (CompletionException e) {
            return e.getCause() != null ? e.getCause() : e;
        }
    }
}

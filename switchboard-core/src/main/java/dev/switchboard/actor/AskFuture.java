package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.HangReports;
import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import dev.switchboard.internal.Threads;
import dev.switchboard.internal.TimerService;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * The future an {@link ActorRef#ask} returns, and the waiter of its {@link ReplyTo}: completed by the reply, by a
 * failure (the replier's, or a {@link NoReplyException} when the runtime gives up on the request), or by its
 * timeout; a reply after that is a dead letter of the actor asked. The timeout is cancelled when the answer comes
 * first, so that a timer full of long timeouts does not keep answered requests.
 *
 * <p>A {@code CompletableFuture} runs the dependent actions registered without an executor on the thread that
 * completes it: here the replier's worker, or the runtime's timer thread. They run in the runtime's global scope,
 * as work outside every finish: not in the replier's context, where an {@code async} or {@code start()} of theirs
 * would join the replier's finish.
 */
final class AskFuture<R> extends CompletableFuture<R> implements ReplyTo.Waiter {
    /** The actor asked. */
    private final ActorRef<?> target;
    /** It, if it is of this JVM; null for an actor of another place. */
    private final ActorCore<?> local;
    /** For an actor of another place: the runtime of its route, whose timers and dead letters the ask uses. */
    private final Scheduler remote;
    private volatile ScheduledFuture<?> timeout;
    /**
     * The {@code ReplyTo} the answer comes through, holding the request (set once it is built, after the future):
     * {@link #toString} reads the request racily, for diagnostics, and a timeout whom a router chose.
     */
    private ReplyTo<?> replyTo;
    /**
     * True while a transaction holds the request, to send it when it commits ({@link HeldAsk}): a timeout then says
     * the request was never sent.
     */
    volatile boolean held;

    private AskFuture(ActorCore<?> target) {
        this.target = target.self;
        this.local = target;
        this.remote = null;
    }

    private AskFuture(RemoteRef<?> target, Scheduler runtime) {
        this.target = target;
        this.local = null;
        this.remote = runtime;
    }

    /**
     * {@link ActorRef#ask}: builds the request around a fresh {@link ReplyTo}, sends it to {@code target} into
     * mailbox {@code index} (or where it routes, if -1), and arms the timeout.
     */
    /** A broadcast router gives a request to every routee, each of which would answer it: refused. */
    static void requireNotBroadcast(ActorCore<?> target, String op) {
        if (target instanceof Router<?> r && r.broadcasts()) {
            throw new UnsupportedOperationException(op + " to " + target + ", a broadcast router, would be answered by"
                    + " every routee: ask one routee, or broadcast a message carrying an ActorRef for the answers");
        }
    }

    static <M, R> CompletableFuture<R> ask(ActorCore<M> target, Function<? super ReplyTo<R>, ? extends M> request,
            Duration timeout, int index) {
        Objects.requireNonNull(request, "request");
        ActorTimers.requirePositive(target, timeout, "ask");
        requireNotBroadcast(target, "ask");
        AskFuture<R> future = new AskFuture<>(target);
        ReplyTo<R> replyTo = new ReplyTo<>(future, target.self);
        M message = replyTo.build(request, target, "ask");
        future.replyTo = replyTo;
        Interceptor holder = SendInterception.interceptor();
        boolean held = false;
        if (holder != null) {
            future.held = true;                        // before the transaction can run it (it sends, then clears)
            held = holder.interceptEffect(new HeldAsk<>(future, target, message, replyTo, index));
            if (!held) {
                future.held = false;
            }
        }
        if (!held) {                                   // else a transaction sends it when it commits
            MailboxAdmission.request(target, new Request(message, replyTo), message, index);
        }
        future.timeoutAfter(timeout, message, requester());
        return future;
    }

    /** Fails {@code op} if this thread may not wait (a transaction's) and the answer has not come. */
    private void requireMayWait(String op) {
        requireMayWait(this, op, target);
    }

    /**
     * Fails {@code op} on {@code future} if this thread may not wait and it is not done: the answer to an ask of
     * {@code target}, or (null) a future made from an ask's.
     */
    private static void requireMayWait(CompletableFuture<?> future, String op, ActorRef<?> target) {
        if (SendInterception.used() && !future.isDone()) {
            SendInterception.requireMayBlock(op + " on " + (target != null ? "the answer to an ask of " + target
                    : "a future made from an ask's"));
        }
    }

    /**
     * {@link ActorRef#ask} of an actor of another place: the request goes through its route, with a
     * {@link ReplyTo} the places module writes as a handle its place answers through; the timeout runs on the
     * route's runtime.
     *
     * @throws UnsupportedOperationException if the route's JVM takes no requests
     */
    static <M, R> CompletableFuture<R> ask(RemoteRef<M> target, Function<? super ReplyTo<R>, ? extends M> request,
            Duration timeout, int index) {
        Objects.requireNonNull(request, "request");
        Scheduler runtime = target.route.scheduler();
        if (runtime == null) {
            throw target.requestRefused("ask()");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("ask() of " + target + " needs a positive timeout, not " + timeout);
        }
        AskFuture<R> future = new AskFuture<>(target, runtime);
        ReplyTo<R> replyTo = new ReplyTo<>(future, target);
        M message = replyTo.build(request, target, "ask");
        try {
            target.route(index, message);
        } catch (RuntimeException | Error notSent) {
            future.settle(null, notSent);              // no longer awaited: its place may drop the handle
            throw notSent;
        }
        future.timeoutAfter(timeout, message, requester());
        return future;
    }

    /** The actor whose processing asks, or null outside every actor. */
    private static ActorRef<?> requester() {
        Node n = Context.current();
        return n != null && n.owner() instanceof ActorCore<?> a ? a.self : null;
    }

    /** The runtime whose timers, scheduler and dead letters this ask uses, or null if none (an actor not started). */
    private Scheduler runtime() {
        return local != null ? local.scheduler() : remote;
    }

    /*
     * The blocking reads wait as a CompletableFuture's do, except under a deterministic scheduler (a test's), where
     * only the test's thread runs the program: there they run it until the answer comes, or fail at once inside an
     * actor's turn (Scheduler.awaitIfDeterministic). Where waiting is refused (inside a transaction, which may run
     * several times and sends its requests when it commits) an unanswered one fails at once, and so does one of a
     * future made from this one (thenApply, ...: Derived), which otherwise waits as a plain one does.
     *
     * A thread of a runtime (a finish's body, a task, an actor's turn) that blocks on an unanswered ask is listed
     * among the runtime's blocked gets while it waits: a hang report names it with the finish it belongs to, and a
     * finish's body blocked for the report's period gets a stall report, as one blocked in a DataDrivenFuture's
     * get() does.
     */
    @Override
    public R get() throws InterruptedException, java.util.concurrent.ExecutionException {
        awaitIfDeterministic("get()");
        HangReports.BlockedGet blocked = blockedHere();
        try {
            return super.get();
        } finally {
            unblocked(blocked);
        }
    }

    @Override
    public R get(long timeout, java.util.concurrent.TimeUnit unit)
            throws InterruptedException, java.util.concurrent.ExecutionException,
            java.util.concurrent.TimeoutException {
        awaitIfDeterministic("get(timeout)");
        HangReports.BlockedGet blocked = blockedHere();
        try {
            return super.get(timeout, unit);
        } finally {
            unblocked(blocked);
        }
    }

    @Override
    public R join() {
        awaitIfDeterministic("join()");
        HangReports.BlockedGet blocked = blockedHere();
        try {
            return super.join();
        } finally {
            unblocked(blocked);
        }
    }

    /** Lists this thread as blocked on this ask, if it works in a runtime and the answer has not come; else null. */
    private HangReports.BlockedGet blockedHere() {
        Node n;
        if (isDone() || (n = Context.current()) == null) {
            return null;
        }
        return n.scheduler().hangReports().blockedInGet(n, this, AskFuture.class);
    }

    private static void unblocked(HangReports.BlockedGet blocked) {
        if (blocked != null) {
            blocked.node().scheduler().hangReports().unblocked(blocked);
        }
    }

    private void awaitIfDeterministic(String op) {
        requireMayWait(op);
        Scheduler s;
        if (!isDone() && (s = local != null ? local.scheduler : remote) != null) {
            s.awaitIfDeterministic("a blocking " + op + " of an ask of " + target, this::isDone);
        }
    }

    @Override
    public void answer(Object reply, Throwable failure) {
        if (!settle(reply, failure)) {
            if (local != null) {
                local.deadLetter(failure == null ? reply : failure, DeadLetter.Reason.REPLY_TOO_LATE);
            } else {
                DeadLetterRouting.routeRemote(remote, target, failure == null ? reply : failure,
                        DeadLetter.Reason.REPLY_TOO_LATE);
            }
        }
    }

    /** Its request was not sent (held, then dropped or refused): fails it with {@code cause}, if not done. */
    void notSent(Throwable cause) {
        settle(null, cause);
    }

    @Override
    public void gaveUp(Throwable cause) {
        settle(null, cause);
    }

    @Override
    public boolean awaited() {
        return !isDone();
    }

    /**
     * Completes the future in the global scope of the runtime (see the class comment) and cancels the timeout;
     * returns false if it was done already.
     */
    @SuppressWarnings("unchecked")
    private boolean settle(Object reply, Throwable failure) {
        Scheduler s = runtime();
        if (s == null) {
            Node n = Context.current();
            s = n == null ? null : n.scheduler();
        }
        Thread thread = Thread.currentThread();
        Node previous = s == null ? null : Context.enter(thread, s.globalScope());
        boolean done;
        try {
            done = failure == null ? complete((R) reply) : completeExceptionally(failure);
        } finally {
            if (s != null) {
                Context.restore(thread, previous);
            }
        }
        if (done) {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
        }
        return done;
    }

    /** Arms the timeout (after the request was sent); cancels it at once if the answer came meanwhile. */
    private void timeoutAfter(Duration after, Object request, ActorRef<?> requester) {
        String thread = requester == null ? Threads.name(Thread.currentThread()) : null;
        try {
            TimerService timers = local != null ? ActorTimers.timers(local) : remote.timers();
            ScheduledFuture<?> t = timers.schedule(ActorTimers.nanos(after), () -> settle(null, held
                    ? new ReplyTimeoutException(requester, thread, target, null, ActorDiagnostics.brief(request), after,
                            ": the request was never sent: the transaction that asked holds it until it commits, and it"
                            + " had not (a transaction may not wait for the answer to its own ask)")
                    : new ReplyTimeoutException(requester, thread, target, replyTo == null ? null : replyTo.routedTo,
                            ActorDiagnostics.brief(request), after)),
                    () -> settle(null, new NoReplyException("runtime '" + timers.name() + "' was closed before "
                            + target + " replied to " + ActorDiagnostics.brief(request))));
            timeout = t;
            if (isDone()) {
                t.cancel(false);
            }
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            settle(null, new NoReplyException("the runtime of " + target + " was closed before the reply"
                    + " to " + ActorDiagnostics.brief(request) + " came"));
        }
    }

    /** Cancels the future, and its timeout with it; a reply that comes later is a dead letter. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        ScheduledFuture<?> t = timeout;
        if (cancelled && t != null) {
            t.cancel(false);
        }
        return cancelled;
    }

    /** Futures made from this one ({@code thenApply}, ...) refuse to wait where this one does. */
    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new Derived<>();
    }

    /**
     * A future made from an ask's: plain, but a blocking read of it unanswered inside a transaction fails as the
     * ask's own does (the ask's request is sent only at the commit, so it would wait for ever).
     */
    private static final class Derived<U> extends CompletableFuture<U> {
        @Override
        public U get() throws InterruptedException, java.util.concurrent.ExecutionException {
            requireMayWait("get()");
            return super.get();
        }

        @Override
        public U get(long timeout, java.util.concurrent.TimeUnit unit) throws InterruptedException,
                java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
            requireMayWait("get(timeout)");
            return super.get(timeout, unit);
        }

        @Override
        public U join() {
            requireMayWait("join()");
            return super.join();
        }

        @Override
        public <V> CompletableFuture<V> newIncompleteFuture() {
            return new Derived<>();
        }

        private void requireMayWait(String op) {
            AskFuture.requireMayWait(this, op, null);
        }
    }

    /** "the ask of WhoAreYou[...] to shop@2 (not answered yet)": what a test's failed wait for it names. */
    @Override
    public String toString() {
        ReplyTo<?> to = replyTo;
        Object r = to == null ? null : to.request;
        return "the ask of " + (r == null ? "a request" : ActorDiagnostics.brief(r)) + " to " + target + " ("
                + (!isDone() ? "not answered yet" : isCompletedExceptionally() ? "failed" : "answered") + ")";
    }
}

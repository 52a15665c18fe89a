package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Scope;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
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
    private static final VarHandle FIRST;

    static {
        try {
            FIRST = MethodHandles.lookup().findVarHandle(AwaitedReplies.class, "first", PendingReply.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /*
     * The awaited replies are added and removed by the requester's processing and by tasks it spawned (which may
     * run beside it), and read by diagnostics from any thread. Most actors await one reply at a time: that one is
     * the field `first`, taken and given back by CAS; further ones go to the queue `more`, created on first use.
     * A reply becomes `first` only while `more` is empty, so when one thread awaits, `first` is older than every
     * reply in `more`.
     */
    /*
     * Besides diagnostics, the release of the actor reads the list (holdUnanswered): it must hold every reply the
     * actor's own processing awaits, and it does, as the token's holder writes those before it releases.
     */
    /** An awaited reply not yet handled, or null. */
    private volatile PendingReply<?> first;
    /** The other awaited replies not yet handled; null until two are awaited at once. */
    private volatile ConcurrentLinkedQueue<PendingReply<?>> more;
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
        OwnerChecks.requireNoPolicy(requester, "awaitReply()",
                "send the reply as a message, or ask() and handle the future");
        Activation exiting = requester.activation();
        if (exiting != null && exiting.inExitHook && Context.current() == exiting) {
            throw new IllegalStateException(requester + ".awaitReply() in its onExit(): its handler could never run,"
                    + " the actor has ended (ask() and handle the future, or send the request with a plain send)");
        }
        requester.scheduler().requireOpen("awaitReply");
        ActorCore<Q> target = null;
        if (to instanceof RemoteRef<?> remote) {
            if (remote.route.scheduler() == null) {
                throw remote.requestRefused("awaitReply()");
            }
        } else {
            target = ((LocalRef<Q>) to).actor;
            AskFuture.requireNotBroadcast(target, "awaitReply");
        }
        ReplyTo<R> replyTo = new ReplyTo<>(pending, to);
        Q message = replyTo.build(request, to, "awaitReply");
        pending.request = message;
        pending.replyTo = replyTo;
        requester.addAwaited(1);                    // hold further messages until the handler has run
        Node context = Context.current();
        if (context != requester.activation()) {    // a task of the actor: it must not complete before the answer
            // before the reply is listed: a release of the actor running now must find it held already
            pending.byTask = true;
            pending.holdWith(new ReplyHold(context.attachChild(), context.scheduler(), pending));
        }
        AwaitedReplies replies = requester.extras().replies();
        replies.awaiting(pending);
        try {
            if (target != null) {
                MailboxAdmission.request(target, new Request(message, replyTo), message, -1);
            } else {
                ((RemoteRef<Q>) to).route(-1, message);    // its place answers through the ReplyTo inside
            }
        } catch (Throwable t) {                      // not sent (a full bounded mailbox, say): nothing to await
            if (pending.withdraw()) {                // else it was answered (given up) first: its handler undoes
                replies.handled(pending);
                requester.addAwaited(-1);
            }
            pending.releaseHold();
            throw t;
        }
    }
    /** The replies {@code actor} awaits, or null if it never awaited one. */
    static AwaitedReplies of(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        return x == null ? null : x.replies;
    }

    /**
     * On release (the token held, before the activation completes): until now the activation kept the finish open
     * for the answers the actor's processing awaits; they get holds of their own.
     */
    static void holdUnansweredOf(ActorCore<?> actor) {
        AwaitedReplies r = of(actor);
        if (r != null) {
            r.holdUnanswered(actor.activation());
        }
    }


    /**
     * The requester is being released (it has terminated; the token's holder, before its activation completes):
     * the answers it still awaits must keep its finish open until they are queued, as its activation did so far,
     * but not the actor's end, which is told now (its watchers, {@code whenTerminated}). Each gets a hold on the
     * actor's finish scope, in place of the hold of a task that awaits it; a hang report names it. An answer
     * queued after the release becomes a {@code REPLY_AFTER_EXIT} dead letter when the token is next taken, which
     * may be just after the finish has ended. In a closed runtime nothing waits for them: they are abandoned (here,
     * or by the close, which finds the holds on the scope's tracked list), and a later answer is that dead letter
     * at once.
     */
    void holdUnanswered(Node activation) {
        Scope finish = null;
        for (PendingReply<?> p : awaited()) {
            if (p.isDone()) {
                continue;                                // queued: the drain dead-letters it
            }
            if (finish == null) {
                finish = activation.scope();
            }
            ReplyHold hold = new ReplyHold(finish, activation.scheduler(), p);   // allocate before counting
            finish.addToPendingCount(1);                 // the scope is open: the activation below it still is
            p.holdWith(hold);                            // from here the count is the field's to give back
            try {
                finish.track(hold);                      // for hang reports, and for a close to find it
            } catch (Throwable noMemory) {
                // the report misses this hold; the finish still waits for it
            }
            if (activation.scheduler().isClosed()) {
                abandonAtEnd(p);                         // closed before, or the close walked the tracked nodes first
            }
        }
    }

    /** Nothing will run {@code p}'s handler (its runtime is closed): abandons it, unless its answer came first. */
    private void abandonAtEnd(PendingReply<?> p) {
        if (p.abandonAtEnd()) {
            handled(p);
        }
    }

    /**
     * Keeps the finish of the context that awaits a reply open until the handler is queued (a node that is never
     * run: the answer completes it). Tracked by its scope once it holds the scope itself, so that a hang report
     * names a reply awaited by an actor that has ended.
     */
    static final class ReplyHold extends Node {
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

        /** Set when this hold completes: not isDone(), which a CountedCompleter with a completer never sets. */
        private volatile boolean completed;

        @Override
        public void onCompletion(java.util.concurrent.CountedCompleter<?> caller) {
            completed = true;
            super.onCompletion(caller);
        }

        @Override
        public boolean isOpen() {
            return !completed;
        }

        @Override
        protected void runtimeClosed() {
            pending.requester.extras().replies().abandonAtEnd(pending);
        }

        /** While the requester lives its own entry names the reply; once it has ended, this one does. */
        @Override
        public String describeIfOpen(long nowNanos) {
            if (completed || pending.requester.isOpen()) {
                return null;
            }
            return "actor " + pending.requester + " has ended, and its finish waits for the reply it awaited from "
                    + pending.target + " to " + ActorDiagnostics.brief(pending.request) + ", for "
                    + ActorDiagnostics.duration(nowNanos - pending.sinceNanos)
                    + ActorDiagnostics.whyNoReply(pending.target) + ": nothing will handle it (it will be a dead"
                    + " letter), and whoever holds the request's ReplyTo may still answer; an awaitReply with a"
                    + " timeout ends such a wait";
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
        handled(pending);            // no longer awaited: its handler runs now (and may await again in its place)
        if (pending.abandoned) {     // by a restart, after its answer came: the handler is the old instance's
            requester.addAwaited(-1);
            requester.deadLetter(pending.arrived(), DeadLetter.Reason.REPLY_TOO_LATE);
            return;
        }
        if (pending.failedByTheClose()) {
            // the request failed because the runtime is closing (its target was terminated by the close, after the
            // close stopped the waiting finishes): the close ends this actor too, as it ends every actor, rather
            // than the failure thrown in its handler
            requester.addAwaited(-1);
            ActorTermination.terminateByClose(requester);
            return;
        }
        try {
            pending.handle();
        } catch (Throwable t) {
            Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            ActorFailures.fail(requester, cause, "the reply to " + ActorDiagnostics.brief(pending.request) + " from "
                    + pending.target + " could not be processed", "handling the reply to "
                    + ActorDiagnostics.withArticle(ActorDiagnostics.typeOf(pending.request)) + " from "
                    + pending.target);
        } finally {
            requester.addAwaited(-1);
        }
    }

    private void awaiting(PendingReply<?> pending) {
        ConcurrentLinkedQueue<PendingReply<?>> m = more;
        if ((m == null || m.isEmpty()) && FIRST.compareAndSet(this, (PendingReply<?>) null, pending)) {
            return;
        }
        if (m == null) {
            synchronized (this) {                     // once per actor: the first time two are awaited at once
                m = more;
                if (m == null) {
                    more = m = new ConcurrentLinkedQueue<>();
                }
            }
        }
        m.add(pending);
    }

    void handled(PendingReply<?> pending) {
        if (!FIRST.compareAndSet(this, pending, (PendingReply<?>) null)) {
            ConcurrentLinkedQueue<PendingReply<?>> m = more;     // not first: it went to `more`
            if (m != null) {
                m.remove(pending);
            }
        }
    }

    /** The next handler (a {@link PendingReply}) or control action ({@link ControlAction}) to run, or null. */
    Runnable pollReady() {
        return (Runnable) ready.poll();
    }

    /**
     * Queues {@code action} to run on {@code actor}'s processing ahead of its messages and despite a pause, as a
     * reply's handler does: the runtime's own actions for the actor (a supervisor's restart after its backoff, a
     * failure a child escalated).
     */
    static void control(ActorCore<?> actor, ControlAction action) {
        AwaitedReplies r = actor.extras().replies();
        if (!r.ready.offer(action)) {
            throw new IllegalStateException(actor + " has " + ActorCore.MAX_QUEUED + " handlers waiting to run");
        }
        actor.signal();
    }

    /**
     * A restart of {@code actor} (its processing, the token held) abandons the replies its processing awaits: their
     * handlers belong to the instance it replaces and never run. Each stops holding the actor's messages now; its
     * answer, when it comes, is a {@code REPLY_TOO_LATE} dead letter. Replies awaited by tasks the actor spawned
     * are left to those tasks.
     */
    static void abandon(ActorCore<?> actor) {
        AwaitedReplies r = of(actor);
        if (r == null) {
            return;
        }
        for (PendingReply<?> p : r.awaited()) {
            if (p.byTask) {
                continue;                                // a task's: it holds that task, which goes on
            }
            p.abandoned = true;
            if (p.withdraw()) {                          // no answer yet: a later one finds the outcome taken
                p.cancelTimeout();
                r.handled(p);
                actor.addAwaited(-1);
            }                                            // else its handler is queued, and run() drops it
        }
    }

    boolean hasReady() {
        return !ready.isEmpty();
    }

    /** The awaited replies, oldest first when one thread awaits (a weakly consistent view, for diagnostics). */
    List<PendingReply<?>> awaited() {
        List<PendingReply<?>> all = new ArrayList<>();
        PendingReply<?> f = first;
        if (f != null) {
            all.add(f);
        }
        ConcurrentLinkedQueue<PendingReply<?>> m = more;
        if (m != null) {
            all.addAll(m);
        }
        return all;
    }

    /** The actor the oldest unanswered request went to, or null: the next hop of a deadlock search. */
    ActorCore<?> firstUnansweredTarget() {
        for (PendingReply<?> p : awaited()) {
            if (!p.isDone() && p.target instanceof LocalRef<?> r) {
                return r.actor;
            }
        }
        return null;
    }
}

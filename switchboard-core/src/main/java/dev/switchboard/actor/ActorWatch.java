package dev.switchboard.actor;

import dev.switchboard.internal.SafeText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Death watch: who watches an actor ({@code ActorCore.watch}, {@link ActorRef#whenTerminated()}), and telling them
 * when it ends. A watcher's message is made from the {@link Terminated} and sent to it by the thread that completes
 * the watched actor's activation, once the actor and every task it spawned have ended: after its last processed
 * message (a stateless actor's too), after what its {@code onExit()} sent, and never twice. A watcher that ends
 * first stops watching: a message of its watches still queued when it ends, or sent as it ends, is dropped (not a
 * dead letter).
 *
 * <p>Owns the extras' {@code watchers} (of the actor watched, by the watcher's id) and {@code watching} (the actors an
 * actor watches, each with its watch until the watcher has taken its message) fields. May touch the watcher's mailbox,
 * through {@link MailboxAdmission}, and fail the watcher when its mapping throws.
 */
final class ActorWatch {
    /*
     * Implementation notes. Who tells a watcher is decided under the lock of the watched actor's Watchers: the
     * ending thread sets GONE in the status word with an atomic read-modify-write (the one that publishes RELEASED,
     * when no child of the actor is alive then; otherwise one of its own, in the activation's completion), then
     * reads the extras' watchers and takes every entry out under the lock and tells each; a watcher puts its entry
     * in under the lock, then reads GONE, and if it is set takes its own entry back out and tells itself. Whoever
     * removes an entry tells it, so it is told at most once. It is told at least once: the status word and the
     * watchers field are volatile, so if the watcher's read of GONE came before the ender's write, the ender's
     * later read of the watchers finds the entry the watcher put in before that read. The same goes for the
     * future of whenTerminated(). A watch is never told while another watcher's is being made (each is told in a
     * try of its own), and nothing here throws into the activation's completion.
     */

    private ActorWatch() {
    }

    /** The watchers of one actor and the future of its {@code whenTerminated()}; guarded by this object. */
    static final class Watchers {
        private final Map<Long, Watch> byWatcher = new LinkedHashMap<>();
        /** Completed once the actor has ended; made by the first whenTerminated(). */
        private CompletableFuture<Terminated> end;
        /** What every whenTerminated() returns: a view of {@code end} that callers cannot complete. */
        private CompletionStage<Terminated> stage;

        /** How many actors watch, for tests and diagnostics. */
        synchronized int watchers() {
            return byWatcher.size();
        }
    }

    /**
     * A watch: the watcher's cell, the mapping of its message, and its mailbox (-1: where the message routes). The
     * watcher keeps it in {@code home} (its map of the actors it watches, or of the watches of actors of other
     * places) under {@code key} until the watch's message has been taken, so that an unwatch or a new watch can take
     * a message that is on its way or queued back ({@link #revoke}). Taking the message and taking it back exclude
     * each other under this watch's lock: once a take-back has returned, the message is not processed.
     */
    static final class Watch implements RevocableMessage.Sender {
        final ActorCore<?> watcher;
        final Function<? super Terminated, ?> message;
        final int mailbox;
        private final Map<?, Watch> home;
        private final Object key;
        private boolean taken;                 // guarded by this: the watcher took its message
        private boolean revoked;               // guarded by this
        private boolean told;                  // guarded by this: its notice was made (see firstTell)

        Watch(ActorCore<?> watcher, Function<? super Terminated, ?> message, int mailbox, Map<?, Watch> home,
                Object key) {
            this.watcher = watcher;
            this.message = message;
            this.mailbox = mailbox;
            this.home = home;
            this.key = key;
        }

        /**
         * The watcher is about to process the message (or to fail for a mapping that threw): whether to, unless it was
         * taken back. The watcher no longer keeps the watch.
         */
        @Override
        public boolean deliver() {
            forget();
            synchronized (this) {
                if (revoked) {
                    return false;
                }
                taken = true;
                return true;
            }
        }

        /**
         * Unwatched or replaced, or the watcher has ended: dropped, neither processed nor a dead letter (a notice
         * queued when the watcher ends, or sent as it ends, is not one it could still want, as its timers' are not).
         */
        @Override
        public boolean takenBack() {
            return watcher.isTerminated() || isRevoked();
        }

        @Override
        public void undelivered() {
            forget();
        }

        /** Unwatched or replaced: returns whether its message was still to be processed, which it now is not. */
        synchronized boolean revoke() {
            boolean pending = !taken && !revoked;
            revoked = true;
            return pending;
        }

        synchronized boolean isRevoked() {
            return revoked;
        }

        /**
         * Whether this is the first call: a watch of an actor of another place may be told by two completions (the
         * watcher's own, and one a new watch added as the old one fired), and is told once.
         */
        synchronized boolean firstTell() {
            boolean first = !told;
            told = true;
            return first;
        }

        /** The watcher no longer keeps it: its message was taken, or will never be. */
        void forget() {
            home.remove(key, this);
        }
    }

    /**
     * {@code watcher} watches {@code target}: when the target ends, {@code message} makes the message the watcher
     * receives in mailbox {@code mailbox} (or where it routes, if -1). Watching again replaces the mapping. An
     * actor that has ended already is told at once.
     */
    static void watch(ActorCore<?> watcher, ActorRef<?> target, Function<? super Terminated, ?> message,
            int mailbox) {
        ActorCore<?> self = watcher.cell();
        Objects.requireNonNull(target, () -> "null actor given to watch() of " + self);
        Objects.requireNonNull(message, () -> "null message mapping given to watch() of " + self);
        OwnerChecks.requireOwnContextOnceStarted(self, "watch");
        if (target instanceof RemoteRef<?> remote) {
            watchRemote(self, remote, message, mailbox);
            return;
        }
        ActorCore<?> t = local(target, "watch");
        if (t == self) {
            throw new IllegalArgumentException(self + " cannot watch itself: its onExit() runs when it ends");
        }
        Map<ActorCore<?>, Watch> watching = self.extras().watching();
        Watch w = new Watch(self, message, mailbox, watching, t);
        // kept first: once registered below, its message may be sent and taken at once (by another message task),
        // and the take must find it here to forget it
        Watch replaced = watching.put(t, w);
        if (replaced != null) {
            replaced.revoke();           // a message of it on the way or queued is not processed: this one replaces it
        }
        Watchers ws = watchersOf(t);
        synchronized (ws) {
            ws.byWatcher.put(self.self.id(), w);
        }
        boolean gone = t.isGone();
        if (gone || !self.isOpen()) {    // the target has ended; or this watcher has, from a task it spawned
            boolean mine;
            synchronized (ws) {
                mine = ws.byWatcher.remove(self.self.id(), w);
            }
            if (mine && gone) {
                tell(w, endOf(t));
            } else if (mine) {
                w.forget();
            }
        }
    }

    /**
     * {@code watcher} no longer watches {@code target}, and a message of the watch that is on its way or queued is
     * not processed; returns whether a message was still to come (false if it never watched, or took the message).
     */
    static boolean unwatch(ActorCore<?> watcher, ActorRef<?> target) {
        ActorCore<?> self = watcher.cell();
        Objects.requireNonNull(target, () -> "null actor given to unwatch() of " + self);
        OwnerChecks.requireOwnContextOnceStarted(self, "unwatch");
        ActorExtras mine = self.extrasOrNull();
        if (target instanceof RemoteRef<?> remote) {
            Watch w = mine == null || mine.remoteWatches == null ? null : mine.remoteWatches.remove(remote.id());
            return w != null && w.revoke();
        }
        ActorCore<?> t = local(target, "unwatch");
        ActorExtras x = t.extrasOrNull();
        Watchers ws = x == null ? null : x.watchers;
        if (ws != null) {
            synchronized (ws) {
                ws.byWatcher.remove(self.self.id());
            }
        }
        Watch w = mine == null || mine.watching == null ? null : mine.watching.remove(t);
        return w != null && w.revoke();
    }

    /**
     * {@code watcher} watches an actor of another place: its route tells when it ends (or its place is lost), and
     * the watcher is told as of a local one, unless it unwatched or ended first; watched again, it is told with its
     * latest watch. One action per watcher and target waits on the route's stage, whatever the watcher's watches and
     * unwatches meanwhile: it tells the watch current when the target ends.
     */
    private static void watchRemote(ActorCore<?> watcher, RemoteRef<?> target, Function<? super Terminated, ?> message,
            int mailbox) {
        CompletionStage<?> end = target.route.whenTerminated(target);
        if (end == null) {
            throw new UnsupportedOperationException("watch() of " + target + ", an actor of another JVM, is not"
                    + " supported by its route: have it tell you from its onExit()");
        }
        Map<Long, Watch> watches = watcher.extras().remoteWatches();
        Watch w = new Watch(watcher, message, mailbox, watches, target.id());
        Watch replaced = watches.put(target.id(), w);
        if (replaced != null) {
            replaced.revoke();
        }
        Set<Long> listening = watcher.extras().remoteEndsAwaited();
        if (listening.add(target.id())) {
            end.thenAccept(t -> {
                listening.remove(target.id());          // first: a watch put after this adds an action of its own
                Watch current = watches.get(target.id());
                if (current != null && !current.isRevoked() && current.firstTell()) {   // else unwatched or ended
                    tell(current, (Terminated) t);
                }
            });
        }
    }

    /** {@link ActorRef#whenTerminated()} of an actor of another place: as its route tells. */
    static CompletionStage<Terminated> whenTerminated(RemoteRef<?> target) {
        CompletionStage<?> end = target.route.whenTerminated(target);
        if (end == null) {
            throw new UnsupportedOperationException("whenTerminated() of " + target + ", an actor of another JVM, is"
                    + " not supported by its route: have it tell you from its onExit()");
        }
        @SuppressWarnings("unchecked")               // the route completes it with a Terminated
        CompletionStage<Terminated> stage = (CompletionStage<Terminated>) end;
        return stage;
    }

    /**
     * {@link ActorRef#whenTerminated()} of a local actor: completes once it has ended. Every call returns the same
     * stage, so that code that asks for it again and again (a health check per request) registers nothing.
     */
    static CompletionStage<Terminated> whenTerminated(ActorCore<?> target) {
        Watchers ws = watchersOf(target);
        CompletableFuture<Terminated> end;
        CompletionStage<Terminated> stage;
        synchronized (ws) {
            if (ws.end == null) {
                ws.end = new CompletableFuture<>();
                ws.stage = ws.end.minimalCompletionStage();
            }
            end = ws.end;
            stage = ws.stage;
        }
        if (target.isGone() && !end.isDone()) {
            end.complete(endOf(target));         // the ender may have taken the watchers before the future was there
        }
        return stage;
    }

    /**
     * {@code actor} and every task it spawned have ended (called once, by the thread that completes its activation,
     * or by a refused start): it stops watching others, and its watchers are told. {@code markedGone}: the caller
     * has set GONE already (with RELEASED); otherwise it is set here. Never throws.
     */
    static void ended(ActorCore<?> actor, boolean markedGone) {
        if (!markedGone && actor.markGone()) {
            return;
        }
        ActorExtras x = actor.extrasOrNull();
        if (x == null) {
            return;
        }
        try {
            Supervision.ended(actor, x);
            Map<ActorCore<?>, Watch> watched = x.watching;
            if (watched != null) {
                for (ActorCore<?> t : watched.keySet()) {
                    ActorExtras tx = t.extrasOrNull();
                    Watchers ws = tx == null ? null : tx.watchers;
                    if (ws != null) {
                        synchronized (ws) {
                            ws.byWatcher.remove(actor.self.id());
                        }
                    }
                }
                watched.clear();
            }
            if (x.remoteWatches != null) {
                x.remoteWatches.clear();                 // the ends of actors of other places are not told now
            }
            Watchers ws = x.watchers;
            if (ws == null) {
                return;
            }
            List<Watch> told;
            CompletableFuture<Terminated> future;
            synchronized (ws) {
                told = new ArrayList<>(ws.byWatcher.values());
                ws.byWatcher.clear();
                future = ws.end;
            }
            if (told.isEmpty() && future == null) {
                return;
            }
            Terminated end = endOf(actor);
            for (Watch w : told) {
                tell(w, end);                            // the watcher keeps the watch until it takes the message
            }
            if (future != null) {
                future.complete(end);
            }
        } catch (Throwable noMemory) {
            // the watchers not told yet are not told: nothing here may fail the completion that called this
        }
    }

    /** How {@code actor}, which has ended, ended. */
    static Terminated endOf(ActorCore<?> actor) {
        Throwable failure = ActorFailures.kept(actor);
        Terminated.Reason reason = ActorStop.stopped(actor) ? Terminated.Reason.STOPPED
                : failure != null ? Terminated.Reason.FAILED
                : (actor.status() & ActorCell.BY_CLOSE) != 0 ? Terminated.Reason.RUNTIME_CLOSED
                : Terminated.Reason.EXITED;
        return new Terminated(actor.self, reason, failure);
    }

    /** Sends the watcher its message; a watcher that has ended is not told; a mapping that throws fails it. */
    private static void tell(Watch w, Terminated end) {
        ActorCore<?> watcher = w.watcher;
        if (w.takenBack()) {                             // unwatched, replaced, or the watcher has ended
            w.forget();
            return;                                      // an unwatched watch does not even run its mapping
        }
        try {
            Object message = Objects.requireNonNull(w.message.apply(end), "the mapping returned null");
            int box = w.mailbox >= 0 ? w.mailbox : routeOf(watcher, message);
            MailboxAdmission.enqueue(watcher, watcher.mailbox, new RevocableMessage(message, w), box, true);
        } catch (Throwable t) {
            if (!w.deliver()) {
                return;                                  // unwatched meanwhile: no message, and nothing to fail
            }
            try {
                ActorFailures.fail(watcher, t,
                        "its watch of " + end.actor() + " could not make or send its message (" + SafeText.of(t) + ")",
                        "making or sending the message of its watch of " + end.actor());
            } catch (Throwable noMemory) {
                // the watcher is not told; the watched actor's end is not its to fail
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <M> int routeOf(ActorCore<M> watcher, Object message) {
        return watcher.routeOf((M) message);
    }

    private static ActorCore<?> local(ActorRef<?> target, String op) {
        if (target instanceof LocalRef<?> l) {
            return l.actor;
        }
        throw new UnsupportedOperationException(op + "() of " + target + ", an actor of another place, is not"
                + " supported yet: have it tell you from its onExit()");
    }

    private static Watchers watchersOf(ActorCore<?> actor) {
        ActorExtras x = actor.extras();
        Watchers ws = x.watchers;
        if (ws == null) {
            Watchers fresh = new Watchers();
            ws = ActorExtras.WATCHERS.compareAndSet(x, null, fresh) ? fresh : x.watchers;
        }
        return ws;
    }
}

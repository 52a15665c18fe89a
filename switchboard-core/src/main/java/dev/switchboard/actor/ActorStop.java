package dev.switchboard.actor;

import dev.switchboard.internal.RuntimeEvents;
import dev.switchboard.internal.Scheduler;

/**
 * Stopping an actor from outside it: {@link ActorRef#stop()}, after the messages already queued, and
 * {@link ActorRef#stopNow()}, after the message being processed. Both end the actor as {@code exit()} does, and mark
 * it stopped, so that its watchers hear {@link Terminated.Reason#STOPPED}.
 *
 * <p>Owns the stop envelope ({@link Signal}) and the extras' {@code stopped} and {@code stopping} fields. May touch
 * the actor's mailbox (to queue the stop in each of its mailboxes, and to close a selector's mailbox whose stop was
 * taken) and its termination.
 */
final class ActorStop {
    /*
     * Implementation notes. A graceful stop is an envelope queued in every mailbox of the actor, behind what is
     * there, so that it is taken in the order of the messages whatever dispatches them: the activation loop of an
     * actor or selector (Dispatch.Serial), a stateless actor's (Dispatch.Parallel, which has started every earlier
     * message as a task when it takes the stop; those tasks run to their end and the actor's finish waits for
     * them), or a policy's turns (which hand the policy every earlier arrival first, and end the actor once the
     * policy holds none of them). The envelope takes a place in a bounded mailbox even when it is full (the place
     * is given back when it is taken, as a message's is), so a stop never waits or is dropped. It never becomes a
     * dead letter: one that finds the actor ended, or is drained by its end, is simply dropped.
     *
     * One Signal serves the N mailboxes of one stop() call: `left` counts the mailboxes whose copy is not taken
     * yet, and is changed only by the holder of the actor's token (the processing takes envelopes). A selector
     * closes each mailbox whose copy it takes (disables it), ends with the last copy, and also ends if it becomes
     * idle with every mailbox disabled while a stop is pending (Selector.onQuiet asks pending()), which is the
     * stop of a selector that keeps a mailbox disabled.
     */

    private ActorStop() {
    }

    /** The envelope of one graceful stop, queued once in each mailbox of the actor. */
    static final class Signal {
        /** Copies not taken yet; confined to the holder of the actor's token. */
        int left;
        /** The mailboxes whose copy has been taken (closed behind it); confined to the holder of the token. */
        final java.util.BitSet closed = new java.util.BitSet();

        Signal(int mailboxes) {
            this.left = mailboxes;
        }

        @Override
        public String toString() {
            return "stop()";
        }
    }

    /** {@link ActorRef#stop()}. */
    static void stop(ActorCore<?> actor) {
        if (actor.isTerminated()) {
            return;
        }
        int n = actor.mailbox instanceof SelectorMailboxes m ? m.mailboxes() : 1;
        Signal s = new Signal(n);
        for (int i = 0; i < n; i++) {
            MailboxAdmission.stopSend(actor, s, i);
        }
    }

    /** {@link ActorRef#stopNow()}. */
    static void stopNow(ActorCore<?> actor) {
        requireStarted(actor);
        stopNow(actor, "stopNow()");
    }

    /** {@code stopNow()} ends a started actor: refused for one never started. */
    static void requireStarted(ActorCore<?> actor) {
        if (actor.activation() == null) {
            throw new IllegalStateException(actor + " was never started: stopNow() ends a started actor (stop() before"
                    + " its start ends it after the messages queued until then)");
        }
    }

    /**
     * Ends a started actor now, marked stopped ({@code how} says by what); a no-op on one not started (its
     * starter stops it once started, see {@code Supervision.startChild}) or ended.
     */
    static void stopNow(ActorCore<?> actor, String how) {
        if (actor.activation() != null && !actor.isTerminated()) {
            // STOPPED only if it was not ending already
            ActorTermination.terminateFirst(actor, () -> markStopped(actor, how));
        }
    }

    /** Marks {@code actor} stopped (before it terminates): its end is then {@link Terminated.Reason#STOPPED}. */
    static void markStopped(ActorCore<?> actor, String how) {
        actor.extras().stopped = true;
        try {
            Scheduler s = actor.scheduler();
            if (s != null && s.events().heard()) {
                s.events().publish(RuntimeEvents.Kind.STOPPED, actor.self, null, ActorFailures.kept(actor), how);
            }
        } catch (Throwable noMemory) {
            // the stop goes on untold
        }
    }

    /** Whether {@code actor} was stopped. */
    static boolean stopped(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        return x != null && x.stopped;
    }

    /** Whether a graceful stop of {@code actor} has been taken from one of its mailboxes but not from all. */
    static boolean pending(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        return x != null && x.stopping != null;
    }

    /**
     * The actor's processing (the token held) took the copy of {@code s} from mailbox {@code index}: the actor ends
     * with the last copy; before that, a selector closes the mailbox it took this one from.
     */
    static void taken(ActorCore<?> actor, Signal s, int index) {
        if (actor.isTerminated()) {
            return;
        }
        ActorExtras x = actor.extras();
        if (x.stopping != null && x.stopping != s) {
            return;                                   // a second stop: the first one governs
        }
        s.closed.set(index);
        if (--s.left == 0) {
            ActorTermination.terminateFirst(actor, () -> markStopped(actor, "stop()"));
        } else {
            x.stopping = s;
            ((SelectorMailboxes) actor.mailbox).setEnabled(index, false);   // only a selector has several
        }
    }

    /**
     * A policy's turn took {@code envelope} from mailbox {@code index}: returns whether it belongs to a stop (the
     * stop itself, or a message behind a stop already taken there, which becomes a dead letter) rather than to the
     * policy.
     */
    static boolean takenByPolicy(ActorCore<?> actor, Object envelope, int index) {
        ActorExtras x = actor.extrasOrNull();
        Signal pending = x == null ? null : x.stopping;
        if (envelope instanceof Signal s) {
            if (pending == null || pending == s) {
                s.closed.set(index);
                s.left--;
                actor.extras().stopping = s;
            }
            return true;
        }
        if (pending != null && pending.closed.get(index)) {
            actor.deadLetter(envelope, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
            return true;
        }
        return false;
    }

    /**
     * After a policy's turn: the actor ends once every copy of its stop has been taken and the policy holds no
     * message (every one queued before the stop has been started; they run to their end).
     */
    static void endIfStoppedByPolicy(ActorCore<?> actor, int held) {
        ActorExtras x = actor.extrasOrNull();
        Signal s = x == null ? null : x.stopping;
        if (s != null && s.left == 0 && held == 0 && !actor.isTerminated()) {
            ActorTermination.terminateFirst(actor, () -> markStopped(actor, "stop()"));
        }
    }

    /** The mailboxes a stop has closed behind it, or null: a selector's restart keeps them closed. */
    static java.util.BitSet closedByStop(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        return x == null || x.stopping == null ? null : x.stopping.closed;
    }
}

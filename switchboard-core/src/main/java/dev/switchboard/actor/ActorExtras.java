package dev.switchboard.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of an actor that only some actors need, created the first time an actor needs any of it (see
 * {@link ActorCore}'s notes on memory): a name, a pending {@code onStart()}, dead-letter counts, the replies it
 * awaits, the behaviors {@code become} saved and its timers.
 */
final class ActorExtras {
    static final VarHandle DEAD_LETTERS;
    static final VarHandle EARLY_DEAD_LETTERS;
    private static final VarHandle REPLIES;
    static final VarHandle FAILURE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            DEAD_LETTERS = l.findVarHandle(ActorExtras.class, "deadLetters", long.class);
            EARLY_DEAD_LETTERS = l.findVarHandle(ActorExtras.class, "earlyDeadLetters", long.class);
            REPLIES = l.findVarHandle(ActorExtras.class, "replies", AwaitedReplies.class);
            FAILURE = l.findVarHandle(ActorExtras.class, "failure", Throwable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The name given to start(name), or null; written before the start publishes the actor. */
    String name;
    /**
     * Set by start() when the class overrides onStart(), before it publishes STARTED; cleared by the holder of
     * the token that runs the hook. Senders read it plainly in the actor's runnable check: a stale true only makes
     * one of them schedule an activation that finds nothing to do.
     */
    boolean startPending;
    volatile long deadLetters;
    /** Dead letters from before start(), for the runtime's count once there is a runtime. */
    volatile long earlyDeadLetters;
    /** The replies the actor awaits; created by its first awaitReply (installed with a CAS). */
    volatile AwaitedReplies replies;
    /** The behaviors become() saved; confined to the holder of the token. */
    BecomeStack become;
    /** The failure that terminated the actor, or null (see {@code ActorCore.failure()}); set once, with a CAS. */
    volatile Throwable failure;
    /**
     * The timers by key (see {@code ActorCore.startSingleTimer}), or null; changed only by the holder of the token
     * (a hang report reads it without, see {@code ActorDiagnostics}).
     */
    volatile TimerMap timers;

    /** The actor's timers, created by the first. */
    TimerMap timers() {
        if (timers == null) {
            timers = new TimerMap();
        }
        return timers;
    }

    /**
     * One timer of the actor. Its sends put a {@link TimerMessage} in the mailbox, which the actor takes only if the
     * timer is still wanted when the message's turn comes ({@link #deliver}): a cancel, a replacement or a send
     * exclude each other under this timer's monitor, so once {@link #cancel} has returned nothing more of this timer
     * is sent or processed, even what it sent before.
     */
    static final class Timer implements Runnable {
        private final ActorCore<?> actor;
        private final Object message;
        private final int mailbox;
        private final boolean single;
        private boolean delivered;             // guarded by this; a single timer's message has been taken
        private boolean cancelled;             // guarded by this
        java.util.concurrent.ScheduledFuture<?> future;   // set right after scheduling, by the token holder

        Timer(ActorCore<?> actor, Object message, int mailbox, boolean single) {
            this.actor = actor;
            this.message = message;
            this.mailbox = mailbox;
            this.single = single;
        }

        @Override
        public void run() {
            synchronized (this) {              // the send never blocks (ActorCore.timerSend): a cancel waits briefly
                if (!cancelled) {
                    actor.timerSend(new TimerMessage(this, message), mailbox);
                }
            }
        }

        boolean isSingle() {
            return single;
        }

        /** Called when the actor takes one of this timer's messages: whether to process it. */
        synchronized boolean deliver() {
            if (cancelled) {
                return false;
            }
            if (single) {
                delivered = true;
            }
            return true;
        }

        /**
         * Whether it will still send or its message is still to be processed: a single timer until the actor takes
         * its message, a periodic one until cancelled.
         */
        synchronized boolean isActive() {
            return !cancelled && !delivered && (single || !future.isDone());
        }

        /** Stops it, and its messages still in the mailbox; returns whether it was active. */
        boolean cancel() {
            boolean wasActive;
            synchronized (this) {
                wasActive = isActive();
                cancelled = true;
            }
            future.cancel(false);
            return wasActive;
        }
    }

    /** A timer's message in the mailbox: processed only if its timer still wants it ({@link Timer#deliver}). */
    record TimerMessage(Timer timer, Object message) {
    }

    /**
     * Timers by key. Single timers that have sent stay until their key is used again, so a put drops the ones no
     * longer active once the map has doubled since it last did (an actor that keys its timers by request does not
     * keep every request's).
     */
    static final class TimerMap extends java.util.HashMap<Object, Timer> {
        private int pruneAt = 16;

        @Override
        public Timer put(Object key, Timer t) {
            if (size() >= pruneAt) {
                values().removeIf(old -> !old.isActive());
                pruneAt = Math.max(16, 2 * size());
            }
            return super.put(key, t);
        }
    }

    /** The actor's {@link AwaitedReplies}, created by the first call. */
    AwaitedReplies replies() {
        AwaitedReplies r = replies;
        if (r == null) {
            AwaitedReplies fresh = new AwaitedReplies();
            r = REPLIES.compareAndSet(this, null, fresh) ? fresh : replies;
        }
        return r;
    }

    boolean hasReadyReplies() {
        AwaitedReplies r = replies;
        return r != null && r.hasReady();
    }
}

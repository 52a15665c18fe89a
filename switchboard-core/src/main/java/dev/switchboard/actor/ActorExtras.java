package dev.switchboard.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of an actor that only some actors need, created the first time an actor needs any of it (see the notes
 * below on memory): a name, a pending {@code onStart()}, dead-letter counts, the replies it
 * awaits, the behaviors {@code become} saved, its timers, its watchers and the actors it watches, a stop under way,
 * and its supervision.
 */
final class ActorExtras {
    /*
     * Implementation notes.
     *
     * Memory. An actor is four objects while it is idle: the ActorCore (48 bytes with compressed oops and no
     * fields of the subclass), its mailbox (SingleMailbox: 24 bytes, its queue created by the first message; see
     * there), its reference (LocalRef: 32 bytes) and its Activation (88 bytes). Everything only some actors need
     * is here, created the first time an actor needs it; hot paths test one field for null where they would
     * test several. `extras` is published with a CAS (compareAndExchange: a volatile write of a fully constructed
     * object) and read as a volatile field; its own fields keep the access modes and the confinement they would
     * have as fields of the actor. The runtime's close() marks the actor with the BY_CLOSE bit of the status word,
     * set with or before TERMINATED, so that a close never has to allocate.
     */
    static final VarHandle DEAD_LETTERS;
    static final VarHandle EARLY_DEAD_LETTERS;
    private static final VarHandle REPLIES;
    static final VarHandle FAILURE;
    static final VarHandle WATCHERS;
    private static final VarHandle CHILDREN;
    private static final VarHandle WATCHING;
    private static final VarHandle REMOTE_WATCHES;
    private static final VarHandle REMOTE_ENDS_AWAITED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            DEAD_LETTERS = l.findVarHandle(ActorExtras.class, "deadLetters", long.class);
            EARLY_DEAD_LETTERS = l.findVarHandle(ActorExtras.class, "earlyDeadLetters", long.class);
            REPLIES = l.findVarHandle(ActorExtras.class, "replies", AwaitedReplies.class);
            FAILURE = l.findVarHandle(ActorExtras.class, "failure", Throwable.class);
            WATCHERS = l.findVarHandle(ActorExtras.class, "watchers", ActorWatch.Watchers.class);
            CHILDREN = l.findVarHandle(ActorExtras.class, "children", java.util.Set.class);
            WATCHING = l.findVarHandle(ActorExtras.class, "watching", java.util.concurrent.ConcurrentHashMap.class);
            REMOTE_WATCHES = l.findVarHandle(ActorExtras.class, "remoteWatches",
                    java.util.concurrent.ConcurrentHashMap.class);
            REMOTE_ENDS_AWAITED = l.findVarHandle(ActorExtras.class, "remoteEndsAwaited", java.util.Set.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The instance a cell hosts in its place (see {@link ActorHosting}), or null: the cell itself. */
    volatile ActorCore<?> instance;
    /** The name given to start(name), or null; written before the start publishes the actor. */
    String name;
    /**
     * The messages a turn takes, declared by {@code ActorCore.throughput(int)}, or 0: the runtime's budget. Written
     * before start() publishes the actor or by its processing, read by the holder of the token (confined to it).
     */
    int budget;
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
    volatile ActorTimers.TimerMap timers;

    /** Set before the actor terminates if it was stopped ({@link ActorStop}): its end is STOPPED. */
    volatile boolean stopped;
    /** A graceful stop taken from some of the actor's mailboxes but not all, or null; confined to the token. */
    ActorStop.Signal stopping;

    /** Who watches this actor ({@link ActorWatch}); installed with a CAS by the first watcher, or null. */
    volatile ActorWatch.Watchers watchers;
    /**
     * The actors this one watches, each with its watch ({@link ActorWatch}) until the message of the watch is taken,
     * a concurrent map made on first use, or null.
     */
    volatile java.util.concurrent.ConcurrentHashMap<ActorCore<?>, ActorWatch.Watch> watching;
    /** The watches this actor made of actors of other places, by their id; null until the first. */
    volatile java.util.concurrent.ConcurrentHashMap<Long, ActorWatch.Watch> remoteWatches;

    /**
     * How this actor's parent supervises it ({@link Supervision}), or null: not started by startChild. Set before
     * the actor is started, and published by the start.
     */
    Supervision.Child supervision;
    /** The children this actor supervises ({@link Supervision}), a concurrent set installed with a CAS, or null. */
    volatile java.util.Set<ActorCore<?>> children;

    /**
     * The ids of the actors of other places whose end this actor has an action waiting for (one per target, see
     * {@code ActorWatch.watchRemote}); null until the first.
     */
    volatile java.util.Set<Long> remoteEndsAwaited;

    /** {@link #remoteEndsAwaited}, created (and installed with a CAS) by the first call. */
    java.util.Set<Long> remoteEndsAwaited() {
        java.util.Set<Long> s = remoteEndsAwaited;
        return s != null ? s : installed(REMOTE_ENDS_AWAITED, java.util.concurrent.ConcurrentHashMap.newKeySet());
    }

    /** {@link #remoteWatches}, created (and installed with a CAS) by the first call. */
    java.util.concurrent.ConcurrentHashMap<Long, ActorWatch.Watch> remoteWatches() {
        java.util.concurrent.ConcurrentHashMap<Long, ActorWatch.Watch> m = remoteWatches;
        return m != null ? m : installed(REMOTE_WATCHES, new java.util.concurrent.ConcurrentHashMap<>());
    }

    /** {@link #watching}, created (and installed with a CAS) by the first call. */
    java.util.concurrent.ConcurrentHashMap<ActorCore<?>, ActorWatch.Watch> watching() {
        java.util.concurrent.ConcurrentHashMap<ActorCore<?>, ActorWatch.Watch> m = watching;
        return m != null ? m : installed(WATCHING, new java.util.concurrent.ConcurrentHashMap<>());
    }

    /** The children this actor supervises, created (and installed with a CAS) by the first call. */
    java.util.Set<ActorCore<?>> children() {
        java.util.Set<ActorCore<?>> c = children;
        return c != null ? c : installed(CHILDREN, java.util.concurrent.ConcurrentHashMap.newKeySet());
    }

    /**
     * Installs {@code fresh} in the null field {@code field} of this object, or returns what a racing first call
     * installed there (compareAndExchange: a volatile write of a fully constructed object, as {@code extras}).
     */
    @SuppressWarnings("unchecked")
    private <T> T installed(VarHandle field, T fresh) {
        Object witness = field.compareAndExchange(this, (Object) null, (Object) fresh);
        return witness == null ? fresh : (T) witness;
    }

    /** The actor's timers, created by the first. */
    ActorTimers.TimerMap timers() {
        if (timers == null) {
            timers = new ActorTimers.TimerMap();
        }
        return timers;
    }

    /** The actor's {@link AwaitedReplies}, created by the first call. */
    AwaitedReplies replies() {
        AwaitedReplies r = replies;
        return r != null ? r : installed(REPLIES, new AwaitedReplies());
    }

    boolean hasReadyReplies() {
        AwaitedReplies r = replies;
        return r != null && r.hasReady();
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.TimerService;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

/**
 * An actor's timers ({@code startSingleTimer} and its kin): starting, cancelling and finding them, the envelope of
 * their messages, and the timer service that times an actor's timers, asks and awaited replies.
 *
 * <p>Owns the actor's {@link TimerMap} (kept in its {@link ActorExtras}) and the {@link Timer}s in it. May touch
 * the actor's extras, its runtime's {@link TimerService}, and the actor's send path for timers
 * ({@link MailboxAdmission#timerSend}). Everything but the read-only lookups for diagnostics runs with the actor's token
 * held: in its own processing, or in its termination ({@link #cancelAll}).
 */
final class ActorTimers {
    /**
     * The shortest period (or delay) of a periodic timer: the runtime's one timer thread also times every ask and
     * awaitReply, and a period it can never keep up with would hold their timeouts back.
     */
    static final Duration MIN_TIMER_PERIOD = Duration.ofMillis(1);

    private ActorTimers() {
    }

    /** Starts (or replaces) the timer {@code key} of {@code actor}: once if {@code periodNanos} is 0. */
    static <M> void start(ActorCore<M> actor, String op, Object key, M message, long delayNanos, long periodNanos,
            boolean fixedDelay) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, () -> "null message for a timer of " + actor);
        if (!context(actor, op)) {
            return;                           // terminated (an exit() earlier in this message, a close): no timer
        }
        int index = actor.routeOf(message);   // here, so that a selector's route() failing fails the caller
        Timer t = new Timer(actor, message, index, periodNanos == 0);
        TimerService timers = actor.scheduler().timers();
        t.future = periodNanos == 0 ? timers.schedule(delayNanos, t)
                : fixedDelay ? timers.scheduleWithFixedDelay(delayNanos, periodNanos, t)
                : timers.scheduleAtFixedRate(delayNanos, periodNanos, t);
        Timer replaced = actor.extras().timers().put(key, t);
        if (replaced != null) {
            replaced.cancel();
        }
    }

    /** Checks the period of a periodic timer. */
    static void requirePeriod(ActorCore<?> actor, String op, Duration period) {
        Objects.requireNonNull(period, "period");
        if (period.compareTo(MIN_TIMER_PERIOD) < 0) {
            throw new IllegalArgumentException(op + "() of " + actor + " needs a period of at least "
                    + MIN_TIMER_PERIOD.toMillis() + " ms, got " + period + " (the runtime's one timer thread also"
                    + " times every ask and awaitReply)");
        }
    }

    /** Checks the first delay of a periodic timer; returns it in nanoseconds. */
    static long initialDelay(ActorCore<?> actor, String op, Duration initialDelay) {
        Objects.requireNonNull(initialDelay, "initialDelay");
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException(op + "() of " + actor + " needs an initial delay of zero or more, got "
                    + initialDelay);
        }
        return nanos(initialDelay);
    }

    /** {@code cancelAllTimers()}. */
    static void cancelAllOf(ActorCore<?> actor) {
        if (context(actor, "cancelAllTimers")) {
            cancelAll(actor);
        }
    }

    /** {@code cancelTimer(key)}: whether an active timer was cancelled. */
    static boolean cancel(ActorCore<?> actor, Object key) {
        Objects.requireNonNull(key, "key");
        if (!context(actor, "cancelTimer")) {
            return false;                     // terminated: its timers were cancelled
        }
        TimerMap timers = of(actor);
        Timer t = timers == null ? null : timers.remove(key);
        return t != null && t.cancel();
    }

    /** {@code isTimerActive(key)}. */
    static boolean isActive(ActorCore<?> actor, Object key) {
        Objects.requireNonNull(key, "key");
        return context(actor, "isTimerActive") && activeNow(actor, key);
    }

    /** Whether {@code actor} has an active timer under {@code key}; from any thread (the map is concurrent). */
    static boolean activeNow(ActorCore<?> actor, Object key) {
        TimerMap timers = of(actor);
        Timer t = timers == null ? null : timers.get(key);
        return t != null && t.isActive();
    }

    /** The timers {@code actor} keeps, or null if it never started one (for diagnostics: read without the token). */
    static TimerMap of(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        return x == null ? null : x.timers;
    }

    /** The timers {@code actor} keeps (active or not yet dropped); for tests. */
    static int count(ActorCore<?> actor) {
        TimerMap timers = of(actor);
        return timers == null ? 0 : timers.size();
    }

    /**
     * Timers belong to the holder of the token: a started actor's own processing, not a task it spawned. Returns
     * false once the actor has terminated (its timers are cancelled; starting one does nothing).
     */
    private static boolean context(ActorCore<?> actor, String op) {
        if (actor.status() == 0) {
            throw new IllegalStateException(actor + "." + op + "() needs " + actor + " started: start timers in"
                    + " onStart() or process()");
        }
        OwnerChecks.requireNoPolicy(actor, op + "()", "it has no timers of its own (a timer of a plain actor can"
                + " send it the message)");
        if (actor.dispatch == Dispatch.PARALLEL && Context.current() != actor.activation()) {
            throw new IllegalStateException(actor + "." + op + "() from a message of a stateless actor, whose"
                    + " messages run in parallel: its timers are started in onStart() and end with it");
        }
        OwnerChecks.requireProcessingOnceStarted(actor, op);
        return !actor.isTerminated();
    }

    /** The actor terminated (with the token held): no timer of it sends again. */
    static void cancelAll(ActorCore<?> actor) {
        try {
            TimerMap timers = of(actor);
            if (timers != null) {
                for (Timer t : timers.values()) {
                    t.cancel();
                }
                timers.clear();
            }
        } catch (Throwable t) {
            ActorFailures.add(actor, t);      // a cancel cannot fail short of an internal error; report it
        }
    }

    /**
     * The timer of {@code actor}'s runtime; before start, of the runtime the caller runs in, or outside every
     * runtime a timer shared by the JVM (an {@code ask} may be sent to an actor that has not started yet).
     */
    static TimerService timers(ActorCore<?> actor) {
        Scheduler s = actor.status() != 0 ? actor.scheduler() : null;
        if (s == null) {
            Node n = Context.current();
            if (n == null) {
                return TimerService.shared();     // not worth a whole runtime
            }
            s = n.scheduler();
        }
        return s.timers();
    }

    /**
     * The clock of {@code actor}'s runtime; before start, of the runtime the caller runs in, or outside every
     * runtime the system's: what deadlines and ages about this actor are read from.
     */
    static Clock clock(ActorCore<?> actor) {
        Scheduler s = actor.status() != 0 ? actor.scheduler() : null;
        if (s == null) {
            Node n = Context.current();
            return n == null ? Clock.system() : n.scheduler().clock();
        }
        return s.clock();
    }

    /** The timer of {@code actor}'s runtime, for {@code op}, which needs the actor started. */
    static TimerService started(ActorCore<?> actor, String op) {
        Scheduler s = actor.status() != 0 ? actor.scheduler() : null;
        if (s == null) {
            throw new IllegalStateException(op + "() needs " + actor + " started: its runtime's timer is not known"
                    + " before");
        }
        return s.timers();
    }

    /** {@code d} in nanoseconds, saturated at {@code Long.MAX_VALUE} (about 292 years). */
    static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** Checks the timeout of {@code op} (an ask, an awaitReply) on {@code actor}. */
    static void requirePositive(ActorCore<?> actor, Duration timeout, String op) {
        Objects.requireNonNull(timeout, () -> "null timeout given to " + op + "() of " + actor);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(op + "() of " + actor + " needs a positive timeout, got " + timeout);
        }
    }

    /**
     * One timer of the actor. Its sends put a {@link RevocableMessage} in the mailbox, which the actor takes only if
     * the timer is still wanted when the message's turn comes ({@link #deliver}): a cancel, a replacement or a send
     * exclude each other under this timer's monitor, so once {@link #cancel} has returned nothing more of this timer
     * is sent or processed, even what it sent before.
     */
    static final class Timer implements Runnable, RevocableMessage.Sender {
        private final ActorCore<?> actor;
        private final Object message;
        private final int mailbox;
        private final boolean single;
        private boolean delivered;             // guarded by this; a single timer's message has been taken
        private boolean cancelled;             // guarded by this
        ScheduledFuture<?> future;   // set right after scheduling, by the token holder

        Timer(ActorCore<?> actor, Object message, int mailbox, boolean single) {
            this.actor = actor;
            this.message = message;
            this.mailbox = mailbox;
            this.single = single;
        }

        @Override
        public void run() {
            synchronized (this) {              // the send never blocks (MailboxAdmission.timerSend): a cancel
                                               // waits briefly
                if (!cancelled) {
                    MailboxAdmission.timerSend(actor, new RevocableMessage(message, this), mailbox);
                }
            }
        }

        boolean isSingle() {
            return single;
        }

        /** Called when the actor processes one of this timer's messages: whether to. */
        @Override
        public synchronized boolean deliver() {
            if (cancelled) {
                return false;
            }
            if (single) {
                delivered = true;
            }
            return true;
        }

        @Override
        public synchronized boolean takenBack() {
            return cancelled;
        }

        /** An ended actor's timers were cancelled by its end: what they sent is dropped. */
        @Override
        public boolean droppedAtEnd() {
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

    /**
     * Timers by key. Single timers that have sent stay until their key is used again, so a put drops the ones no
     * longer active once the map has doubled since it last did (an actor that keys its timers by request does not
     * keep every request's). Changed only by the actor's processing; concurrent, so that a hang report and the test
     * kit read it from other threads without the actor's token.
     */
    static final class TimerMap extends ConcurrentHashMap<Object, Timer> {
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
}

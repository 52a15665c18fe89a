package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.SafeText;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A parent's supervision of the children it started with {@code startChild}: what happens when a child fails
 * ({@link #handle}, which applies the child's {@link SupervisorStrategy}), its restarts (a fresh instance behind the
 * same reference, now or after a backoff), and the end of a parent's children with it. An escalation to the parent
 * is an {@link Escalation}.
 *
 * <p>Owns the extras' {@code supervision} (a child's {@link Child} record) and {@code children} (a parent's
 * supervised children) fields. May touch the child's timers, awaited replies, pause bit, hosting
 * ({@link ActorHosting}), failure record and reports, and its termination; and the parent's control lane (an
 * escalated failure).
 */
final class Supervision {
    /*
     * Implementation notes. Everything a failure decides runs on the child's processing, the thread that holds
     * its token when process (or onStart, onRestart, a reply handler, a selector's guard) throws: the strategy is
     * immutable and shared, and the child's record is confined to that token, so the parent's processing is not
     * involved except for an escalation, which reaches it through its control lane (ahead of its messages,
     * despite a pause). A failure raised outside the child's processing (a watch mapping run on another actor's
     * thread) is not supervised: it ends the child and reaches its finish, as without a supervisor.
     *
     * A restart runs on the child's processing too: at once, or, with a backoff, from a control action the
     * runtime's timer queues once the delay has passed (the runtime's clock, so a manual clock drives it); until
     * then the child's pause bit holds its messages. The restart cancels the timers, abandons the replies the
     * processing awaits, clears the pause, stops the children, resets a selector's mailboxes, builds the new
     * instance with the factory (ActorHosting.create) and hosts it; the new instance's onRestart (by default
     * onStart) runs before the next message, then the failed message if it is retried.
     */

    /** {@link #handle}: not supervised, the caller ends the actor and reports the failure. */
    static final int NOT_HANDLED = 0;
    /** {@link #handle}: handled; the message that failed (if any) was dropped or is not the caller's to drop. */
    static final int HANDLED = 1;
    /** {@link #handle}: handled, and the message that failed will be processed again. */
    static final int RETRYING = 2;

    /** How many causes a child's history keeps for the report of a give-up. */
    private static final int CAUSES_KEPT = 10;

    private Supervision() {
    }

    /** A supervised child's record: how to rebuild it, the strategy, and its restart history. */
    static final class Child {
        final ActorCore<?> parent;
        final Supplier<? extends ActorCore<?>> factory;
        final SupervisorStrategy strategy;
        /** Restart times (the runtime's clock) within the limit's window, oldest first. Confined to the token. */
        private final ArrayDeque<Long> recent = new ArrayDeque<>();
        /** The causes of the latest handled failures, oldest first (at most CAUSES_KEPT). Confined to the token. */
        private final ArrayDeque<Throwable> causes = new ArrayDeque<>();
        /** Restarts so far, failures so far. Confined to the token; read by toString-like reports. */
        int restarts;
        int failures;
        /** Restarts in the current backoff row, and when the last one was (the runtime's clock). */
        private int row;
        private long lastRestartNanos;
        /** The envelope the next instance processes first (retryingFailedMessage), or null. */
        Object retry;
        /** The mailbox {@link #retry} came from: it is processed once that mailbox is enabled (a selector's). */
        int retryMailbox;
        /** Whether the message being processed is a retry: a second failure drops it. */
        boolean retrying;
        /** The cause of the restart whose onRestart has not run yet, or null. */
        Throwable restartCause;
        /** The backoff's timer while one runs, or null. */
        volatile ScheduledFuture<?> backoff;
        /** Whether the instance hosted now ran onReplaced(): a restart is under way. Confined to the token. */
        boolean replaced;
        /** Whether the failure being handled escaped the start hook (onStart, onRestart). Confined to the token. */
        boolean failingInStart;

        Child(ActorCore<?> parent, Supplier<? extends ActorCore<?>> factory, SupervisorStrategy strategy) {
            this.parent = parent;
            this.factory = factory;
            this.strategy = strategy;
        }
    }

    // ------------------------------------------------------------------------------------------ starting

    /** {@code startChild}: builds the child with {@code factory}, starts it under {@code parent}'s supervision. */
    static <X> ActorRef<X> startChild(ActorCore<?> parent, String name, Supplier<? extends ActorCore<X>> factory,
            SupervisorStrategy strategy) {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(strategy, "strategy");
        OwnerChecks.requireOwnContext(parent, "startChild");
        if (parent.dispatch instanceof PolicyDispatch p) {
            throw new IllegalStateException(parent + " cannot supervise: it is bound to " + p.policy + ", whose"
                    + " messages run in parallel as tasks; a child's escalated failure could not fail it");
        }
        ActorCore<X> child = factory.get();
        if (child == null) {
            throw new NullPointerException("the factory given to " + parent + ".startChild returned null");
        }
        if (child.dispatch != Dispatch.SERIAL) {
            throw new IllegalArgumentException(child + " cannot be supervised: " + (child.dispatch == Dispatch.PARALLEL
                    ? "a stateless actor runs its messages in parallel and has no state to restart"
                    : "it is bound to a policy (a monitor, a transactional actor), whose messages run in parallel"
                    + " as tasks a restart could not take back") + "; start it with start() and watch it");
        }
        if (child.state() != ActorState.NEW) {
            throw new IllegalArgumentException("the factory given to " + parent + ".startChild returned " + child
                    + ", which was already started: it must build a new actor each time");
        }
        child.extras().supervision = new Child(parent, factory, strategy);
        Set<ActorCore<?>> children = parent.extras().children();
        children.add(child);
        ActorRef<X> ref;
        try {
            ref = name == null ? child.start() : child.start(name);
        } catch (RuntimeException | Error e) {
            children.remove(child);
            throw e;
        }
        if (parent.isTerminated()) {                 // from a task, as the parent ended: its end may have missed it
            ActorStop.stopNow(child, "with its parent");
        }
        return ref;
    }

    // ------------------------------------------------------------------------------------------ failures

    /**
     * {@code cell} failed with {@code failure}, processing {@code envelope} (null: not a message: onStart, a reply
     * handler, a guard). Applies its strategy if it is supervised and this is its processing; returns
     * {@link #NOT_HANDLED} (the caller ends it and reports), {@link #HANDLED} or {@link #RETRYING}.
     */
    static int handle(ActorCore<?> cell, Throwable failure, Object envelope, String where) {
        ActorExtras x = cell.extrasOrNull();
        Child c = x == null ? null : x.supervision;
        if (c == null || Context.current() != cell.activation()) {
            return NOT_HANDLED;
        }
        if (cell.isTerminated()) {                    // an exit of its own is not a stop: its failure goes on
            return ActorStop.stopped(cell) ? stoppedMeanwhile(cell, c, failure, envelope, where) : NOT_HANDLED;
        }
        c.failures++;
        remember(c, failure);
        boolean retried = c.retrying;
        c.retrying = false;
        boolean inStart = c.failingInStart;
        if (c.backoff != null) {                      // the replaced instance's reply handler or guard, say
            log(cell, failure, where, "a restart is on its way already");
            return drop(cell, envelope, failure);
        }
        SupervisorStrategy.Directive d;
        try {
            d = c.strategy.decide(failure);
            if (d == null) {
                throw new NullPointerException("the decider of " + c.strategy + " returned null for "
                        + SafeText.of(failure));
            }
        } catch (Throwable decider) {
            addSuppressed(failure, decider);
            giveUp(cell, c, failure, where, "its supervisor's decider failed (" + decider + ")");
            return HANDLED;
        }
        return switch (d) {
            case RESUME -> {
                log(cell, failure, where, "its supervisor resumes it");
                yield dropOrRetry(cell, c, envelope, retried, failure);
            }
            case RESTART -> inStart && !c.strategy.backsOff() && c.strategy.maxRestarts() < 0
                    ? stop(cell, failure, where, "its supervisor stops it: its start failed, and a restart without a"
                            + " limit or a backoff would fail again at once, for ever")
                    : restart(cell, c, failure, envelope, where, retried);
            case STOP -> stop(cell, failure, where, "its supervisor stops it");
            case ESCALATE -> {
                Escalation.escalate(cell, c.parent, failure, where);
                yield HANDLED;
            }
        };
    }

    /** The strategy stops the child: it ends, marked stopped, and {@code what} is logged. */
    private static int stop(ActorCore<?> cell, Throwable failure, String where, String what) {
        ActorFailures.keep(cell, failure);
        // terminated before anyone hears of it: a router that learns of the failure routes past it then
        ActorTermination.terminateFirst(cell, () -> ActorStop.markStopped(cell, "by its supervisor"));
        log(cell, failure, where, what);
        return HANDLED;
    }

    /** Marks whether the failure about to be handled escaped the start hook of {@code x}'s actor, if supervised. */
    static void failingInStart(ActorExtras x, boolean inStart) {
        if (x.supervision != null) {
            x.supervision.failingInStart = inStart;
        }
    }

    /**
     * A child stopped (by its parent, its parent's end, or from outside) while it processed the message that failed:
     * nothing is left to resume or restart, and the failure ends with the child, as its strategy would have handled
     * it; the message is a dead letter. A failure the strategy escalates cannot reach the parent now, and goes to the
     * child's finish ({@link #NOT_HANDLED}), as do one whose decider fails and one it would give up on (a restart
     * past its limit).
     */
    private static int stoppedMeanwhile(ActorCore<?> cell, Child c, Throwable failure, Object envelope,
                                        String where) {
        SupervisorStrategy.Directive d;
        try {
            d = c.strategy.decide(failure);
        } catch (Throwable decider) {
            addSuppressed(failure, decider);
            return NOT_HANDLED;
        }
        if (d == null || d == SupervisorStrategy.Directive.ESCALATE
                || d == SupervisorStrategy.Directive.RESTART && restartsUsedUp(cell, c)) {
            return NOT_HANDLED;
        }
        c.failures++;
        remember(c, failure);
        ActorFailures.keep(cell, failure);
        log(cell, failure, where, "it had been stopped while it processed; its supervisor would "
                + d.name().toLowerCase(java.util.Locale.ROOT) + " it, so the failure ends with it");
        return drop(cell, envelope, failure);
    }

    /**
     * The message that failed: kept to be processed once more first (unless it was that retry), else a dead letter
     * (a request's requester hears why first).
     */
    private static int dropOrRetry(ActorCore<?> cell, Child c, Object envelope, boolean retried, Throwable failure) {
        if (envelope != null && c.strategy.retries() && !retried) {
            c.retry = envelope;                      // runOne takes it before the next message, once not held
            c.retryMailbox = cell.mailbox.lastServed();
            return RETRYING;
        }
        return drop(cell, envelope, failure);
    }

    private static int drop(ActorCore<?> cell, Object envelope, Throwable failure) {
        if (envelope != null) {
            if (envelope instanceof Request r) {
                Dispatch.requestFailed(cell, r, failure);
            }
            cell.deadLetter(envelope, DeadLetter.Reason.FAILED_PROCESSING);
        }
        return HANDLED;
    }

    /**
     * Whether a failed message waits to be processed again and may be now ({@code ActorCell.runOne} takes it
     * first): its mailbox is enabled in {@code mailbox}, as the new instance set it up (a selector whose constructor
     * disables that mailbox, or whose guard of it is false, takes the retry once it is enabled, as any message of
     * it; enabling signals the actor).
     */
    static boolean retryPending(ActorExtras x, Mailbox mailbox) {
        Child c = x.supervision;
        return c != null && c.retry != null
                && (c.retryMailbox < 0 || !(mailbox instanceof SelectorMailboxes boxes)
                        || boxes.isEnabled(c.retryMailbox));
    }

    /** Processes the failed message kept for a retry, on the actor's processing (not held). */
    static void runRetry(ActorCore<?> cell) {
        Child c = cell.extrasOrNull().supervision;
        Object envelope = c.retry;
        c.retry = null;
        if (c.retryMailbox >= 0) {
            cell.mailbox.serving(c.retryMailbox);        // currentMailbox() is the retried message's
        }
        c.retrying = true;
        Dispatch.processOrSample(cell, envelope, true);
        c.retrying = false;
    }

    /** A retry that will never run (the actor ended, or gave up): the message is a dead letter after all. */
    private static void dropRetry(ActorCore<?> cell, Child c) {
        Object envelope = c.retry;
        if (envelope != null) {
            c.retry = null;
            cell.deadLetter(envelope, DeadLetter.Reason.FAILED_PROCESSING);
        }
    }

    /** Whether one more restart now would pass the strategy's limit (the restarts within its window). */
    private static boolean restartsUsedUp(ActorCore<?> cell, Child c) {
        SupervisorStrategy s = c.strategy;
        if (s.maxRestarts() < 0) {
            return false;
        }
        long now = ActorTimers.clock(cell).nanoTime();
        while (!c.recent.isEmpty() && now - c.recent.peekFirst() > ActorTimers.nanos(s.window())) {
            c.recent.pollFirst();
        }
        return c.recent.size() >= s.maxRestarts();
    }

    private static int restart(ActorCore<?> cell, Child c, Throwable failure, Object envelope, String where,
            boolean retried) {
        SupervisorStrategy s = c.strategy;
        long now = ActorTimers.clock(cell).nanoTime();
        if (s.maxRestarts() >= 0) {
            if (restartsUsedUp(cell, c)) {
                giveUp(cell, c, failure, where, "its supervisor gave up: " + (s.maxRestarts() == 0 ? "its strategy"
                        + " allows no restart" : "it would be restart " + (c.recent.size() + 1) + " within "
                        + s.window() + ", more than the " + s.maxRestarts() + " allowed"));
                return HANDLED;
            }
            c.recent.addLast(now);
        }
        int outcome = dropOrRetry(cell, c, envelope, retried, failure);
        if (!s.backsOff()) {
            log(cell, failure, where, "its supervisor restarts it (restart " + (c.restarts + 1) + ")");
            tearDown(cell, c, failure, where);
            host(cell, c, failure, where);
            return outcome;
        }
        if (c.restarts > 0 && now - c.lastRestartNanos > ActorTimers.nanos(s.maxBackoff())) {
            c.row = 0;                                   // a quiet spell: the row starts over
        }
        long delay = s.backoffNanos(c.row++, ThreadLocalRandom.current().nextDouble());
        log(cell, failure, where, "its supervisor restarts it in " + Duration.ofNanos(delay) + " (restart "
                + (c.restarts + 1) + "); its messages wait");
        tearDown(cell, c, failure, where);               // nothing of the replaced instance runs meanwhile
        try {
            // The restart runs on this actor's processing, which this thread holds until it returns: the pause
            // below is set before it can run, even if the delay has passed by then.
            c.backoff = ActorTimers.timers(cell).schedule(delay, () -> AwaitedReplies.control(cell,
                    new ControlAction() {
                        @Override
                        public void run() {
                            c.backoff = null;
                            host(cell, c, failure, where);
                        }
                    }));
        } catch (RuntimeException closed) {              // the runtime is closing: it ends the child anyway
            return outcome;
        }
        cell.pauseBit(true);                             // hold the messages until the restart
        return outcome;
    }

    /**
     * What a restart clears of the replaced instance, when it is decided: its timers, the replies it awaits, its
     * children, and what a kind resets (a selector's mailboxes and guards).
     */
    private static void tearDown(ActorCore<?> cell, Child c, Throwable failure, String where) {
        ActorTimers.cancelAll(cell);
        AwaitedReplies.abandon(cell);
        stopChildren(cell);
        c.replaced = true;
        Throwable hook = ActorLifecycle.runReplacedHook(cell, failure);
        if (hook != null) {
            addSuppressed(failure, hook);
            log(cell, hook, "in onReplaced() after it failed " + where, "the restart goes on");
        }
        cell.beforeRestart();
    }

    /** Hosts a fresh instance from the factory, on the cell's processing: see the implementation notes. */
    private static void host(ActorCore<?> cell, Child c, Throwable cause, String where) {
        if (cell.isTerminated()) {
            return;                                      // stopped meanwhile: its end drops a retry
        }
        ActorCore<?> fresh;
        try {
            fresh = ActorHosting.create(cell, castFactory(c.factory));
        } catch (Throwable factory) {                    // the causes so far are added to it as it gives up
            cell.pauseBit(false);
            giveUp(cell, c, factory, where, "its supervisor could not restart it: its factory gave no fresh"
                    + " instance");
            return;
        }
        c.restarts++;
        c.lastRestartNanos = ActorTimers.clock(cell).nanoTime();
        ActorHosting.host(cell, castCell(fresh), cause);
        c.replaced = false;
        c.restartCause = cause;
        cell.extras().startPending = true;                // onRestart runs before the next message
        cell.pauseBit(false);
    }

    @SuppressWarnings("unchecked")
    private static <A extends ActorCore<?>> Supplier<A> castFactory(Supplier<? extends ActorCore<?>> f) {
        return (Supplier<A>) f;
    }

    @SuppressWarnings("unchecked")
    private static <M> ActorCore<M> castCell(ActorCore<?> a) {
        return (ActorCore<M>) a;
    }

    /**
     * Whether the instance the actor hosts ran {@code onReplaced()} already: a restart replaced it and ended
     * before a new instance took its place (a stop during the backoff, a factory that failed). Its end then runs
     * no {@code onExit()}: each instance runs one of the two.
     */
    static boolean replacedWithoutSuccessor(ActorExtras x) {
        Child c = x.supervision;
        return c != null && c.replaced;
    }

    /**
     * For the start hook about to run: the cause of the restart whose {@code onRestart} it is, or null if it is
     * the actor's {@code onStart}.
     */
    static Throwable takeRestartCause(ActorExtras x) {
        Child c = x.supervision;
        if (c == null || c.restartCause == null) {
            return null;
        }
        Throwable cause = c.restartCause;
        c.restartCause = null;
        return cause;
    }

    /** Ends the child for good: its failure, with the restarts it had and their causes, reaches its finish. */
    private static void giveUp(ActorCore<?> cell, Child c, Throwable failure, String where, String why) {
        ActorFailures.keep(cell, failure);
        dropRetry(cell, c);
        List<Throwable> earlier = new ArrayList<>(c.causes);
        earlier.remove(failure);
        for (Throwable t : earlier) {
            addSuppressed(failure, t);
        }
        ActorFailures.reportNote(cell, failure, " was terminated: ", why + "; it failed " + c.failures + " time"
                + (c.failures == 1 ? "" : "s") + " and was restarted " + c.restarts + " time"
                + (c.restarts == 1 ? "" : "s") + " under " + c.strategy + history(earlier), where);
        ActorTermination.terminate(cell, 0);
    }

    private static String history(List<Throwable> earlier) {
        if (earlier.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("; earlier causes (suppressed here): ");
        for (int i = 0; i < earlier.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(earlier.get(i));
        }
        return sb.toString();
    }

    private static void remember(Child c, Throwable failure) {
        if (c.causes.size() == CAUSES_KEPT) {
            c.causes.pollFirst();
        }
        c.causes.addLast(failure);
    }

    static void addSuppressed(Throwable to, Throwable what) {
        if (to != what) {
            try {
                to.addSuppressed(what);
            } catch (Throwable ignored) {
                // a throwable that refuses suppressed exceptions: the report names the cause it has
            }
        }
    }

    /** Logs a failure the strategy handled, and tells the event hook; never throws. */
    static void log(ActorCore<?> cell, Throwable failure, String where, String next) {
        try {
            ActorFailures.publish(cell, failure, " failed " + where + "; ", next);
            cell.scheduler().failureLog().actorFailed(cell, where, failure, next);
        } catch (Throwable noMemory) {
            // a handled failure goes on unlogged
        }
    }

    // ------------------------------------------------------------------------------------------ ends

    /**
     * {@code actor} has terminated (its processing, before it is released): the children it supervises are
     * stopped now, after the messages they are processing, and a failed message kept for a retry is a dead letter.
     */
    static void terminated(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        if (x == null) {
            return;                                      // the common case: neither a parent nor a child
        }
        stopChildren(x, actor.stopsChildrenGracefully());
        if (x.supervision != null) {
            dropRetry(actor, x.supervision);
        }
    }

    /** Stops the children {@code actor} supervises (its restart), after the messages they are processing. */
    static void stopChildren(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        if (x != null) {
            stopChildren(x, false);
        }
    }

    /**
     * Stops the children in {@code x}: after what is queued to them if {@code gracefully}, else after their message.
     */
    private static void stopChildren(ActorExtras x, boolean gracefully) {
        Set<ActorCore<?>> children = x.children;
        if (children != null) {
            for (ActorCore<?> child : children) {
                if (gracefully) {
                    ActorStop.stop(child);
                } else {
                    ActorStop.stopNow(child, "with its parent");
                }
            }
        }
    }

    /**
     * For a hang report: "waiting out its supervisor's restart backoff (...)" while {@code actor} is paused for a
     * backoff, or null. Read without the actor's token (a report's look: at worst a restart that begins meanwhile
     * is missed).
     */
    static String backoffWait(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        Child c = x == null ? null : x.supervision;
        ScheduledFuture<?> b = c == null ? null : c.backoff;
        if (b == null) {
            return null;
        }
        long ms = Math.max(0, b.getDelay(TimeUnit.MILLISECONDS));
        return "waiting out its supervisor's restart backoff: restart " + (c.restarts + 1) + " in " + ms
                + " ms; its messages wait";
    }

    /** {@code actor} and its tasks have ended: it leaves its parent's children, and a backoff's timer is cancelled. */
    static void ended(ActorCore<?> actor, ActorExtras x) {
        Child c = x.supervision;
        if (c == null) {
            return;
        }
        ScheduledFuture<?> b = c.backoff;
        if (b != null) {
            b.cancel(false);
        }
        ActorExtras px = c.parent.extrasOrNull();
        Set<ActorCore<?>> siblings = px == null ? null : px.children;
        if (siblings != null) {
            siblings.remove(actor);
        }
    }
}

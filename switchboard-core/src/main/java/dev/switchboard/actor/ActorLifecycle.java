package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.SafeText;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import dev.switchboard.task.TaskRuntime;

/**
 * An actor's way into a runtime and its two life-cycle hooks: {@code start()} (joining the finish scope, the
 * activation, the publication of STARTED), a start refused by a closed runtime, and the running of
 * {@code onStart()} and {@code onExit()} in the actor's context.
 *
 * <p>Owns which hooks an actor class overrides ({@link #HOOKS}). May touch the actor's status word only through
 * the token protocol's own operations on {@link ActorCore} ({@code publish}, {@code installActivation},
 * {@code claimForRefusal}), and its extras' {@code startPending} and early dead letters.
 */
final class ActorLifecycle {
    /** Bits of {@link #HOOKS}: the class overrides {@code onStart()}, {@code onExit()}. */
    static final int START_HOOK = 1;
    static final int EXIT_HOOK = 2;
    /** Which lifecycle hooks an actor class overrides (looked up once per class). */
    static final ClassValue<Integer> HOOKS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            int hooks = 0;
            for (Class<?> c = type; c != null && c != ActorCore.class; c = c.getSuperclass()) {
                hooks |= declares(c, "onStart") ? START_HOOK : 0;
                hooks |= declares(c, "onExit") ? EXIT_HOOK : 0;
            }
            return hooks;
        }

        private static boolean declares(Class<?> c, String name) {
            try {
                c.getDeclaredMethod(name);
                return true;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };

    private ActorLifecycle() {
    }

    /** The default runtime's scheduler (creating the default runtime if it is the first to be used). */
    private static Scheduler defaultScheduler() {
        Scheduler s = Scheduler.defaultScheduler();
        if (s == null) {
            TaskRuntime.defaultRuntime();
            s = Scheduler.defaultScheduler();
        }
        return s;
    }

    /** {@code start()}: see {@link ActorCore#start()}. */
    static void start(ActorCore<?> actor) {
        if (actor.cell() != actor) {
            throw new IllegalStateException("an instance hosted by " + actor.cell() + " is not started on its own");
        }
        if (actor.status() != 0 || actor.activation() != null) {
            throw new IllegalStateException(actor + " was already started (state " + actor.state() + ")");
        }
        Interceptor held = SendInterception.interceptor();
        if (held != null && held.interceptSpawn(() -> start(actor))) {
            return;                                  // held (a transaction starts it when it commits)
        }
        Node context = Context.current();
        if (context == null) {
            Scheduler.requireNoRuntimeOpenedHere(actor + ".start()");
        }
        Scheduler s = context != null ? context.scheduler() : defaultScheduler();
        if (s.isClosed()) {
            refuse(actor, s);
        }
        if (context == null) {
            context = s.globalScope();
        }
        int hooks = HOOKS.get(actor.getClass());
        Activation a = new Activation(context.attachChild(), s, actor, (hooks & EXIT_HOOK) != 0);
        if (!actor.installActivation(a, s)) {           // lost a race with a concurrent start()
            a.tryComplete();                             // undo the registration
            throw new IllegalStateException(actor + " was already started (state " + actor.state() + ")");
        }
        DeadLetterRouting.countEarly(actor, s);
        context.scope().track(a);
        if ((hooks & START_HOOK) != 0) {
            actor.extras().startPending = true;      // published with STARTED below
        }
        int initial = ActorCore.STARTED;
        try {
            actor.beforeStart();
        } catch (Throwable t) {
            ActorFailures.keep(actor, t);
            ActorFailures.report(actor, t, actor.startFailure() + " (" + SafeText.of(t) + ")",
                    actor.startFailureWhere());
            initial |= ActorCore.TERMINATED;         // drained and released by the signal below
        }
        boolean closedMeanwhile = s.isClosed();     // after track(): close() saw the actor or we see the close
        if (closedMeanwhile) {
            initial |= ActorCore.TERMINATED | ActorCore.BY_CLOSE;
        }
        actor.publish(initial);                      // publishes activation, scheduler and dispatch to senders
        actor.signal();
        if (closedMeanwhile) {
            s.requireOpen("start " + actor);         // terminated and drained above; the caller learns why
        }
        actor.onQuiet();                             // a selector started with every mailbox disabled is stalled
    }

    /**
     * {@code start()} on a closed runtime: the actor never runs. It is terminated in that runtime, so the
     * messages already sent to it and every later one are counted there as dead letters, and start throws.
     */
    private static void refuse(ActorCore<?> actor, Scheduler s) {
        actor.scheduler = s;
        DeadLetterRouting.countEarly(actor, s);
        if (actor.claimForRefusal()) {
            Object envelope;
            while ((envelope = actor.mailbox.pollAny()) != null) {
                MailboxAdmission.released(actor);
                actor.deadLetter(envelope, DeadLetter.Reason.RUNTIME_CLOSED);
            }
            actor.releaseRefused();
            ActorWatch.ended(actor, false);  // it never had an activation to complete
        }
        s.requireOpen("start " + actor);
    }

    /** Runs {@code onStart()} if it is pending (with the token held); returns whether it ran. */
    static boolean runStartHookIfPending(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        if (x != null && x.startPending) {
            runStartHook(actor, x);
            return true;
        }
        return false;
    }

    /** Runs {@code onStart()} of the instance the actor hosts (with the token held); a failure fails the actor. */
    static void runStartHook(ActorCore<?> actor, ActorExtras x) {
        x.startPending = false;
        Throwable restart = Supervision.takeRestartCause(x);
        try {
            if (restart == null) {
                ActorHosting.instanceOf(actor).onStart();
            } else {
                ActorHosting.instanceOf(actor).onRestart(restart);
            }
        } catch (Throwable t) {
            String hook = restart == null ? "onStart()" : "onRestart()";
            Supervision.failingInStart(x, true);
            try {
                ActorFailures.fail(actor, t, "this exception escaped " + hook, "in " + hook);
            } finally {
                Supervision.failingInStart(x, false);
            }
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * A supervisor's restart replaces the instance of {@code cell} (on its processing): the failed instance's
     * {@code onReplaced(cause)}. Returns what escaped it, or null.
     */
    static Throwable runReplacedHook(ActorCore<?> cell, Throwable cause) {
        try {
            ActorHosting.instanceOf(cell).onReplaced(cause);
            return null;
        } catch (Throwable t) {
            return t;
        } finally {
            if (cell.scheduler().onWorker()) {
                Thread.interrupted();
            }
        }
    }

    /**
     * Runs {@code onExit()} once, on the thread that releases the terminated actor (with the token held), in the
     * actor's context: unless the class does not override it, the actor ended before its onStart() ran, or its
     * instance ran onReplaced() for a restart that ended before a new instance took over.
     */
    static void runExitHook(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        Activation activation = actor.activation();
        if ((actor.status() & ActorCore.STARTED) == 0 || !activation.exitHook
                || x != null && (x.startPending || Supervision.replacedWithoutSuccessor(x))) {
            return;
        }
        Thread thread = Thread.currentThread();
        Node previous = Context.enter(thread, activation);
        activation.inExitHook = true;
        try {
            ActorHosting.instanceOf(actor).onExit();
        } catch (Throwable t) {
            ActorFailures.reportNote(actor, t, " failed in onExit() after it terminated", "", "in onExit()");
        } finally {
            activation.inExitHook = false;
            Context.restore(thread, previous);
            if (actor.scheduler().onWorker()) {
                Thread.interrupted();
            }
        }
    }
}

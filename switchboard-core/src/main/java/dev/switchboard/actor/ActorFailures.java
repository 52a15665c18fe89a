package dev.switchboard.actor;

import dev.switchboard.internal.RuntimeEvents;
import dev.switchboard.internal.Scheduler;

/**
 * An actor's failure record and its reports: the first failure that terminated it (what {@code failure()}
 * returns, kept in its {@link ActorExtras}), and how a failure reaches the actor's finish with a note naming the
 * actor.
 *
 * <p>Owns the extras' {@code failure} field, and the entry of a failure that terminates an actor ({@link #fail}, or
 * its supervisor's strategy instead). May touch the actor's activation, to add a failure to its finish scope, and
 * its runtime's event hook ({@code FAILURE}), told as the failure happens. Never throws for want of memory: a
 * failure that cannot carry its note is reported as it is.
 */
final class ActorFailures {
    private ActorFailures() {
    }

    /**
     * Terminates {@code actor} because of {@code failure}; the failure goes to the actor's finish scope.
     * {@code what} goes into the note on the failure and may show the message; {@code where}, for the log, never
     * does.
     */
    static void fail(ActorCore<?> actor, Throwable failure, String what, String where) {
        fail(actor, failure, what, where, null);
    }

    /** {@link #fail(ActorCore, Throwable, String, String)} where the note shows nothing of a message. */
    static void fail(ActorCore<?> actor, Throwable failure, String what) {
        fail(actor, failure, what, what);
    }

    /**
     * {@link #fail(ActorCore, Throwable, String, String)} while processing {@code envelope}: a supervised actor's
     * strategy decides instead ({@link Supervision}). Returns whether the envelope will be processed again
     * (retried).
     */
    static boolean fail(ActorCore<?> actor, Throwable failure, String what, String where, Object envelope) {
        if (ofTheClose(actor, failure)) {
            endByClose(actor, failure, where);
            return false;
        }
        ActorExtras x = actor.extrasOrNull();
        if (x != null && x.supervision != null) {
            int handled = Supervision.handle(actor, failure, envelope, where);
            if (handled != Supervision.NOT_HANDLED) {
                return handled == Supervision.RETRYING;
            }
        }
        keep(actor, failure);
        report(actor, failure, what, where);
        ActorTermination.terminate(actor, 0);
        return false;
    }

    /**
     * {@link #fail(ActorCore, Throwable, String, String, Object)} for a failure that escaped {@code process(message)}
     * ({@code from}: " from mailbox B", or nothing). An actor with no supervisor keeps the failure before anything
     * else, so that from then on its processing starts no message ({@link #ending}): the note's words, built next, may
     * take a while (the message's {@code toString}, a cold path), and messages that run in parallel would start
     * meanwhile.
     */
    static boolean failProcessing(ActorCore<?> actor, Throwable failure, Object message, String from,
                                  Object envelope) {
        if (ofTheClose(actor, failure)) {                 // the words only then: see below
            endByClose(actor, failure, ActorDiagnostics.processing(message) + from);
            return false;
        }
        ActorExtras x = actor.extrasOrNull();
        if (x == null || x.supervision == null) {
            keep(actor, failure);
        }
        return fail(actor, failure, "this exception escaped process(" + ActorDiagnostics.brief(message) + ")" + from,
                ActorDiagnostics.processing(message) + from, envelope);
    }

    /**
     * Whether {@code failure} is the runtime's close's doing (work the closed runtime refused, an interrupt the close
     * made: {@code Scheduler.isCloseConsequence}).
     */
    private static boolean ofTheClose(ActorCore<?> actor, Throwable failure) {
        Scheduler s = actor.scheduler();
        return s != null && s.isCloseConsequence(failure);
    }

    /**
     * A failure of the close's doing ({@link #ofTheClose}): the close ends the actor, as it ends every actor alive.
     * It terminates as closed ({@code RUNTIME_CLOSED} for its watchers and dead letters), no supervisor decides, and
     * it is no failure (not kept, not counted, not reported to a finish, which the close has ended anyway); a line
     * at INFO says so.
     */
    private static void endByClose(ActorCore<?> actor, Throwable failure, String where) {
        actor.scheduler().failureLog().actorEndedByClose(actor, where, failure);
        ActorTermination.terminate(actor, ActorCell.BY_CLOSE);
    }

    /** Keeps the first failure that terminates {@code actor}, for {@code failure()}; never throws. */
    static void keep(ActorCore<?> actor, Throwable failure) {
        try {
            // the first one (a stateless actor's messages may fail at once); published to onExit() by the status
            // change that terminates
            ActorExtras.FAILURE.compareAndSet(actor.extras(), (Throwable) null, failure);
        } catch (Throwable noMemory) {
            // failure() then says null; the failure itself is still reported to the finish
        }
    }

    /**
     * Whether {@code actor} has a failure kept that ends it ({@link #keep}, which comes before the report and the
     * termination): its processing starts no message after that, though the report may take a while (a cold path,
     * a log line), and messages started before it, running in parallel, run to their end.
     */
    static boolean ending(ActorExtras x) {
        return x != null && x.failure != null;
    }

    /** The failure kept by {@link #keep}, or null. */
    static Throwable kept(ActorCore<?> actor) {
        ActorExtras x = actor.extrasOrNull();
        return x == null ? null : x.failure;
    }

    /**
     * Reports {@code failure} to the actor's finish with a note naming the actor: a suppressed
     * {@link ProcessingFailure}, or, for a throwable that cannot carry suppressed exceptions (the JVM creates some
     * errors that way, a {@link StackOverflowError} among them), a {@code ProcessingFailure} whose cause is the
     * failure. Without memory for the note, the failure is reported as it is.
     */
    static void report(ActorCore<?> actor, Throwable failure, String what) {
        report(actor, failure, what, what);
    }

    /** {@link #report(ActorCore, Throwable, String)}, where the log says {@code where} (no message's contents). */
    static void report(ActorCore<?> actor, Throwable failure, String what, String where) {
        reportNote(actor, failure, " was terminated: ", what, where);
    }

    /**
     * {@link #report} with the note {@code actor + verb + what} (built here: the actor's toString may throw); the
     * runtime's failure log says {@code where}.
     */
    static void reportNote(ActorCore<?> actor, Throwable failure, String verb, String what, String where) {
        publish(actor, failure, verb, what);
        log(actor, failure, where);
        Throwable reported = failure;
        try {
            String text = actor + verb + what;
            Throwable[] suppressed = failure.getSuppressed();
            if (suppressed.length == 0 || !(suppressed[0] instanceof ProcessingFailure)) {
                failure.addSuppressed(new ProcessingFailure(text));
                if (failure.getSuppressed().length == 0) {
                    reported = new ProcessingFailure(text, failure);
                }
            }
        } catch (Throwable noMemory) {
            reported = failure;
        }
        add(actor, reported);
    }

    /**
     * Counts the failure for the runtime's metrics and tells its event hook, if anybody hears, that the actor
     * failed; never throws.
     */
    static void publish(ActorCore<?> actor, Throwable failure, String verb, String what) {
        try {
            Scheduler s = actor.scheduler();
            if (s != null) {
                s.counters().actorFailed();
            }
            if (s != null && s.events().heard()) {
                s.events().publish(RuntimeEvents.Kind.FAILURE, actor.self, null, failure, (verb + what).strip());
            }
        } catch (Throwable noMemory) {
            // the failure still reaches the finish below
        }
    }

    /**
     * Tells the runtime's failure log, as it happens (a failure that reaches no finish is not: an actor's outside
     * every finish, or in a finish that stopped waiting with no finish around it; the runtime's unscoped-failure
     * handler hears of it at once); never throws.
     */
    private static void log(ActorCore<?> actor, Throwable failure, String where) {
        try {
            Scheduler s = actor.scheduler();
            Activation a = actor.activation();
            if (s == null || a == null || a.scope().reachesNoFinish()) {
                return;
            }
            s.failureLog().actorFailed(actor, where, failure, "it is terminated, and its failure goes to "
                    + a.scope().name());
        } catch (Throwable noMemory) {
            // the failure still reaches the finish
        }
    }

    /** Adds a failure to the actor's finish as it is. */
    static void add(ActorCore<?> actor, Throwable failure) {
        actor.activation().scope().addFailure(failure);
    }

    /**
     * Like {@code fail}, for the holder of a token taken by {@code holdIdle()} (a selector found stuck): the holder
     * terminates the actor and drains its mailbox.
     */
    static void failHeld(ActorCore<?> actor, Throwable failure, String what, String where) {
        keep(actor, failure);
        report(actor, failure, what, where);
        ActorTermination.terminateHeld(actor, 0);
    }

    /**
     * The pool refused to run the actor's activation (the runtime was closed, or there was no memory to queue
     * it). Called with the token held: terminates the actor, reporting the cause unless it is the close, and
     * drains its mailbox here.
     */
    static void schedulingRefused(ActorCore<?> actor, Throwable cause) {
        int also = 0;
        if (actor.scheduler().isClosed()) {
            also = ActorCore.BY_CLOSE;
        } else {
            keep(actor, cause);
            report(actor, cause, "the runtime could not schedule it");
        }
        ActorTermination.terminateHeld(actor, also);
    }

    /**
     * Something escaped the activation loop itself (an error inside the runtime's own code, such as an
     * OutOfMemoryError while turning a message into a dead letter). Called with the token held: the actor
     * fails with it and is drained, or at least released, so that its finish is not left waiting.
     */
    static void crashed(ActorCore<?> actor, Throwable failure) {
        keep(actor, failure);
        try {
            report(actor, failure, "it failed outside process(): in its mailbox, its selection policy or the runtime"
                    + " itself", "outside process() (in its mailbox, its selection policy or the runtime itself)");
        } catch (Throwable t) {
            add(actor, failure);
        }
        ActorTermination.terminateHeld(actor, 0);
    }
}

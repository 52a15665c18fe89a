package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Threads;

/**
 * Who may call an actor's operations: the checks that {@code exit}, {@code become}, the timers, {@code awaitReply}
 * and a selector's {@code enable}/{@code disable} make before they change the actor, and the errors that say who
 * called from where.
 *
 * <p>Owns nothing; reads the caller's context ({@link Context#current()}), the actor's status word and its
 * dispatch. The rule: before {@code start()} an actor may be configured from anywhere; once started, only its own
 * context changes it (its processing and, for some operations, the tasks it spawned).
 */
final class OwnerChecks {
    private OwnerChecks() {
    }

    /**
     * Before start() an actor may be configured from anywhere (the constructor, typically); after, only from its
     * own context.
     */
    static void requireOwnContextOnceStarted(ActorCore<?> actor, String op) {
        ActorCore<?> cell = actor.cell();      // an instance a cell hosts is checked as the cell
        if (cell.status() != 0) {
            requireOwnContext(cell, op);
        }
    }

    /**
     * Once started, only the actor's own processing (a message, a reply handler: the thread that holds its token)
     * may change what it is: not even a task it spawned, which may run beside its next message.
     */
    static void requireProcessingOnceStarted(ActorCore<?> actor, String op) {
        if (actor.status() != 0 && Context.current() != actor.activation()) {
            Node n = Context.current();
            if (n == null || n.owner() != actor) {      // a foreign thread or context
                throw new IllegalStateException(actor + "." + op + "() may only be called while " + actor
                        + " processes a message or a reply (called from " + calledFrom(actor, n) + ")");
            }
            throw new IllegalStateException(actor + "." + op + "() may only be called while " + actor
                    + " processes a message or a reply, not from a task it spawned or a finish inside its"
                    + " processing (whose tasks may run beside it)");
        }
    }

    /** Only the actor's processing or a task it spawned may call {@code op}. */
    static void requireOwnContext(ActorCore<?> actor, String op) {
        Node n = Context.current();
        if (n == null || n.owner() != actor) {
            throw new IllegalStateException(actor + "." + op + "() may only be called while " + actor
                    + " processes a message or from a task it spawned (called from " + calledFrom(actor, n) + ")"
                    + (actor.status() == 0 ? ": " + actor + " has not started; call it from its onStart()" : ""));
        }
    }

    /** Where a call from the context {@code n} (null: none) came from, for the errors above. */
    private static String calledFrom(ActorCore<?> actor, Node n) {
        return n == null ? "thread '" + Threads.name(Thread.currentThread()) + "' outside every task"
                : n.owner() != null ? "the context of " + n.owner() : n.describe() + ", not " + actor + "'s";
    }

    /**
     * An actor bound to a policy (a monitor) does not take messages itself: its policy starts them, possibly
     * several at once. Holding it ({@code pause}, {@code awaitReply}) would not hold the messages already
     * started, so it is refused.
     */
    static void requireNoPolicy(ActorCore<?> actor, String op, String instead) {
        if (actor.dispatch instanceof PolicyDispatch p) {
            throw new IllegalStateException(actor + "." + op + " is not supported: " + actor + " is bound to "
                    + p.policy + ", which decides when its messages run; " + instead);
        }
    }
}

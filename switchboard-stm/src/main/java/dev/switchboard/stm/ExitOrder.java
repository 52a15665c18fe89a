package dev.switchboard.stm;

import java.util.ArrayDeque;

/**
 * Puts the exit of a transactional actor after the messages running beside it, so that the outcome stays that of
 * one message at a time: the exiting message sees everything that committed, and nothing commits after it.
 */
final class ExitOrder {
    /*
     * Overview. A transactional message that calls exit() holds the exit until its transaction commits. An attempt
     * that holds one commits only if its message was started alone; otherwise it fails with WAIT (rolled back, its
     * effects dropped), the message finishes as WAITED, and the turn that reports it keeps its envelope (waiting).
     * Turns then start nothing until every running message has finished, and start it again, alone: its attempts
     * begin after every other message has committed, and no message starts until it has finished, so what it reads
     * is all that committed and nothing commits after it. If, run alone, it exits again, the actor ends; if it
     * does not, the actor goes on. Two that waited run one after the other, each alone.
     *
     * Why not commit at once when nothing else runs at the attempt's end: a message that committed after the
     * attempt's snapshot was taken, and finished before the attempt looked, would be missing from what the exiting
     * message read, and a read-only transaction commits without validating its reads. Being started alone is the
     * one condition that needs no look at other threads: everything here belongs to the turns (the actor's token
     * serialises them), and a Started ticket reaches its message's task through the start and comes back through
     * the report. A message the runtime processes without the policy (its ticket null) runs while nothing else is
     * started and no turn runs beside it: its exit needs no order.
     */

    /** A transactional message a turn started: the ticket it carries. */
    static final class Started {
        final Object envelope;
        /** Started alone, after the others had finished, because its exit waited for them. */
        final boolean alone;

        Started(Object envelope, boolean alone) {
            this.envelope = envelope;
            this.alone = alone;
        }
    }

    /** Thrown by an attempt whose exit must wait for the messages running beside it: rolls it back. */
    static final class Wait extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private Wait() {
            super("an exit waits for the messages running beside it", null, false, false);
        }
    }

    /** The one {@link Wait}: it carries no stack trace, and nothing but the policy catches it. */
    static final Wait WAIT = new Wait();
    /** The result of a message whose exit waited ({@link #WAIT}). */
    static final Object WAITED = new Object();

    /** The envelopes of messages whose exit waits for the running messages to finish, in the order they waited. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** Whether a message whose exit waited runs now, alone. */
    private boolean alone;

    /** A turn: whether it may start another message (not while an exit waits, or runs alone). */
    boolean mayStart() {
        return waiting.isEmpty() && !alone;
    }

    /**
     * A turn, first: the envelope of a message whose exit waited, to start now that nothing else runs
     * ({@code running}: the messages started and not yet reported), or null.
     */
    Object startAlone(int running) {
        if (waiting.isEmpty() || running > 0) {
            return null;
        }
        alone = true;
        return waiting.poll();
    }

    /** An attempt that holds an exit: whether it may commit (else it must fail with {@link #WAIT}). */
    static boolean exitMayCommit(Started message) {
        return message.alone;
    }

    /** The turn that reports a message started by a turn finished, with {@code result}. */
    void finished(Object ticket, Object result) {
        if (ticket instanceof Started s) {
            if (s.alone) {
                alone = false;
            }
            if (result == WAITED) {
                waiting.add(s.envelope);
            }
        }
    }

    /** The envelopes of messages whose exit waits: dead letters if the actor ends first. */
    ArrayDeque<Object> waiting() {
        return waiting;
    }
}

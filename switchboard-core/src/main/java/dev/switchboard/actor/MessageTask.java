package dev.switchboard.actor;

import dev.switchboard.internal.Node;

/**
 * One message of an actor processed as a task of its own, in parallel with the actor's other messages (the
 * dispatch of {@link StatelessActor} and of an actor with a {@link MessageScheduler}). It is a child of the
 * actor's activation, so the actor's finish waits for it, and it carries its own request so {@code reply()}
 * answers the right one.
 *
 * <p>A letter started by a scheduler reports itself processed when it is done, which may run the scheduler's
 * turn on this thread; the first letter that turn starts can be handed back to this task
 * ({@link #continueWith}), which then processes it next, on the same thread, up to the runtime's throughput
 * budget of letters. Fields other than the final ones are confined to the thread running this task.
 */
final class MessageTask extends Node {
    final ActorCore<?> actor;
    private Object envelope;
    /** For a message started by a {@link MessageScheduler}: what to report when it has been processed. */
    private Object ticket;
    /** The letter to process next (see {@link #continueWith}), or null. */
    private Object nextEnvelope;
    private Object nextTicket;
    /** Letters this task may still process after the current one. */
    private int budgetLeft;
    /** Set when the processing took the reply channel; confined to this task's processing. */
    boolean replyTaken;

    MessageTask(Activation activation, Object envelope) {
        this(activation, envelope, null);
    }

    MessageTask(Activation activation, Object envelope, Object ticket) {
        super(activation.attachChild(), activation.scheduler());
        this.actor = activation.actor;
        this.envelope = envelope;
        this.ticket = ticket;
        this.budgetLeft = activation.scheduler().budget() - 1;
    }

    @Override
    public String describe() {
        return "a message of " + actor + " processed as a task of its own";
    }

    @Override
    public Object origin() {
        return actor;
    }

    Request request() {
        return envelope instanceof Request r ? r : null;
    }

    /** Whether a next letter is already set. */
    boolean hasNext() {
        return nextTicket != null;
    }

    /**
     * Takes a letter to process after the current one, on this thread; called by the scheduler turn that runs
     * inside this task's report of its finished letter. Returns false when this task has used its budget (or has
     * a next letter already): the caller then starts the letter as a task of its own.
     */
    boolean continueWith(Object envelope, Object ticket) {
        if (budgetLeft <= 0 || nextTicket != null) {
            return false;
        }
        budgetLeft--;
        nextEnvelope = envelope;
        nextTicket = ticket;
        return true;
    }

    /** The pool would not queue this message's task: the message is a dead letter (and a failure of the actor). */
    @Override
    protected void refused(Throwable cause) {
        actor.messageRefused(envelope, cause);
        super.refused(cause);
    }

    @Override
    protected void run() {
        try {
            for (;;) {
                actor.processEnvelope(envelope, false);
                if (ticket == null) {
                    return;
                }
                actor.scheduledMessageFinished(ticket);   // leave() runs before this task completes
                if (nextTicket == null) {
                    return;
                }
                envelope = nextEnvelope;
                ticket = nextTicket;
                nextEnvelope = null;
                nextTicket = null;
                replyTaken = false;
            }
        } finally {
            sealSpawns();
            tryComplete();
        }
    }
}

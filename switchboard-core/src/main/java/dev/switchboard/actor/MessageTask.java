package dev.switchboard.actor;

import dev.switchboard.internal.MessageSampling;
import dev.switchboard.internal.Node;
import dev.switchboard.spi.MessageProcessing;

/**
 * One message of an actor processed as a task of its own, in parallel with the actor's other messages (the
 * dispatch of {@link StatelessActor} and of an actor with a {@link PolicyDispatch}). It is a child of the actor's
 * activation, so the actor's finish waits for it.
 *
 * <p>A message started by a policy runs through the policy's {@code process} (this task is the
 * {@link MessageProcessing} it sees) and reports itself finished, which may run the policy's turn on this
 * thread; the first message that turn starts can be handed back to this task ({@link #continueWith}), which then
 * processes it next, on the same thread, up to the actor's throughput budget. Fields other than the final ones
 * are confined to the thread running this task.
 */
final class MessageTask extends Node implements MessageProcessing {
    final ActorCore<?> actor;
    /** The policy that started this message, or null for a stateless actor's message. */
    private final PolicyDispatch policy;
    private Object envelope;
    /** For a message started by a policy: what to report when it has been processed. */
    private Object ticket;
    /** The message to process next (see {@link #continueWith}), or null. */
    private Object nextEnvelope;
    private Object nextTicket;
    /** Messages this task may still process after the current one. */
    private int budgetLeft;
    /**
     * True while this task reports its finished message: a turn that runs then may hand this task its next
     * message. A turn that runs while the message is processed (a send to its own actor) may not.
     */
    boolean reporting;
    /** When the start() that made this task ran, if its hand-over is timed; else NOT_TIMED. */
    private final long createdAt;
    private static final long NOT_TIMED = Long.MIN_VALUE;

    MessageTask(Activation activation, Object envelope, PolicyDispatch policy, Object ticket) {
        super(activation.attachChild(), activation.scheduler());
        this.actor = activation.actor;
        this.policy = policy;
        this.envelope = envelope;
        this.ticket = ticket;
        this.budgetLeft = actor.budget() - 1;
        LetterPlacement placement = policy == null ? null : policy.placement;
        this.createdAt = placement != null && LetterLength.timesNextMessage()
                ? placement.clock().nanoTime() : NOT_TIMED;
    }

    @Override
    public String describe() {
        return "a message of " + actor + " processed as a task of its own";
    }

    @Override
    public Object origin() {
        return actor;
    }

    /** The actor's processed messages: this task may process several ({@link #continueWith}). */
    @Override
    public long turnProgress() {
        Activation a = actor.activation();
        return a == null ? 0 : a.turnProgress();
    }

    /** Whether a next message is already set. */
    boolean hasNext() {
        return nextTicket != null;
    }

    /**
     * Takes a message to process after the current one, on this thread; called by the policy turn that runs
     * inside this task's report of its finished message. Returns false when this task has used its budget (or
     * has a next message already): the caller then starts the message as a task of its own.
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

    // ------------------------------------------------------------------------------------------ MessageProcessing

    @Override
    public Object message() {
        return Dispatch.messageOf(envelope);
    }

    @Override
    public Object ticket() {
        return ticket;
    }

    @Override
    public void process() {
        Dispatch.invoke(actor, message());
    }

    // ------------------------------------------------------------------------------------------ running

    /** The pool would not queue this message's task: the message is a dead letter (and a failure of the actor). */
    @Override
    protected void refused(Throwable cause) {
        Dispatch.refused(actor, envelope, cause);
        super.refused(cause);
    }

    @Override
    protected void run() {
        try {
            if (policy == null) {
                int every = MessageSampling.every();           // 0 unless a JFR recording samples messages
                if (every != 0 && MessageSampling.due(every)) {
                    Dispatch.processSampled(actor, envelope, false);
                } else {
                    Dispatch.process(actor, envelope, false);
                }
                return;
            }
            if (createdAt != NOT_TIMED) {
                LetterPlacement placement = policy.placement;
                placement.handedOver(placement.clock().nanoTime() - createdAt);
            }
            for (;;) {
                Object report = policy.processStarted(this, envelope, ticket, false, PolicyDispatch.AS_TASK);
                reporting = true;                         // a turn run by this report may continue with this task
                try {
                    policy.finished(report);          // the policy hears of it before this task completes
                } finally {
                    reporting = false;
                }
                if (nextTicket == null) {
                    return;
                }
                envelope = nextEnvelope;
                ticket = nextTicket;
                nextEnvelope = null;
                nextTicket = null;
            }
        } finally {
            sealSpawns();
            tryComplete();
        }
    }
}

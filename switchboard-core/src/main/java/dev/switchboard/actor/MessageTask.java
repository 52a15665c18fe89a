package dev.switchboard.actor;

import dev.switchboard.internal.Node;

/**
 * One message of an actor processed as a task of its own, in parallel with the actor's other messages (the
 * dispatch of {@link StatelessActor}). It is a child of the actor's activation, so the actor's finish waits
 * for it, and it carries its own request so {@code reply()} answers the right one.
 */
final class MessageTask extends Node {
    final ActorCore<?> actor;
    final Object envelope;
    /** For a message started by a {@link MessageScheduler}: what to report when it has been processed. */
    private final Object ticket;
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
    }

    Request request() {
        return envelope instanceof Request r ? r : null;
    }

    @Override
    protected void run() {
        try {
            actor.processEnvelope(envelope, false);
            if (ticket != null) {
                actor.scheduledMessageFinished(ticket);   // leave() runs before this task completes
            }
        } finally {
            sealSpawns();
            tryComplete();
        }
    }
}

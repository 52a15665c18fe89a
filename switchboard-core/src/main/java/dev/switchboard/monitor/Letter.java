package dev.switchboard.monitor;

import dev.switchboard.actor.ActorRef;

/**
 * A message waiting in (or started from) the inbox of an actor bound to a {@link Monitor} ([PAM] §4.2). Letters
 * are listed oldest first; their {@link #sequence()} gives the arrival order.
 */
public final class Letter {
    enum State { WAITING, STARTED, FINISHED }

    final Monitor monitor;
    final Object envelope;
    private final Object message;
    private final long sequence;
    State state = State.WAITING;
    Letter previous;
    Letter next;

    Letter(Monitor monitor, Object envelope, Object message, long sequence) {
        this.monitor = monitor;
        this.envelope = envelope;
        this.message = message;
        this.sequence = sequence;
    }

    /** The message, as the actor's {@code process} method will see it. */
    public Object message() {
        return message;
    }

    /** The actor the letter was sent to. */
    public ActorRef<?> receiver() {
        return monitor.actor();
    }

    /** Arrival order: a letter with a smaller sequence arrived earlier. */
    public long sequence() {
        return sequence;
    }

    /** Whether {@code filter} passes this letter (for a category: whether the message belongs to it). */
    public boolean is(LetterFilter filter) {
        return filter.pass(this);
    }

    /** Whether the letter has been started. */
    public boolean isStarted() {
        return state != State.WAITING;
    }

    @Override
    public String toString() {
        return "Letter#" + sequence + "(" + message + ")";
    }
}

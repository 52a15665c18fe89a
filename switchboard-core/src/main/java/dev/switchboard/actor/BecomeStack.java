package dev.switchboard.actor;

import java.util.ArrayDeque;

/**
 * The behaviors an actor's {@code become} replaced, most recent first; {@code unbecome} returns to the top one.
 * Confined to the holder of the actor's token (its processing), like the current behavior it saves.
 */
final class BecomeStack {
    /** Stands for the actor's own {@code process} on the stack (the current behavior is then null). */
    private static final Object PROCESS = new Object();

    private final ArrayDeque<Object> saved = new ArrayDeque<>();

    /** Saves {@code current} (null: the actor's own {@code process}). */
    void push(Behavior<?> current) {
        saved.push(current == null ? PROCESS : current);
    }

    boolean isEmpty() {
        return saved.isEmpty();
    }

    /** The behavior saved last (null: the actor's own {@code process}). */
    @SuppressWarnings("unchecked")
    <M> Behavior<M> pop() {
        Object b = saved.pop();
        return b == PROCESS ? null : (Behavior<M>) b;
    }
}

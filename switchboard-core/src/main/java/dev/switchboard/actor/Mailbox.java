package dev.switchboard.actor;

/**
 * Where an actor's messages wait, and which one is processed next: the storage half of the dispatch seam of
 * {@link ActorCore}.
 *
 * <p>Implementations: {@link SingleMailbox} (an {@link Actor}, and a {@link Selector} with one mailbox: one
 * queue and its enable flag) and {@link GuardedMailboxes} (a selector with several guarded queues). The dispatch loop
 * calls these methods on this object rather than on the actor, so each call site sees one or two mailbox classes
 * (and is inlined) however many actor classes a program has.
 *
 * <p>{@link #offer} and {@link #hasReady}/{@link #hasAny}/{@link #size} may be called by any thread; the
 * {@code poll} methods only by the holder of the actor's SCHEDULED token (the single consumer).
 */
interface Mailbox {
    /** Enqueues an envelope into mailbox {@code index}; false if that mailbox is at capacity. */
    boolean offer(Object envelope, int index);

    /** The next envelope under the selection rules, or null if no enabled mailbox holds one. */
    Object poll();

    /** Whether {@link #poll()} would find an envelope. */
    boolean hasReady();

    /** Any queued envelope, ignoring the selection rules (for dead letters), or null. */
    Object pollAny();

    /** Whether any envelope is queued. */
    boolean hasAny();

    /** Queued envelopes (approximate while senders are active). */
    int size();

    /** The queues' indices and capacities, in words: for a report of an actor's internal state (any thread). */
    String internals();

    /** The mailbox the envelope polled last came from (-1 before the first); for the single consumer. */
    int lastServed();

    /**
     * Makes {@code index} the mailbox last served, for an envelope processed from outside the queues (a retried
     * message, kept aside since it failed); for the single consumer. A single mailbox has nothing to set.
     */
    default void serving(int index) {
    }
}

package dev.switchboard.actor;

import java.util.function.BooleanSupplier;

/**
 * A selector's view of its mailboxes: the {@link Mailbox} the dispatch loop polls, plus the enable flags, the
 * declarative guards and the sizes that {@link Selector} exposes. Indices are checked by the selector.
 *
 * <p>Implementations: {@link SingleMailbox} (one mailbox: the same class, and the same dispatch code, as an
 * actor's) and {@link GuardedMailboxes} (two or more, or a custom selection policy).
 */
interface SelectorMailboxes extends Mailbox {
    /** Number of mailboxes. */
    int mailboxes();

    /** Enables or disables mailbox {@code index}; returns whether it was disabled and is now enabled. */
    boolean setEnabled(int index, boolean enabled);

    /** Enables or disables several mailboxes at once; returns whether one of them was newly enabled. */
    boolean setEnabled(int[] indices, boolean enabled);

    /** Every mailbox enabled, or every mailbox disabled except {@code except} (none if -1). */
    void setAll(boolean enabled, int except);

    /** Whether mailbox {@code index} is enabled: its flag is set and its guard, if any, holds. */
    boolean isEnabled(int index);

    /** Whether no mailbox is enabled. */
    boolean allDisabled();

    /**
     * Registers (or, with null, removes) the declarative guard of mailbox {@code index}, and evaluates it if
     * {@code evaluate}; if not, the guard holds until the next {@link #evaluateGuards}.
     */
    void guard(int index, BooleanSupplier predicate, boolean evaluate);

    boolean hasGuards();

    /** Re-evaluates every guard, on the selector's processing; a guard that throws propagates. */
    void evaluateGuards();

    /** The mailbox whose guard {@link #evaluateGuards} evaluated last: after a guard threw, that guard's. */
    int lastGuardEvaluated();

    /** Messages waiting in mailbox {@code index}. */
    int size(int index);

}

package dev.switchboard.actor;

/**
 * How a {@link Selector} picks the mailbox its next message comes from, among the <em>ready</em> ones (enabled
 * and non-empty). [Selectors] §2.1, "Message Selection Policy".
 *
 * <ul>
 *   <li>{@link #PRIORITY} (the default): the lowest-numbered ready mailbox, so mailbox 0 has the highest
 *       priority. Messages in higher-numbered mailboxes wait while lower ones have messages.</li>
 *   <li>{@link #ROUND_ROBIN}: the first ready mailbox after the one served last, wrapping around (the LR policy),
 *       one message per turn; no ready mailbox waits longer than one round.</li>
 * </ul>
 * A custom policy implements {@link #select}; it is called by the selector's own processing only, and must
 * return a mailbox of the given {@link ReadySet}.
 *
 * <pre>{@code
 * // mailbox 0 every other message while it has some; between them the lowest-numbered other ready mailbox
 * // (so mailbox 2 waits while mailbox 1 has messages: a policy that remembers nothing but `last` cannot rotate)
 * SelectionPolicy weighted = (ready, last) -> ready.contains(0) && last != 0 ? 0 : ready.nextFrom(1);
 * }</pre>
 */
@FunctionalInterface
public interface SelectionPolicy {
    /** Lowest-numbered ready mailbox first. */
    SelectionPolicy PRIORITY = BuiltInPolicy.PRIORITY;

    /** The next ready mailbox after the one served last, wrapping around. */
    SelectionPolicy ROUND_ROBIN = BuiltInPolicy.ROUND_ROBIN;

    /**
     * Picks the mailbox to take the next message from.
     *
     * @param ready      the ready mailboxes; never empty when this is called
     * @param lastServed the mailbox the previous message came from, or -1 before the first
     * @return one of the mailboxes in {@code ready}
     */
    int select(ReadySet ready, int lastServed);

    /** A read-only view of the mailboxes that are enabled and hold messages, answered from a bitmap in O(1). */
    interface ReadySet {
        /** Number of mailboxes of the selector (ready or not). */
        int mailboxes();

        /** Whether mailbox {@code index} is ready. */
        boolean contains(int index);

        /** The lowest-numbered ready mailbox. */
        int first();

        /** The first ready mailbox at or after {@code index}, wrapping around past the last mailbox. */
        int nextFrom(int index);
    }
}

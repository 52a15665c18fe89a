package dev.switchboard.actor;

import java.time.Duration;
import java.util.Objects;

/**
 * A limit on the messages waiting in an actor's mailbox (in each mailbox of a selector), and what a send does
 * when the mailbox is full. Mailboxes are unbounded unless an actor asks for this in its constructor:
 *
 * <pre>{@code
 * final class Logger extends Actor<Line> {
 *     Logger() { super(BoundedMailbox.dropping(10_000)); }     // a flood of lines cannot fill the heap
 *     protected void process(Line line) { out.println(line); }
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link #failing(int)}: a send to a full mailbox throws {@link MailboxFullException}; the message was not
 *       sent.</li>
 *   <li>{@link #dropping(int)}: the message becomes a dead letter ({@link DeadLetter.Reason#MAILBOX_FULL}),
 *       counted and passed to the runtime's dead-letter listener like any other; {@code send} returns.</li>
 *   <li>{@link #waiting(int, Duration)}: a sender outside the runtime (the main thread, an I/O thread) waits for
 *       room, up to {@code maxWait}, and then gets a {@link MailboxFullException}. A sender on one of the
 *       runtime's workers never waits (a waiting worker could hold up the very actor it waits for): it gets the
 *       exception at once. If the actor terminates while a sender waits, the message becomes a dead letter.</li>
 * </ul>
 * The count is exact: at most {@code capacity} messages are queued, or being queued, at any time. A message
 * leaves the count when the actor takes it to process it; for a {@link StatelessActor} and an actor under a
 * monitor, which start messages as tasks of their own, when that processing ends, so a bound holds back their
 * senders too. Requests ({@code awaitReply}) count like any message; a request that is dropped fails its requester
 * with a {@link NoReplyException}. A message dropped before the actor has started is counted by the actor at once
 * and by its runtime when it starts (there is no runtime before); the dead-letter listener does not hear of it.
 *
 * @param capacity the most messages one mailbox holds, at least 1
 * @param whenFull what a send to a full mailbox does
 * @param maxWait  for {@link Overflow#WAIT}, how long a sender waits for room; zero otherwise
 */
public record BoundedMailbox(int capacity, Overflow whenFull, Duration maxWait) {
    /** What a send to a full mailbox does. */
    public enum Overflow {
        /** The send throws {@link MailboxFullException}. */
        FAIL,
        /** The message becomes a counted dead letter ({@link DeadLetter.Reason#MAILBOX_FULL}). */
        DROP,
        /** A sender outside the runtime waits for room, up to a limit; any other sender fails as for FAIL. */
        WAIT
    }

    public BoundedMailbox {
        Objects.requireNonNull(whenFull, "whenFull");
        Objects.requireNonNull(maxWait, "maxWait");
        if (capacity < 1) {
            throw new IllegalArgumentException("a bounded mailbox holds at least 1 message, not " + capacity);
        }
        if (whenFull == Overflow.WAIT ? maxWait.isNegative() || maxWait.isZero() : !maxWait.isZero()) {
            throw new IllegalArgumentException("maxWait must be positive for WAIT and zero otherwise, not "
                    + maxWait + " for " + whenFull);
        }
    }

    /** At most {@code capacity} messages; a send to a full mailbox throws {@link MailboxFullException}. */
    public static BoundedMailbox failing(int capacity) {
        return new BoundedMailbox(capacity, Overflow.FAIL, Duration.ZERO);
    }

    /** At most {@code capacity} messages; a message sent to a full mailbox becomes a counted dead letter. */
    public static BoundedMailbox dropping(int capacity) {
        return new BoundedMailbox(capacity, Overflow.DROP, Duration.ZERO);
    }

    /**
     * At most {@code capacity} messages; a sender outside the runtime waits up to {@code maxWait} for room, then
     * gets a {@link MailboxFullException}; a sender on a worker gets it at once.
     */
    public static BoundedMailbox waiting(int capacity, Duration maxWait) {
        return new BoundedMailbox(capacity, Overflow.WAIT, maxWait);
    }
}

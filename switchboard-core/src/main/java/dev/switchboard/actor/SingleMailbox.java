package dev.switchboard.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * The mailbox of an {@link Actor}, and of a {@link Selector} with one mailbox: an actor is exactly a selector
 * whose single mailbox is never disabled, and both run the same code here.
 *
 * <p>Its queue is a {@link MailboxQueue}, the multi-producer single-consumer array queue of a selector's
 * mailboxes (JCTools' growable algorithm), created by the first message: an actor that has never been sent a
 * message keeps only this small object (24 bytes with compressed oops). The queue starts with room for
 * {@value #INITIAL_CAPACITY} messages and doubles when full; it never shrinks, so a steady state allocates
 * nothing per message. A selector's enable flag and guard are one more word, {@code closed}, which an actor never
 * writes: the dispatch loop reads it (it stays cached, since nothing changes it) before each poll.
 *
 * <h2>Implementation notes</h2>
 * The queue is padded (360 bytes with its first buffer): a producer and the consumer of one actor's mailbox work
 * on it at once, and unpadded queues made exactly that case (joins, servers) up to 1.9 times slower
 * (docs/benchmarks.md). {@code MailboxQueue} pads 64 bytes where JCTools' own queue pads 128 (688 bytes with its
 * first buffer), which measured the same on the joins and servers; see docs/decisions/003-actor-memory.md for the
 * actor benchmarks. It is created lazily, by the first {@link #offer}: the producer that finds
 * {@code queue} null allocates one and installs it with a CAS (compareAndExchange, a volatile write of a
 * fully constructed queue); producers that lose the race use the winner's, read from the CAS's witness. Every
 * read of {@code queue} is a volatile read, and null reads as empty. The enqueue-then-check and
 * release-then-recheck argument of {@link ActorCore} still holds: a producer installs the queue before its
 * enqueue (a CAS on the queue's producer index), so whoever reads that index after it in the synchronization
 * order also reads the installed queue.
 */
final class SingleMailbox implements SelectorMailboxes {
    static final int INITIAL_CAPACITY = 16;
    static final int MAX_CAPACITY = 1 << 30;

    /** Bits of {@link #closed}: disabled by {@code disable}, and closed by the declarative guard. */
    private static final int DISABLED = 1;
    private static final int GUARD_CLOSED = 2;
    private static final VarHandle CLOSED;
    private static final VarHandle QUEUE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLOSED = l.findVarHandle(SingleMailbox.class, "closed", int.class);
            QUEUE = l.findVarHandle(SingleMailbox.class, "queue", MailboxQueue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The queue, or null until the first message (see the implementation notes). */
    private volatile MailboxQueue queue;

    /**
     * Zero while the mailbox is enabled. Written with atomic bit operations: {@code DISABLED} by the selector's
     * processing and the tasks it spawned, {@code GUARD_CLOSED} by its processing.
     */
    private volatile int closed;
    /** The declarative guard; confined to the selector's processing. */
    private BooleanSupplier guard;

    // ------------------------------------------------------------------------------------------ Mailbox

    @Override
    public boolean offer(Object envelope, int index) {
        MailboxQueue q = queue;
        return (q != null ? q : createQueue()).offer(envelope);
    }

    /** The first message's producer: installs a queue, or takes the one another producer installed first. */
    private MailboxQueue createQueue() {
        MailboxQueue fresh = new MailboxQueue(INITIAL_CAPACITY, MAX_CAPACITY);
        MailboxQueue won = (MailboxQueue) QUEUE.compareAndExchange(this, null, fresh);
        return won != null ? won : fresh;
    }

    /** Whether the queue has been created (by the first message); for tests. */
    boolean hasQueue() {
        return queue != null;
    }

    @Override
    public Object poll() {
        MailboxQueue q = queue;
        return q != null && closed == 0 ? q.poll() : null;
    }

    @Override
    public boolean hasReady() {
        MailboxQueue q = queue;
        return q != null && closed == 0 && !q.isEmpty();
    }

    @Override
    public Object pollAny() {
        MailboxQueue q = queue;
        return q != null ? q.poll() : null;
    }

    @Override
    public boolean hasAny() {
        MailboxQueue q = queue;
        return q != null && !q.isEmpty();
    }

    @Override
    public int size() {
        MailboxQueue q = queue;
        return q != null ? q.size() : 0;
    }

    @Override
    public String internals() {
        MailboxQueue q = queue;
        return (q != null ? q.internals() : "no queue yet") + (closed != 0 ? ", closed " + closed : "");
    }

    // ------------------------------------------------------------------------------------------ SelectorMailboxes

    @Override
    public int mailboxes() {
        return 1;
    }

    @Override
    public boolean setEnabled(int index, boolean enabled) {
        if (enabled) {
            // A flag already clear needs no write and no signal (whoever cleared it signalled).
            return (closed & DISABLED) != 0 && ((int) CLOSED.getAndBitwiseAnd(this, ~DISABLED) & DISABLED) != 0;
        }
        if ((closed & DISABLED) == 0) {
            CLOSED.getAndBitwiseOr(this, DISABLED);
        }
        return false;
    }

    @Override
    public boolean setEnabled(int[] indices, boolean enabled) {
        return setEnabled(0, enabled);
    }

    @Override
    public void setAll(boolean enabled, int except) {
        setEnabled(0, enabled || except == 0);
    }

    @Override
    public boolean isEnabled(int index) {
        return closed == 0;
    }

    @Override
    public boolean allDisabled() {
        return closed != 0;
    }

    @Override
    public void guard(int index, BooleanSupplier predicate, boolean evaluate) {
        guard = predicate;
        applyGuard(predicate == null || !evaluate || predicate.getAsBoolean());
    }

    @Override
    public boolean hasGuards() {
        return guard != null;
    }

    @Override
    public void evaluateGuards() {
        applyGuard(guard.getAsBoolean());
    }

    @Override
    public int lastGuardEvaluated() {
        return 0;
    }

    private void applyGuard(boolean open) {
        boolean wasOpen = (closed & GUARD_CLOSED) == 0;
        if (open != wasOpen) {
            if (open) {
                CLOSED.getAndBitwiseAnd(this, ~GUARD_CLOSED);
            } else {
                CLOSED.getAndBitwiseOr(this, GUARD_CLOSED);
            }
        }
    }

    @Override
    public int size(int index) {
        return size();
    }

    @Override
    public int lastServed() {
        return 0;
    }
}

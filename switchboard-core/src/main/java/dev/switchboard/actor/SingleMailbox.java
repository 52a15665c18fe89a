package dev.switchboard.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import org.jctools.queues.atomic.MpscGrowableAtomicArrayQueue;

/**
 * The mailbox of an {@link Actor}, and of a {@link Selector} with one mailbox: an actor is exactly a selector
 * whose single mailbox is never disabled, and both run the same code here.
 *
 * <p>It is itself the queue: a JCTools multi-producer single-consumer array queue (the variant built on atomic
 * field updaters, so no {@code sun.misc.Unsafe}). It starts with room for {@value #INITIAL_CAPACITY} messages
 * and doubles when full; it never shrinks, so a steady state allocates nothing per message. A selector's enable
 * flag and guard are one more word, {@code closed}, which an actor never writes: the dispatch loop reads it
 * (it stays cached, since nothing changes it) before each poll.
 */
final class SingleMailbox extends MpscGrowableAtomicArrayQueue<Object> implements SelectorMailboxes {
    static final int INITIAL_CAPACITY = 16;
    static final int MAX_CAPACITY = 1 << 30;

    /** Bits of {@link #closed}: disabled by {@code disable}, and closed by the declarative guard. */
    private static final int DISABLED = 1;
    private static final int GUARD_CLOSED = 2;
    private static final VarHandle CLOSED;

    static {
        try {
            CLOSED = MethodHandles.lookup().findVarHandle(SingleMailbox.class, "closed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Zero while the mailbox is enabled. Written with atomic bit operations: {@code DISABLED} by the selector's
     * processing and the tasks it spawned, {@code GUARD_CLOSED} by its processing.
     */
    private volatile int closed;
    /** The declarative guard; confined to the selector's processing. */
    private BooleanSupplier guard;

    SingleMailbox() {
        super(INITIAL_CAPACITY, MAX_CAPACITY);
    }

    // ------------------------------------------------------------------------------------------ Mailbox

    @Override
    public boolean offer(Object envelope, int index) {
        return offer(envelope);
    }

    @Override
    public Object poll() {
        return closed == 0 ? super.poll() : null;
    }

    @Override
    public boolean hasReady() {
        return closed == 0 && !isEmpty();
    }

    @Override
    public Object pollAny() {
        return super.poll();
    }

    @Override
    public boolean hasAny() {
        return !isEmpty();
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
    public void guard(int index, BooleanSupplier predicate) {
        guard = predicate;
        applyGuard(predicate == null || predicate.getAsBoolean());
    }

    @Override
    public boolean hasGuards() {
        return guard != null;
    }

    @Override
    public void evaluateGuards() {
        applyGuard(guard.getAsBoolean());
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

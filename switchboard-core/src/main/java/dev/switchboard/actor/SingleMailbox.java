package dev.switchboard.actor;

import org.jctools.queues.atomic.MpscGrowableAtomicArrayQueue;

/**
 * The mailbox of an {@link Actor}: one always-enabled queue, which is what a selector with a single mailbox
 * reduces to, without the bitmap.
 *
 * <p>It is itself the queue: a JCTools multi-producer single-consumer array queue (the variant built on atomic
 * field updaters, so no {@code sun.misc.Unsafe}). It starts with room for {@value #INITIAL_CAPACITY} messages
 * and doubles when full; it never shrinks, so a steady state allocates nothing per message.
 */
final class SingleMailbox extends MpscGrowableAtomicArrayQueue<Object> implements Mailbox {
    static final int INITIAL_CAPACITY = 16;
    static final int MAX_CAPACITY = 1 << 30;

    SingleMailbox() {
        super(INITIAL_CAPACITY, MAX_CAPACITY);
    }

    @Override
    public boolean offer(Object envelope, int index) {
        return offer(envelope);
    }

    @Override
    public boolean hasReady() {
        return !isEmpty();
    }

    @Override
    public Object pollAny() {
        return poll();
    }

    @Override
    public boolean hasAny() {
        return !isEmpty();
    }
}

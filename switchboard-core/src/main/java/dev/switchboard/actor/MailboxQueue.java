/*
 * Adapted from JCTools 4.0.7 (https://github.com/JCTools/JCTools): the algorithm of
 * org.jctools.queues.atomic.MpscGrowableAtomicArrayQueue and its base classes, Copyright the JCTools authors,
 * licensed under the Apache License, Version 2.0 (see LICENSE and NOTICE at the root of this repository).
 * Changed: the field layout (the producer's fields side by side, the consumer's side by side, 64 bytes of
 * padding), VarHandles instead of field updaters, and an OutOfMemoryError while growing gives the claimed
 * index back.
 */
package dev.switchboard.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The multi-producer single-consumer queue of Switchboard's actors: an actor's mailbox, each mailbox of a
 * selector, and what else waits for an actor's token (the reply handlers of {@code awaitReply}, the letters a
 * monitor has seen finish). It grows, with the fields a producer touches side by side and the fields the consumer
 * touches side by side, padded apart. A mailbox's queue is created by its first message ({@link SingleMailbox},
 * {@link GuardedMailboxes}); the consumer is whoever holds the actor's token.
 *
 * <h2>Overview</h2>
 * The algorithm is JCTools' growable linked-array MPSC queue ({@code MpscGrowableAtomicArrayQueue}); only the
 * layout differs. JCTools pads the producer index onto a line of its own
 * and keeps the producer's limit, mask and buffer on another, behind the consumer's fields, so that producers
 * that read the buffer do not collide with the CAS on the index. That costs a sender two cache misses on a queue
 * it has not touched lately, and a sender that spreads its messages over a selector's mailboxes (round robin over
 * 32 mailboxes of 60 selectors: 1,920 queues) has not touched any of them lately. Here the producer's four
 * fields sit together (32 bytes, so usually on one line), and the consumer's three together, 64 bytes of
 * padding away from them and from neighbouring objects.
 *
 * <p>Indices count in steps of two; the lowest bit of the producer index marks a resize in progress. A producer
 * claims an index with a CAS and writes its element with a release store; the consumer reads elements with
 * acquire loads. A buffer of capacity {@code c} has {@code c + 1} slots: the last one links the next buffer.
 * The producer that finds the buffer full while the queue may still grow claims the odd index, allocates a
 * buffer twice as large, puts its element there, publishes the new limit and index, links the new buffer from
 * the old one and marks its own slot in the old buffer {@code JUMP}; the consumer, reaching {@code JUMP},
 * follows the link and continues at the same index. Once grown, a buffer is reused circularly.
 *
 * <h2>Implementation notes</h2>
 * {@code producerBuffer} and {@code producerMask} are plain fields: the resizing producer writes them before its
 * release store of the (even) producer index, and a producer reads them after its volatile read of that index,
 * so it sees the buffer of the index it read; if the index moved meanwhile its CAS fails and it starts over.
 * {@link #poll()} returns null only when the queue is empty: when a producer has claimed the next index but not
 * yet written its element, the consumer waits for it (the producer is between two instructions). A producer
 * that claimed the next index to resize counts as not there yet: it may be allocating a large buffer, or fail
 * to and give the index back. An offer is the first half of an actor's enqueue-then-check ({@link ActorCell}):
 * its write of the producer index must be ordered before the sender's read of the actor's status word, or the
 * sender may read the token as held while the holder, having given it up, reads the queue as empty, and the
 * message waits with nobody to take it. The CAS that claims an index is that fence; a resize makes the queue
 * non-empty only with its last write of the index, so that write is volatile too (jcstress:
 * {@code MailboxQueueGrowVsReleaseTest}). The JVM may place a subclass's small fields in a superclass's alignment gap;
 * the never-used {@code gap} fields are there to take such holes (with the default layout they do; with other
 * header or pointer sizes a {@code gap} field may itself move, which costs nothing since nobody touches it).
 * The padding is 64 bytes, half of JCTools': measured on the joins, where a producer and the consumer share a
 * mailbox, it was enough.
 */
final class MailboxQueue extends MailboxQueueConsumerFields {
    private static final Object JUMP = new Object();
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle P_INDEX;
    private static final VarHandle P_LIMIT;
    private static final VarHandle C_INDEX;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            P_INDEX = l.findVarHandle(MailboxQueueProducerFields.class, "producerIndex", long.class);
            P_LIMIT = l.findVarHandle(MailboxQueueProducerFields.class, "producerLimit", long.class);
            C_INDEX = l.findVarHandle(MailboxQueueConsumerFields.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long p20, p21, p22, p23, p24, p25, p26, p27;

    /** The maximum number of elements, times two (in index units). */
    private final long maxCapacity;

    /**
     * @param initialCapacity elements the first buffer holds (rounded up to a power of two, at least 2)
     * @param maxCapacity     elements the queue holds at most (rounded up to a power of two, at most 2^30)
     */
    MailboxQueue(int initialCapacity, int maxCapacity) {
        if (initialCapacity < 1 || initialCapacity > maxCapacity || maxCapacity > 1 << 30) {
            throw new IllegalArgumentException("capacities " + initialCapacity + " .. " + maxCapacity
                    + ": need 1 <= initial <= maximum <= 2^30");
        }
        int initial = roundToPowerOfTwo(Math.max(2, initialCapacity));
        long mask = (long) (initial - 1) << 1;
        Object[] buffer = new Object[initial + 1];
        this.maxCapacity = (long) roundToPowerOfTwo(Math.max(initial, maxCapacity)) << 1;
        producerBuffer = buffer;
        producerMask = mask;
        consumerBuffer = buffer;
        consumerMask = mask;
        P_LIMIT.setRelease(this, mask);        // publishes the fields above with the queue
    }

    private static int roundToPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /** The slot of index {@code index} (in steps of two) in a buffer of mask {@code mask}. */
    private static int slot(long index, long mask) {
        return (int) ((index & mask) >> 1);
    }

    // ------------------------------------------------------------------------------------------ producers

    /** Adds {@code e} (not null); false if the queue holds its maximum already. Any thread. */
    boolean offer(Object e) {
        if (e == null) {
            throw new NullPointerException("null element");  // the consumer would wait for it forever
        }
        long mask;
        Object[] buffer;
        long index;
        for (;;) {
            long limit = (long) P_LIMIT.getVolatile(this);
            index = (long) P_INDEX.getVolatile(this);
            if ((index & 1) == 1) {
                Thread.onSpinWait();                      // another producer is resizing
                continue;
            }
            mask = producerMask;
            buffer = producerBuffer;
            if (limit <= index) {
                long consumer = (long) C_INDEX.getVolatile(this);
                long capacity = mask + 2 == maxCapacity ? maxCapacity : mask;
                if (consumer + capacity > index) {        // room after all: move the limit up
                    P_LIMIT.compareAndSet(this, limit, consumer + capacity);
                    continue;
                }
                if (maxCapacity - (index - consumer) <= 0) {
                    return false;                         // full at the maximum capacity
                }
                if (P_INDEX.compareAndSet(this, index, index + 1)) {
                    resize(mask, buffer, index, e);
                    return true;
                }
                continue;
            }
            if (P_INDEX.compareAndSet(this, index, index + 2)) {
                break;
            }
        }
        SLOTS.setRelease(buffer, slot(index, mask), e);
        return true;
    }

    /** With the odd index claimed: links a buffer twice as large and puts {@code e} at {@code index} in it. */
    private void resize(long oldMask, Object[] oldBuffer, long index, Object e) {
        int newLength = 2 * (oldBuffer.length - 1) + 1;
        Object[] newBuffer;
        try {
            newBuffer = new Object[newLength];
        } catch (OutOfMemoryError oom) {
            P_INDEX.setRelease(this, index);              // give the index back, or every producer spins
            throw oom;
        }
        long newMask = (long) (newLength - 2) << 1;
        producerBuffer = newBuffer;
        producerMask = newMask;
        SLOTS.setRelease(newBuffer, slot(index, newMask), e);
        SLOTS.setRelease(oldBuffer, oldBuffer.length - 1, newBuffer);     // the link, read after JUMP
        long consumer = (long) C_INDEX.getVolatile(this);
        long available = maxCapacity - (index - consumer);
        P_LIMIT.setRelease(this, index + Math.min(newMask, available));
        // Ends the resize and publishes buffer and mask. Volatile, not release: this store is what makes the queue
        // non-empty (isEmpty reads an odd index as empty), and the sender's check of the actor's token that follows
        // the offer must not move before it (see "Implementation notes").
        P_INDEX.setVolatile(this, index + 2);
        SLOTS.setRelease(oldBuffer, slot(index, oldMask), JUMP);
    }

    // ------------------------------------------------------------------------------------------ the consumer

    /** Removes and returns the oldest element, or null if the queue is empty. The consumer only. */
    Object poll() {
        Object[] buffer = consumerBuffer;
        long index = (long) C_INDEX.get(this);            // plain: only this thread writes it
        long mask = consumerMask;
        int slot = slot(index, mask);
        Object e = SLOTS.getAcquire(buffer, slot);
        if (e == null) {
            // Empty also while a producer resizes at this very index (producer index = index + 1): it may be
            // allocating a large buffer, or fail to and give the index back, so do not wait for it.
            if ((index - (long) P_INDEX.getVolatile(this)) / 2 == 0) {
                return null;
            }
            do {                                          // claimed, not yet written: it comes in a moment
                Thread.onSpinWait();
                e = SLOTS.getAcquire(buffer, slot);
            } while (e == null);
        }
        if (e == JUMP) {
            Object[] next = (Object[]) SLOTS.getAcquire(buffer, buffer.length - 1);
            SLOTS.setRelease(buffer, buffer.length - 1, null);
            consumerBuffer = next;
            mask = (long) (next.length - 2) << 1;
            consumerMask = mask;
            buffer = next;
            slot = slot(index, mask);
            e = SLOTS.getAcquire(buffer, slot);           // the resizing producer wrote it before JUMP
            if (e == null) {
                throw new IllegalStateException("a new buffer without the element that made the queue grow");
            }
        }
        SLOTS.setRelease(buffer, slot, null);
        C_INDEX.setRelease(this, index + 2);
        return e;
    }

    /** Whether the queue holds no element (a snapshot). Any thread. */
    boolean isEmpty() {
        return ((long) C_INDEX.getVolatile(this) - (long) P_INDEX.getVolatile(this)) / 2 == 0;
    }

    /** The indices (in steps of two) and the capacities, in words: for diagnostics. Any thread. */
    String internals() {
        long consumer = (long) C_INDEX.getVolatile(this);
        long producer = (long) P_INDEX.getVolatile(this);
        Object[] consumerBuf = consumerBuffer;
        Object[] producerBuf = producerBuffer;
        return "producer index " + producer + ((producer & 1) != 0 ? " (resizing)" : "") + ", consumer index "
                + consumer + ", limit " + (long) P_LIMIT.getVolatile(this) + ", buffers of "
                + (consumerBuf.length - 1) + " (consumer) and " + (producerBuf.length - 1) + " (producer)";
    }

    /** The number of elements (a snapshot). Any thread. */
    int size() {
        long after = (long) C_INDEX.getVolatile(this);
        for (;;) {
            long before = after;
            long producer = (long) P_INDEX.getVolatile(this);
            after = (long) C_INDEX.getVolatile(this);
            if (before == after) {
                long n = (producer - after) >> 1;
                return (int) Math.max(0, Math.min(n, Integer.MAX_VALUE));
            }
        }
    }
}

/** Padding in front of the producer's line. */
abstract class MailboxQueuePad0 {
    int gap0;
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** Everything a producer reads or writes on the fast path, on one line. */
abstract class MailboxQueueProducerFields extends MailboxQueuePad0 {
    volatile long producerIndex;
    volatile long producerLimit;
    long producerMask;
    Object[] producerBuffer;
    int gap1;
}

/** Padding between the producers' line and the consumer's. */
abstract class MailboxQueuePad1 extends MailboxQueueProducerFields {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

/** Everything the consumer reads or writes on the fast path, on one line. */
abstract class MailboxQueueConsumerFields extends MailboxQueuePad1 {
    volatile long consumerIndex;
    long consumerMask;
    Object[] consumerBuffer;
    int gap2;
}

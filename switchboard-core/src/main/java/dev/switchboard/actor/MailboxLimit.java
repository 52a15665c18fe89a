package dev.switchboard.actor;

import dev.switchboard.internal.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The count behind a {@link BoundedMailbox}: how many messages each mailbox of one actor holds or is being given.
 *
 * <h2>Implementation notes</h2>
 * A sender reserves a place before it enqueues ({@link #tryReserve}: a CAS that never lets the count pass the
 * capacity) and the consumer releases it after taking the message out ({@link #release}), so the bound is exact.
 * Senders that wait (overflow {@code WAIT}, outside the runtime) sleep on one condition; a release wakes them
 * only when somebody waits. The waiter announces itself ({@code waiting}, a volatile increment) before it tries
 * to reserve; the releaser decrements the count (a full fence) before it reads {@code waiting}: either the waiter's
 * attempt sees the room, or the releaser sees the waiter and signals, under the lock the waiter holds while it
 * checks and goes to sleep, so the signal cannot fall between the two.
 */
final class MailboxLimit {
    final BoundedMailbox bound;
    private final AtomicIntegerArray queued;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    private volatile int waiting;

    MailboxLimit(BoundedMailbox bound, int mailboxes) {
        this.bound = bound;
        this.queued = new AtomicIntegerArray(mailboxes);
    }

    /** Takes a place in mailbox {@code index} if it has one; false if it is full. */
    boolean tryReserve(int index) {
        int capacity = bound.capacity();
        for (;;) {
            int q = queued.get(index);
            if (q >= capacity) {
                return false;
            }
            if (queued.compareAndSet(index, q, q + 1)) {
                return true;
            }
        }
    }

    /** Takes a place in mailbox {@code index} even if it is full (a stop, which must neither wait nor be dropped). */
    void forceReserve(int index) {
        queued.incrementAndGet(index);
    }

    /** Gives back a place of mailbox {@code index}: its message was taken out (or never made it in). */
    void release(int index) {
        queued.decrementAndGet(index);
        wakeAll();
    }

    /**
     * Wakes every waiting sender, if there is one: after a release, and when the actor terminated (they stop
     * waiting and dead-letter their messages).
     */
    void wakeAll() {
        if (waiting != 0) {
            lock.lock();
            try {
                room.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** What a waiting sender learned. */
    enum Outcome { RESERVED, GONE, TIMED_OUT, INTERRUPTED }

    /**
     * Waits until a place in mailbox {@code index} is reserved, {@code gone} says the actor can take no more
     * messages, {@code deadline} (by {@code clock}) passes, or the thread is interrupted (its interrupt status is
     * kept).
     */
    Outcome awaitPlace(int index, long deadline, Clock clock, java.util.function.BooleanSupplier gone) {
        lock.lock();
        try {
            waiting++;
            for (;;) {
                if (tryReserve(index)) {
                    return Outcome.RESERVED;
                }
                if (gone.getAsBoolean()) {
                    return Outcome.GONE;
                }
                long left = deadline - clock.nanoTime();
                if (left <= 0) {
                    return Outcome.TIMED_OUT;
                }
                try {
                    room.awaitNanos(clock.parkNanos(left));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Outcome.INTERRUPTED;
                }
            }
        } finally {
            waiting--;
            lock.unlock();
        }
    }

    /** Messages counted in mailbox {@code index}. */
    int queued(int index) {
        return queued.get(index);
    }

    /** The deadline {@code wait} from now by {@code clock} (at most a year away). */
    static long deadlineAfter(java.time.Duration wait, Clock clock) {
        return clock.nanoTime() + Math.min(ActorTimers.nanos(wait), TimeUnit.DAYS.toNanos(365));
    }
}

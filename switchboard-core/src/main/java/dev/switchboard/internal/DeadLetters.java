package dev.switchboard.internal;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A runtime's dead letters: their counts by reason, the listeners subscribed to them ({@code DeadLetter.subscribe})
 * and the default logging while none is. Owns the counts, the listeners and the logging's count. May touch: the
 * unscoped-failure handler (a listener's failure goes there). The letters themselves are made by the actor
 * package; here they are plain objects, and their reasons numbers (the ordinals of {@code DeadLetter.Reason}, below
 * {@link #REASONS}).
 */
public final class DeadLetters {
    private static final System.Logger LOG = Scheduler.LOG;
    @SuppressWarnings("unchecked")
    private static final Consumer<Object>[] NO_LISTENERS = new Consumer[0];

    /** How many reasons the counts keep apart: at least as many as {@code DeadLetter.Reason} has. */
    static final int REASONS = 16;

    private final Scheduler scheduler;
    /** The count of each reason (a dead letter is rare next to a message: an adder per reason is cheap). */
    private final LongAdder[] counts = new LongAdder[REASONS];
    /** What every dead letter is given to: the subscribed listeners, or the default logging while there are none. */
    private final Consumer<Object> listener = this::dispatch;
    /** The listeners subscribed to dead letters, oldest first; replaced (never changed) while holding the lock. */
    private volatile Consumer<Object>[] listeners = NO_LISTENERS;
    private final Object listenersLock = new Object();

    DeadLetters(Scheduler scheduler) {
        this.scheduler = scheduler;
        for (int i = 0; i < REASONS; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one dead letter for {@code reason} (a reason's number; one out of range counts as the last). */
    public void countOne(int reason) {
        counts[slot(reason)].increment();
    }

    /** Adds dead letters counted before this runtime knew of them (an actor's, from before its start). */
    public void count(int reason, long n) {
        if (n != 0) {
            counts[slot(reason)].add(n);
        }
    }

    private static int slot(int reason) {
        return reason >= 0 && reason < REASONS ? reason : REASONS - 1;
    }

    /** Every dead letter counted so far. */
    public long counted() {
        long sum = 0;
        for (LongAdder c : counts) {
            sum += c.sum();
        }
        return sum;
    }

    /** The dead letters counted so far for {@code reason}. */
    public long counted(int reason) {
        return counts[slot(reason)].sum();
    }

    /**
     * What to call with each dead letter (a {@code DeadLetter}, made by the actor package), in the runtime's global
     * scope (a failure there goes to the unscoped-failure handler): every subscribed listener, or, while none is,
     * the default logging. Null would mean that nobody listens (the caller then makes no letter); it is never null
     * here, since the logging listens while nothing else does.
     */
    public Consumer<Object> listener() {
        return listener;
    }

    /** Subscribes {@code listener} to this runtime's dead letters, after those subscribed before it. */
    public void subscribe(Consumer<Object> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (listenersLock) {
            Consumer<Object>[] old = listeners;
            Consumer<Object>[] now = Arrays.copyOf(old, old.length + 1);
            now[old.length] = listener;
            listeners = now;
        }
    }

    /**
     * Ends the subscription of {@code listener} (the latest, if the same object was subscribed more than once);
     * returns whether there was one. A letter being delivered at this moment may still reach it; none produced
     * after this returns does.
     */
    public boolean unsubscribe(Consumer<Object> listener) {
        synchronized (listenersLock) {
            Consumer<Object>[] old = listeners;
            for (int i = old.length - 1; i >= 0; i--) {
                if (old[i] == listener) {
                    Consumer<Object>[] now = old.length == 1 ? NO_LISTENERS : Arrays.copyOf(old, old.length - 1);
                    System.arraycopy(old, i + 1, now, i, old.length - 1 - i);
                    listeners = now;
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Gives {@code letter} to every subscribed listener, in the order they subscribed; one that throws is reported
     * to the unscoped-failure handler (as a failure of the global scope the letter is delivered in) and the others
     * still hear the letter. With no listener, logs it.
     */
    private void dispatch(Object letter) {
        Consumer<Object>[] listeners = this.listeners;
        if (listeners.length == 0) {
            logDeadLetter(letter);
            return;
        }
        for (Consumer<Object> l : listeners) {
            try {
                l.accept(letter);
            } catch (Throwable failure) {
                scheduler.reportUnscopedFailure(failure);
            }
        }
    }

    /**
     * The runtime has closed: while the default logging is on (no listener subscribed) and it logged only some of
     * the dead letters one by one, logs their total, which the counts at powers of ten left open. A close on a
     * worker logs it, and the close that waits for the pool after it again only if the total has grown.
     */
    void logTotalAtClose() {
        if (listeners.length == 0 && loggedDeadLetters.get() > LOGGED_DEAD_LETTERS) {
            long total = counted();
            if (totalLoggedAtClose.getAndSet(total) == total) {
                return;
            }
            LOG.log(System.Logger.Level.INFO, "Switchboard: runtime '" + scheduler.name() + "' closed with "
                    + total + " dead letters in all (by reason: RuntimeMetrics.of(runtime).deadLetters())");
        }
    }

    /** Dead letters the default listener logs one by one; after these it logs a count now and then. */
    private static final int LOGGED_DEAD_LETTERS = 10;
    private final AtomicLong loggedDeadLetters = new AtomicLong();
    /** The total a close logged last, or -1. */
    private final AtomicLong totalLoggedAtClose = new AtomicLong(-1);

    /**
     * The default dead-letter listener: logs the first {@value #LOGGED_DEAD_LETTERS} ({@code System.Logger}
     * "dev.switchboard", level INFO), then one line whenever the count reaches a power of ten.
     */
    private void logDeadLetter(Object letter) {
        String name = scheduler.name();
        long n = loggedDeadLetters.incrementAndGet();
        if (n <= LOGGED_DEAD_LETTERS) {
            ActorAccess access = ActorAccess.get();
            String text = access != null ? access.withoutContents(letter) : letter.getClass().getSimpleName();
            LOG.log(System.Logger.Level.INFO, "Switchboard: dead letter in runtime '" + name + "': "
                    + (text.length() <= 300 ? text : text.substring(0, 297) + "...")
                    + (n == LOGGED_DEAD_LETTERS ? " (the last one logged; later ones are counted, and logged as"
                    + " a count at every power of ten; a listener subscribed with DeadLetter.subscribe sees each one)"
                    : ""));
        } else if (UnscopedFailures.isPowerOfTen(n)) {
            LOG.log(System.Logger.Level.INFO, "Switchboard: " + n + " dead letters in runtime '" + name
                    + "' so far");
        }
    }
}

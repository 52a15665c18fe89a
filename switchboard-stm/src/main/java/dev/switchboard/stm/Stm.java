package dev.switchboard.stm;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Transactions over {@link TRef}s: {@link #atomic} runs a body as one transaction, atomically and in isolation from
 * every other transaction. A transaction that conflicts with another (it read a reference that another committed a
 * write to meanwhile) is rolled back and run again, so its body must have no effect outside the references it
 * writes: it may run several times. Effects that must happen once go in {@link #afterCommit}.
 *
 * <pre>{@code
 * TRef<Integer> stock = TRef.of(10);
 * boolean sold = Stm.atomic(() -> {
 *     int left = stock.get();
 *     if (left == 0) return false;
 *     stock.set(left - 1);
 *     Stm.afterCommit(() -> log.info("sold one, {} left", left - 1));
 *     return true;
 * });
 * }</pre>
 *
 * <p>An exception escaping the body rolls the transaction back (none of its writes are seen) and is rethrown by
 * {@code atomic}. A transaction inside another is part of it: it commits with the outer one, and an exception
 * escaping it undoes its own writes and handlers (inside a transactional message, also what it sent, asked,
 * stopped, answered, started and spawned) and reaches the outer body, which may catch it and go on. A
 * transaction that conflicts every time is given up after {@link #DEFAULT_MAX_ATTEMPTS} attempts (or the bound
 * given) with a {@link TransactionConflictException}, instead of being retried for ever.
 *
 * <p>A transaction must not wait for another thread's transaction (through a future, a lock, a queue): after
 * repeated conflicts a transaction runs alone, every other commit of writes waiting until it ends, and the other
 * transaction may be one of them. The runtime's own waits ({@code finish}, a blocking {@code get}) inside a
 * transactional actor's transaction fail at once; the JDK's cannot be seen.
 *
 * <p>The engine is TL2 with snapshot extension: reads see one snapshot (also in an attempt that will roll back, so
 * a body never sees a state that no commit left), writes are buffered and published at the commit, and a
 * transaction without writes commits without any shared write. After a rollback the next attempt waits a random,
 * growing while, so that two transactions that keep conflicting do not keep meeting; after eight rollbacks it runs
 * alone, so that a long transaction that short ones keep rolling back (an audit beside transfers) still ends.
 */
public final class Stm {
    /** How many times {@link #atomic(Supplier)} runs a transaction that keeps conflicting before it gives up. */
    public static final int DEFAULT_MAX_ATTEMPTS = 10_000;

    private Stm() {
    }

    /**
     * Runs {@code body} as one transaction and returns its result; see the class comment.
     *
     * @param <T>  the type of the result
     * @param body the transaction: may run several times, and must have no effect outside the references it writes
     * @return what the attempt that committed returned
     * @throws TransactionConflictException if it conflicted {@link #DEFAULT_MAX_ATTEMPTS} times
     */
    public static <T> T atomic(Supplier<? extends T> body) {
        return atomic(DEFAULT_MAX_ATTEMPTS, body);
    }

    /**
     * Runs {@code body} as one transaction; see the class comment.
     *
     * @param body the transaction: may run several times, and must have no effect outside the references it writes
     * @throws TransactionConflictException if it conflicted {@link #DEFAULT_MAX_ATTEMPTS} times
     */
    public static void atomic(Runnable body) {
        atomic(DEFAULT_MAX_ATTEMPTS, body);
    }

    /**
     * Runs {@code body} as one transaction, at most {@code maxAttempts} times.
     *
     * @param <T>         the type of the result
     * @param maxAttempts how many times at most the body runs before the transaction is given up
     * @param body        the transaction: may run several times, and must have no effect outside the references it
     *                    writes
     * @return what the attempt that committed returned
     * @throws TransactionConflictException if it conflicted {@code maxAttempts} times
     * @throws IllegalArgumentException      if {@code maxAttempts} is below 1
     */
    public static <T> T atomic(int maxAttempts, Supplier<? extends T> body) {
        Objects.requireNonNull(body, "body");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("a transaction needs at least 1 attempt, got " + maxAttempts);
        }
        return Transaction.current().run(maxAttempts, body, body.getClass());
    }

    /**
     * Runs {@code body} as one transaction, at most {@code maxAttempts} times.
     *
     * <pre>{@code
     * Stm.atomic(3, () -> counter.set(counter.get() + 1));
     * }</pre>
     *
     * @param maxAttempts how many times at most the body runs before the transaction is given up
     * @param body        the transaction: may run several times, and must have no effect outside the references it
     *                    writes
     * @throws TransactionConflictException if it conflicted {@code maxAttempts} times
     * @throws IllegalArgumentException      if {@code maxAttempts} is below 1
     */
    public static void atomic(int maxAttempts, Runnable body) {
        Objects.requireNonNull(body, "body");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("a transaction needs at least 1 attempt, got " + maxAttempts);
        }
        Transaction.current().run(maxAttempts, () -> {
            body.run();
            return null;
        }, body.getClass());                              // the kind is the caller's body, not this wrapper
    }

    /**
     * Whether this thread runs a transaction now.
     *
     * @return true inside {@link #atomic} or a transactional message
     */
    public static boolean inTransaction() {
        return Transaction.current().active();
    }

    /**
     * Runs {@code action} once the current transaction has committed (not if it rolls back: then the attempt that
     * commits registers it again). Every handler runs, in the order registered; if one throws, the first exception
     * is thrown by the transaction once all have run (the later ones suppressed in it), and <b>the commit
     * stands</b>: a caller that runs the transaction again for it applies it twice.
     *
     * @param action what to run once, after the commit, on the committing thread
     * @throws IllegalStateException outside a transaction
     */
    public static void afterCommit(Runnable action) {
        Objects.requireNonNull(action, "action");
        requireTransaction("afterCommit").afterCommit(action);
    }

    /**
     * Runs {@code action} if the current attempt of the transaction rolls back (before the body runs again, or
     * before an exception that escaped the body is rethrown). Every handler runs; an exception one throws is added
     * to the body's exception as a suppressed one, or, when the attempt rolled back on a conflict, ends the
     * transaction, rolled back: it is thrown instead of running the body again.
     *
     * @param action what to run if this attempt rolls back
     * @throws IllegalStateException outside a transaction
     */
    public static void afterRollback(Runnable action) {
        Objects.requireNonNull(action, "action");
        requireTransaction("afterRollback").afterRollback(action);
    }

    private static Transaction requireTransaction(String op) {
        Transaction t = Transaction.current();
        if (!t.active()) {
            throw new IllegalStateException("Stm." + op + "() was called outside a transaction");
        }
        return t;
    }
}

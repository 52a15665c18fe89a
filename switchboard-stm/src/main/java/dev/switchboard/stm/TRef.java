package dev.switchboard.stm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A transactional reference: a value that transactions read and write atomically and in isolation
 * ({@link Stm#atomic}, or a transactional actor's transactional messages). Outside a transaction it can only be
 * read, with {@link #directGet()}.
 *
 * <pre>{@code
 * TRef<Long> alice = TRef.of(100L), bob = TRef.of(0L);
 * Stm.atomic(() -> {                      // both writes, or neither; no other transaction sees half of it
 *     alice.set(alice.get() - 30);
 *     bob.set(bob.get() + 30);
 * });
 * long audit = Stm.atomic(() -> alice.get() + bob.get());   // one snapshot: 100, whatever commits meanwhile
 * }</pre>
 *
 * <p>Three reads, from strict to relaxed. Only the first gives several reads that agree with each other:
 * <ul>
 *   <li>{@link #get()}, inside a transaction: recorded and validated. Every value a transaction reads with
 *       {@code get()} is of one snapshot (a concurrent write to a reference it read rolls it back, and it runs
 *       again), so a read-only transaction of {@code get()}s is a consistent audit of many references.</li>
 *   <li>{@link #relaxedGet()}, inside a transaction: an <em>unrecorded</em> read ([TxActors]' relaxed read), kept
 *       out of the read set and never checked again, neither
 *       when the transaction moves its snapshot forward nor at its commit. It sees the latest committed value (or
 *       the transaction's own write) when it reads; two relaxed reads may see a transfer between them half
 *       done. For a value that may be stale (a statistic, a hint), never for a sum that must hold.</li>
 *   <li>{@link #directGet()}, anywhere: the value the last committed write left, read without a transaction: it
 *       never waits, is never recorded and never makes a writer roll back ([TxActors]'s
 *       {@code singleRelaxedGet}). It is the value some transaction committed, never one a transaction wrote and
 *       then rolled back, and never a value still in a running transaction's buffer; but two direct reads of two
 *       references may see one committing transaction's writes to the first and not yet to the second.</li>
 * </ul>
 *
 * <p><b>A node that is its own reference.</b> A linked structure whose links are {@code TRef}s pays one object, and
 * one load per step, more than a plain one: {@code record Node(int value, TRef<Node> next)} walks through the node,
 * then its reference, then the next node. A class may instead <em>extend</em> {@code TRef}, so that its
 * transactional field lives in the object itself, as Netty's and JCTools' classes extend {@code AtomicReference}:
 *
 * <pre>{@code
 * final class Node extends TRef<Node> {     // the TRef's value is the next node
 *     final int value;
 *     Node(int value, Node next) { super(next); this.value = value; }
 * }
 * for (Node n = head.get(); n != null; n = n.get()) { ... }       // one object per step, as a plain list
 * }</pre>
 *
 * <p>References are compared by identity; {@code equals}, {@code hashCode} and the reading and writing methods are
 * final.
 *
 * @param <T> the type of the value (null is a value too)
 */
public class TRef<T> {
    /*
     * Implementation notes. The engine is Transaction's (TL2 with snapshot extension; its overview explains the
     * protocol). A reference is two words: its value, and its version word:
     *
     *   meta:  bit 63     LOCKED: a commit holds the reference (between its lock and its write-back)
     *          bits 0-62  the clock value of the commit that last wrote it (0 for the initial value)
     *
     * With the lock in the sign bit, "unlocked and at most rv" is one unsigned comparison of meta with rv.
     *
     * `owner` is the transaction holding the lock, written after the lock's CAS and cleared before its release;
     * another thread reads it only to learn that the lock is not its own (a stale value it reads is another
     * transaction or null, never its own: it cleared its own before releasing). Orderings: a reader loads meta,
     * value and meta again as volatile loads (a seqlock: the value load cannot move past either meta load; plain
     * volatile reads rather than VarHandle acquire loads because they are one bytecode each, which keeps the read
     * path small enough to inline into a caller's loop, at the same cost on x86 and ARM); a commit takes the lock
     * with a CAS (a full fence: its value stores cannot move before it), stores the value with release and
     * releases meta with a release store after it. A direct read is a volatile load of the value: a value is
     * stored only in the write-back of a commit that has validated, so it is always a committed one.
     */
    static final long LOCKED = Long.MIN_VALUE;
    private static final VarHandle META;
    private static final VarHandle VALUE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            META = l.findVarHandle(TRef.class, "meta", long.class);
            VALUE = l.findVarHandle(TRef.class, "value", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Read as a volatile field (one bytecode, so the read path inlines); written through META. */
    private volatile long meta;
    /** Read as a volatile field; written through VALUE. */
    private volatile Object value;
    private Transaction owner;

    /**
     * A reference holding {@code initial}, for a class that extends {@code TRef} to hold its transactional field
     * itself (see the class comment); otherwise use {@link #of}.
     *
     * @param initial its first value (null too)
     */
    protected TRef(T initial) {
        VALUE.setRelease(this, initial);     // a reference published through a race still shows its initial value
    }

    /**
     * A new reference holding {@code initial}.
     *
     * @param <T>     the type of the value
     * @param initial its first value (null too)
     * @return the reference
     */
    public static <T> TRef<T> of(T initial) {
        return new TRef<>(initial);
    }

    /**
     * The value, inside a transaction: recorded, so a concurrent commit to this reference rolls this transaction
     * back.
     *
     * @return the value this transaction sees
     * @throws IllegalStateException outside a transaction
     */
    public final T get() {
        return Transaction.current().read(this);
    }

    /**
     * Sets the value, inside a transaction: visible to others once (and only if) the transaction commits.
     *
     * @param value the new value (null too)
     * @throws IllegalStateException outside a transaction, or in a read-only message of a transactional actor
     */
    public final void set(T value) {
        ReadOnlyScope.requireWritable("set");
        txn("set").write(this, value);
    }

    /**
     * Sets the value and returns the previous one, inside a transaction.
     *
     * @param value the new value (null too)
     * @return the value before
     * @throws IllegalStateException outside a transaction
     */
    public final T getAndSet(T value) {
        ReadOnlyScope.requireWritable("getAndSet");
        Transaction t = txn("getAndSet");
        T previous = t.read(this);
        t.write(this, value);
        return previous;
    }

    /**
     * Replaces the value by {@code f} of it, inside a transaction.
     *
     * @param f the new value as a function of the old (it may run again if the transaction does)
     * @throws IllegalStateException outside a transaction
     */
    public final void transform(UnaryOperator<T> f) {
        Objects.requireNonNull(f, "f");
        ReadOnlyScope.requireWritable("transform");
        Transaction t = txn("transform");
        t.write(this, f.apply(t.read(this)));
    }

    /**
     * An unrecorded read, inside a transaction: the latest committed value (or this transaction's own write), kept
     * out of the read set (see the class comment for what that spares the transaction).
     *
     * @return the latest committed value, or this transaction's own write
     * @throws IllegalStateException outside a transaction
     */
    public final T relaxedGet() {
        return txn("relaxedGet").relaxedRead(this);
    }

    /**
     * The last committed value, read without a transaction, from anywhere (see the class comment for what it may
     * see). Inside a transaction it ignores the transaction's own writes.
     *
     * @return the last committed value
     */
    @SuppressWarnings("unchecked")
    public final T directGet() {
        return (T) value;
    }

    private Transaction txn(String op) {
        Transaction t = Transaction.current();
        if (!t.active()) {
            throw outsideATransaction(op);
        }
        return t;
    }

    static IllegalStateException outsideATransaction(String op) {
        return new IllegalStateException("TRef." + op + "() was called outside a transaction: run it inside"
                + " Stm.atomic(...) or a transactional message, or read the last committed value with"
                + " directGet()");
    }

    /* ---------------------------------------------------------------- the engine's access */

    /** The version word (a volatile read: acquire, and ordered with the value's read). */
    long meta() {
        return meta;
    }

    /** The value (a volatile read). */
    Object value() {
        return value;
    }

    /**
     * Takes the lock for {@code t}'s commit, waiting while another holds it: at most {@code spins} re-reads, or, if
     * {@code untilFree}, as long as it takes.
     */
    boolean tryLock(Transaction t, int spins, boolean untilFree) {
        for (int i = 0; ; i++) {
            long m = (long) META.getAcquire(this);
            if ((m & LOCKED) == 0) {
                if (META.compareAndSet(this, m, m | LOCKED)) {
                    owner = t;
                    return true;
                }
            } else if (i >= spins && !untilFree) {
                return false;
            } else {
                Transaction.waitABit(i);
            }
        }
    }

    /** Releases a lock taken for a commit that rolls back: the version stays what it was. */
    void unlock() {
        owner = null;
        long m = (long) META.getAcquire(this);
        META.setRelease(this, m & ~LOCKED);
    }

    /** The write-back of a commit that holds the lock: the value, then the version word {@code released}. */
    void publish(Object newValue, long released) {
        VALUE.setRelease(this, newValue);
        owner = null;
        META.setRelease(this, released);
    }

    /** Whether a transaction with snapshot {@code rv} that read this reference may still keep what it read. */
    boolean unchangedSince(long rv, Transaction t) {
        long m = meta;
        return (m & ~LOCKED) <= rv && ((m & LOCKED) == 0 || owner == t);
    }

    /** Identity, as every reference. */
    @Override
    public final boolean equals(Object other) {
        return this == other;
    }

    /** Identity, as every reference. */
    @Override
    public final int hashCode() {
        return System.identityHashCode(this);
    }

    /** {@code TRef[value]}, with the last committed value. */
    @Override
    public String toString() {
        return "TRef[" + directGet() + "]";
    }
}

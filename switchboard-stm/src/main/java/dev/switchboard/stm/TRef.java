package dev.switchboard.stm;

import java.util.Objects;
import java.util.function.UnaryOperator;
import scala.concurrent.stm.InTxn;
import scala.concurrent.stm.Ref;
import scala.concurrent.stm.ccstm.Handle;
import scala.concurrent.stm.japi.STM;

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
 *   <li>{@link #relaxedGet()}, inside a transaction: an <em>unrecorded</em> read (ScalaSTM's {@code relaxedGet}
 *       with an equivalence that accepts any value), kept out of the read set and never checked again, neither
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
 * @param <T> the type of the value (null is a value too)
 */
public final class TRef<T> {
    /*
     * Implementation notes. ScalaSTM (CCSTM) is write-back: a transaction's writes wait in its own buffer and are
     * copied into the reference's volatile `data` field only while it commits, after its validation has succeeded
     * and with the reference's metadata locked. So a plain volatile read of `data` sees only committed values (or
     * the value a committed transaction is copying in right now), which is the direct read the paper added to
     * ScalaSTM as GenericRef.singleRelaxedGet(). In ScalaSTM 0.11 every reference is a Handle (the engine's view
     * of a location: its metadata and its data), whose data() reads that field; `Ref.make` creates a GenericRef,
     * a Handle, for every reference type (checked at creation).
     * The jcstress test DirectReadTest (switchboard-stress) checks that a direct read returns only committed
     * values, never a rolled-back or speculative one.
     */
    private static final scala.Function2<Object, Object, Object> ANY_VALUE_WILL_DO = (a, b) -> Boolean.TRUE;

    private final Ref<T> ref;
    private final Handle<T> committed;

    @SuppressWarnings("unchecked")
    private TRef(T initial) {
        Ref.View<T> view = STM.newRef(initial);
        if (!(view instanceof Handle<?> h) || !(view instanceof Ref<?>)) {
            throw new IllegalStateException("the transactional engine made a " + view.getClass().getName()
                    + " where a ScalaSTM reference with a handle was expected: the direct read needs it");
        }
        this.committed = (Handle<T>) h;
        this.ref = (Ref<T>) view;
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
    public T get() {
        return ref.get(txn("get"));
    }

    /**
     * Sets the value, inside a transaction: visible to others once (and only if) the transaction commits.
     *
     * @param value the new value (null too)
     * @throws IllegalStateException outside a transaction, or in a read-only message of a transactional actor
     */
    public void set(T value) {
        ReadOnlyScope.requireWritable("set");
        ref.set(value, txn("set"));
    }

    /**
     * Sets the value and returns the previous one, inside a transaction.
     *
     * @param value the new value (null too)
     * @return the value before
     * @throws IllegalStateException outside a transaction
     */
    public T getAndSet(T value) {
        ReadOnlyScope.requireWritable("getAndSet");
        return ref.swap(value, txn("getAndSet"));
    }

    /**
     * Replaces the value by {@code f} of it, inside a transaction.
     *
     * @param f the new value as a function of the old (it may run again if the transaction does)
     * @throws IllegalStateException outside a transaction
     */
    public void transform(UnaryOperator<T> f) {
        Objects.requireNonNull(f, "f");
        ReadOnlyScope.requireWritable("transform");
        InTxn t = txn("transform");
        ref.set(f.apply(ref.get(t)), t);
    }

    /**
     * An unrecorded read, inside a transaction: the latest committed value (or this transaction's own write), kept
     * out of the read set (see the class comment for what that spares the transaction, and what not).
     *
     * @return the latest committed value, or this transaction's own write
     * @throws IllegalStateException outside a transaction
     */
    @SuppressWarnings("unchecked")
    public T relaxedGet() {
        return ref.relaxedGet((scala.Function2<T, T, Object>) (scala.Function2<?, ?, ?>) ANY_VALUE_WILL_DO,
                txn("relaxedGet"));
    }

    /**
     * The last committed value, read without a transaction, from anywhere (see the class comment for what it may
     * see). Inside a transaction it ignores the transaction's own writes.
     *
     * @return the last committed value
     */
    public T directGet() {
        return committed.data();
    }

    private InTxn txn(String op) {
        InTxn t = Engine.currentOrNull();
        if (t == null) {
            throw new IllegalStateException("TRef." + op + "() was called outside a transaction: run it inside"
                    + " Stm.atomic(...) or a transactional message, or read the last committed value with"
                    + " directGet()");
        }
        return t;
    }

    /** {@code TRef[value]}, with the last committed value. */
    @Override
    public String toString() {
        return "TRef[" + directGet() + "]";
    }
}

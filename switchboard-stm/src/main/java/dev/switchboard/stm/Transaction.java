package dev.switchboard.stm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One thread's transaction: its snapshot, its read set, its buffered writes and its handlers; one object per
 * thread, reused by every transaction the thread runs. The engine behind {@link Stm} and {@link TRef}.
 */
final class Transaction {
    /*
     * Overview. The engine is TL2 (Dice, Shalev and Shavit, "Transactional Locking II", DISC 2006) with the snapshot
     * extension of LSA (Riegel, Felber and Fetzer, "A Lazy Snapshot Algorithm with Eager Validation", DISC 2006):
     *
     * - A global version clock (CLOCK). Every reference carries a version word (TRef.meta): the clock value of the
     *   commit that last wrote it, and a lock bit.
     * - A transaction starts by reading the clock: its read version rv. A recorded read (TRef.get) reads the
     *   reference's version word, its value and the word again; it accepts the value if the two words agree, are
     *   unlocked and the version is at most rv: the value belongs to the snapshot rv. The reference goes into the
     *   read set.
     * - A reference newer than rv does not roll the transaction back at once: the transaction reads the clock
     *   again and checks that every reference in its read set is still unlocked and at most rv (unchanged since it
     *   was read); if so, the snapshot moves forward to the new clock value and the read is tried again. If not,
     *   the transaction rolls back. So every value a transaction sees belongs to one snapshot, also in an attempt
     *   that will roll back (opacity): a body never sees a state no commit left.
     * - Writes are buffered in the write set (TRef.set) and read back by the transaction's own reads.
     * - A commit with no writes has nothing to do: its reads were one snapshot. A commit with writes locks the
     *   written references (a CAS of the lock bit, in the order the writes were made; a reference locked by another
     *   committer is waited for a little, then the transaction rolls back rather than wait for ever), takes a
     *   write version wv from the clock (increment), validates the read set (every reference unlocked, or locked by
     *   this transaction, and at most rv; skipped when wv = rv + 1, since then no other commit took a version in
     *   between), copies the buffered values into the references and releases each lock with the version wv.
     * - An unrecorded read (TRef.relaxedGet) reads the latest committed value and is kept out of the read set: it
     *   is never validated. A direct read (TRef.directGet) reads the value field alone, outside any transaction.
     *
     * Why a direct read sees only committed values: a value reaches TRef.value only in the write-back of a commit
     * that has already validated; nothing after the validation can roll it back.
     *
     * Transactions guessed to only read keep no read set (the read-only transactions of TL2). Each kind of
     * transaction (the body's class; for a transactional actor, the message's class) starts recording; after
     * ReadOnlyGuess.STREAK read-only commits in a row it is guessed read-only, and its attempts keep no read set: a
     * read newer than the snapshot then rolls the attempt back (the snapshot cannot move without a read set), and a
     * write rolls it back and makes its kind record again, for twice as many read-only commits before the next
     * guess. Without a read set the reads are still one snapshot, and a read-only commit needs nothing more.
     *
     * Nesting is flat: a transaction inside another is part of it. An exception escaping a nested body undoes what
     * the nested body wrote (an undo log of the outer writes it overwrote, kept only while nested) and its
     * handlers, and is rethrown to the outer body, which may catch it and go on; a conflict rolls back the whole.
     *
     * Implementation notes.
     * - Finding this thread's transaction is on every read. BY_THREAD, indexed by the thread's id, saves the thread
     *   local's lookup: a slot is written without synchronization, but a thread uses the object it finds only if
     *   the object's final `thread` field is itself, and only the thread itself made and stored it, so it sees
     *   its own complete object (another thread's object, read through a race, still shows its final field
     *   initialized). A slot keeps its thread (dead or not) until a new thread of that slot replaces it.
     * - A conflict unwinds the body with ROLLBACK, a preallocated Error without a stack trace. A body that catches
     *   it and goes on finds the transaction doomed: every further read throws it again, and the commit rolls back.
     * - Contention: after a rollback the next attempt waits a random number of spins, bounded by a power of two that
     *   doubles with the attempts (to 2^12), then yields the processor from the 16th attempt on.
     * - Progress: a transaction that has rolled back ALONE_AFTER times runs alone: it takes ALONE (one at a time),
     *   and until it ends every other commit of writes waits before it locks anything. Commits already past that
     *   point can still make it roll back, but they are finitely many, so a long reader that every writer keeps
     *   rolling back (an audit beside transfers) ends. Running alone, it waits for a locked reference as long as
     *   the commit holding it takes (that commit waits for nothing), where others roll back after LOCKED_SPINS
     *   re-reads. The price on the fast path is one read of ALONE per commit of writes. A transaction running
     *   alone must not wait for another thread's transaction: that one may be waiting for it.
     * - The read set keeps the references, not their versions: a reference of the read set is valid while it is
     *   unlocked (or locked by this transaction) and at most rv, since no commit can give it a version at most rv
     *   after this transaction read it (a committer locks before it takes its version from the clock).
     * - Handlers: every handler of a commit (or of a rollback) runs, even if one before it throws; the first
     *   exception is kept, the later ones suppressed in it. A commit's comes out of the transaction after the
     *   commit, which stands (CommitHandlerFailed carries it out of runAttempts, so that a transactional actor can
     *   replay the committed attempt's effects before it fails). A rollback's, after a body that threw, is
     *   suppressed in the body's exception; after a conflict it ends the transaction and is thrown: a handler that
     *   fails would otherwise run again, and fail unseen, at every retry.
     * - The write set (WriteSet) is cleared after each transaction: its values must not be kept alive by a thread's
     *   idle transaction. The read set is not: clearing it (a reference store per entry, with the collector's
     *   barrier) took about a tenth of a long walk's time, so until the thread's next transactions overwrite them it keeps at most KEPT_CAPACITY references (and
     *   their current values) alive; a bigger read set is dropped at the end of its transaction.
     */

    /** The global version clock: the version of the last commit that took one. */
    private static final AtomicLong CLOCK = new AtomicLong();
    /** The transaction that runs alone, if one does: no other commits a write meanwhile. */
    private static final AtomicReference<Transaction> ALONE = new AtomicReference<>();
    /** The attempts after which a transaction runs alone. */
    static final int ALONE_AFTER = 8;
    private static final ThreadLocal<Transaction> CURRENT = ThreadLocal.withInitial(Transaction::new);
    /**
     * A faster way to this thread's transaction object than CURRENT: slot threadId mod 256 holds the object of
     * one of the threads whose ids fall there (the first still alive to ask); the others use CURRENT.
     */
    private static final Transaction[] BY_THREAD = new Transaction[256];

    /** How a conflict unwinds a body: preallocated, without a stack trace. */
    static final Error ROLLBACK = new Error("a transaction conflicted and rolls back (the engine catches this: a"
            + " transaction's body must not)", null, false, false) {
    };

    private static final int KEPT_CAPACITY = 4_096;
    /** How many times a read or a commit re-reads a locked reference before the transaction rolls back. */
    private static final int LOCKED_SPINS = 256;

    /** How many atomic blocks of this thread are open: 0 outside a transaction. */
    private int depth;
    /**
     * The effects held for the attempt of a transactional message that runs now (set by MessageAttempts), or null:
     * a nested body that fails drops the ones it added.
     */
    HeldEffects held;
    /** The snapshot's version. */
    private long rv;
    /** Set by a conflict a body may have swallowed: the attempt can only roll back. */
    private boolean doomed;
    /** The exception a commit's handlers threw, from commit() to runAttempts; null otherwise. */
    private Throwable commitHandlerFailure;
    /**
     * Zero while a recorded read may take the fast path: in a transaction, not doomed, nothing written yet (so no
     * own write to look for). Anything else sends reads to the slow path, which sorts it out.
     */
    private int readsSlowly = 1;
    /** Whether this attempt keeps no read set, on the guess that it only reads (see the overview). */
    private boolean unrecorded;
    /** Whether this attempt tried to write while keeping no read set: it rolls back, and its kind records. */
    private boolean wroteUnrecorded;

    private TRef<?>[] reads = new TRef<?>[64];
    private int readCount;
    private final WriteSet writes = new WriteSet();
    /** The locks this commit holds: the write set's entries 0 .. locked - 1. */
    private int locked;

    private final List<Runnable> onCommit = new ArrayList<>(0);
    private final List<Runnable> onRollback = new ArrayList<>(0);

    /** The thread this transaction object belongs to. */
    private final Thread thread = Thread.currentThread();

    private Transaction() {
        int i = slot(thread);
        Transaction there = BY_THREAD[i];
        if (there == null || !there.thread.isAlive()) {
            BY_THREAD[i] = this;                         // racy, and only ever read by this thread (see current())
        }
    }

    private static int slot(Thread t) {
        return (int) t.threadId() & (BY_THREAD.length - 1);
    }

    /** This thread's transaction object (inside a transaction or not). */
    static Transaction current() {
        Thread me = Thread.currentThread();
        Transaction t = BY_THREAD[slot(me)];
        return t != null && t.thread == me ? t : CURRENT.get();
    }

    boolean active() {
        return depth > 0;
    }

    /** Whether this transaction runs alone now (see the overview). */
    boolean runsAlone() {
        return depth > 0 && ALONE.get() == this;
    }

    /* ---------------------------------------------------------------- running */

    /**
     * Runs {@code body} as a transaction of at most {@code maxAttempts} attempts, or as part of the open one;
     * {@code kind} names what the body does (its class, a message's class), for the guess that it only reads.
     */
    <T> T run(int maxAttempts, Supplier<? extends T> body, Class<?> kind) {
        try {
            return runKeepingCommit(maxAttempts, body, kind);
        } catch (CommitHandlerFailed failed) {
            throw sneaky(failed.getCause());              // the commit stands
        }
    }

    /**
     * {@link #run}, where a commit handler's exception comes out as a {@link CommitHandlerFailed}: the caller learns
     * that the transaction committed (a transactional actor then replays the attempt's effects before it fails).
     */
    <T> T runKeepingCommit(int maxAttempts, Supplier<? extends T> body, Class<?> kind) {
        if (depth > 0) {
            return runNested(body);
        }
        try {
            return runAttempts(maxAttempts, body, ReadOnlyGuess.of(kind));
        } finally {
            if (ALONE.get() == this) {
                ALONE.set(null);
            }
        }
    }

    private <T> T runAttempts(int maxAttempts, Supplier<? extends T> body, ReadOnlyGuess guess) {
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            if (attempt > ALONE_AFTER && ALONE.get() != this) {
                runAlone();
            }
            begin(guess.readOnly());
            T result;
            try {
                result = body.get();
            } catch (Throwable failure) {
                if (failure == ROLLBACK || doomed) {
                    if (wroteUnrecorded) {
                        guess.wrote();                   // wrong guess: this and later attempts record
                    }
                    throwIfFailed(rollBack());
                    backOff(attempt);
                    continue;
                }
                Throwable handler = rollBack();
                if (handler != null && handler != failure) {
                    failure.addSuppressed(handler);      // the body's exception is the problem; the handler's joins it
                }
                throw failure;
            }
            boolean readOnly = writes.size() == 0;
            if (commit()) {
                guess.committed(readOnly);
                Throwable handler = commitHandlerFailure;
                if (handler != null) {
                    commitHandlerFailure = null;
                    throw new CommitHandlerFailed(handler);
                }
                return result;
            }
            if (wroteUnrecorded) {
                guess.wrote();                           // a body that swallowed the rollback of its write
            }
            backOff(attempt);
        }
        throw new TransactionConflictException("a transaction was given up after " + maxAttempts
                + (maxAttempts == 1 ? " attempt" : " attempts") + ": it conflicted with other transactions every time"
                + " (make it shorter, or make the references it reads less contended)", maxAttempts);
    }

    private <T> T runNested(Supplier<? extends T> body) {
        long mark = writes.enterNested();
        int commits = onCommit.size();
        int rollbacks = onRollback.size();
        HeldEffects effects = held;
        HeldEffects.Mark effectsMark = effects == null ? null : effects.mark();
        depth++;
        try {
            return body.get();
        } catch (Throwable failure) {
            if (failure != ROLLBACK && !doomed) {
                writes.undoTo(mark);
                undoHandlers(commits, rollbacks);
                if (effects != null) {
                    effects.undoTo(effectsMark);         // what the nested body sent, spawned or answered
                }
            }
            throw failure;
        } finally {
            depth--;
            writes.leaveNested(mark);
        }
    }

    /** A nested body failed: its commit handlers are dropped, its rollback handlers run. */
    private void undoHandlers(int commits, int rollbacks) {
        onCommit.subList(commits, onCommit.size()).clear();
        List<Runnable> undone = List.copyOf(onRollback.subList(rollbacks, onRollback.size()));
        onRollback.subList(rollbacks, onRollback.size()).clear();
        undone.forEach(Runnable::run);
    }

    private void begin(boolean unrecordedReads) {
        depth = 1;
        doomed = false;
        unrecorded = unrecordedReads;
        wroteUnrecorded = false;
        readsSlowly = 0;
        rv = CLOCK.get();
    }

    /**
     * Commits the attempt: true (a commit handler's exception, if one threw, is left in
     * {@link #commitHandlerFailure}), or false after rolling it back (a rollback handler's exception is thrown).
     */
    private boolean commit() {
        if (writes.size() == 0) {
            if (doomed) {
                throwIfFailed(rollBack());
                return false;
            }
            commitHandlerFailure = endAndRun(onCommit);
            return true;
        }
        waitWhileAnotherRunsAlone();
        if (doomed || !lockWrites()) {
            throwIfFailed(rollBack());
            return false;
        }
        long wv = CLOCK.incrementAndGet();
        if (wv != rv + 1 && !readSetValid()) {
            throwIfFailed(rollBack());
            return false;
        }
        for (int i = 0; i < writes.size(); i++) {
            writes.ref(i).publish(writes.value(i), wv);
        }
        locked = 0;
        commitHandlerFailure = endAndRun(onCommit);
        return true;
    }

    private boolean lockWrites() {
        locked = 0;
        boolean alone = ALONE.get() == this;
        for (int i = 0; i < writes.size(); i++) {
            if (!writes.ref(i).tryLock(this, LOCKED_SPINS, alone)) {
                return false;
            }
            locked++;
        }
        return true;
    }

    /** Rolls the attempt back; returns the exception of its rollback handlers, or null. */
    private Throwable rollBack() {
        for (int i = 0; i < locked; i++) {
            writes.ref(i).unlock();
        }
        locked = 0;
        return endAndRun(onRollback);
    }

    /** After a conflict's rollback: a rollback handler's exception ends the transaction (see the notes). */
    private static void throwIfFailed(Throwable handlerFailure) {
        if (handlerFailure != null) {
            throw sneaky(handlerFailure);
        }
    }

    /** Throws {@code t} as it is (a handler is a Runnable, but may have thrown a checked exception all the same). */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /**
     * The transaction committed, and a commit handler threw (the cause): out of {@link #runKeepingCommit} to a
     * caller that acts on the commit first. No stack trace of its own: only its cause is ever seen.
     */
    static final class CommitHandlerFailed extends RuntimeException {
        CommitHandlerFailed(Throwable handlerFailure) {
            super(null, handlerFailure, false, false);
        }
    }

    /** Leaves the transaction: depth 0, sets cleared. */
    private void end() {
        depth = 0;
        readsSlowly = 1;
        if (readCount > KEPT_CAPACITY) {
            reads = new TRef<?>[64];
        }
        readCount = 0;
        writes.clear();
        onCommit.clear();
        onRollback.clear();
    }

    /**
     * Leaves the transaction, then runs {@code handlers} (copied first: they may run transactions of their own),
     * every one of them; returns the first exception one threw, the later ones suppressed in it, or null.
     */
    private Throwable endAndRun(List<Runnable> handlers) {
        if (handlers.isEmpty()) {
            end();
            return null;
        }
        List<Runnable> toRun = List.copyOf(handlers);
        end();
        Throwable first = null;
        for (Runnable handler : toRun) {
            try {
                handler.run();
            } catch (Throwable t) {
                if (first == null) {
                    first = t;
                } else if (t != first) {
                    first.addSuppressed(t);
                }
            }
        }
        return first;
    }

    /** Becomes the transaction that runs alone, once the one that does (if any) has ended. */
    private void runAlone() {
        for (int spins = 0; !ALONE.compareAndSet(null, this); spins++) {
            waitABit(spins);
        }
    }

    /** Before a commit of writes: waits while another transaction runs alone. */
    private void waitWhileAnotherRunsAlone() {
        Transaction alone;
        for (int spins = 0; (alone = ALONE.get()) != null && alone != this; spins++) {
            waitABit(spins);
        }
    }

    /** Waits a little: spins at first, then yields the processor (the thread it waits for may not be running). */
    static void waitABit(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    private static void backOff(int attempt) {
        if (attempt >= 16) {
            Thread.yield();
            return;
        }
        int spins = ThreadLocalRandom.current().nextInt(1 << Math.min(attempt, 12));
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
    }

    /* ---------------------------------------------------------------- reads */

    /**
     * A recorded read of {@code r} (see the overview). The fast path is kept small so that it inlines into the
     * caller's loop: a consistent, unlocked value not newer than the snapshot, with room in the read set.
     */
    @SuppressWarnings("unchecked")
    <T> T read(TRef<T> r) {
        long m = r.meta();
        Object v = r.value();
        if (readsSlowly == 0 && m == r.meta() && Long.compareUnsigned(m, rv) <= 0) {
            if (unrecorded) {
                return (T) v;
            }
            if (readCount < reads.length) {
                reads[readCount++] = r;
                return (T) v;
            }
        }
        return readSlowly(r);
    }

    @SuppressWarnings("unchecked")
    private <T> T readSlowly(TRef<T> r) {
        if (depth == 0) {
            throw TRef.outsideATransaction("get");
        }
        if (writes.size() != 0) {
            int i = writes.find(r);
            if (i >= 0) {
                return (T) writes.value(i);
            }
        }
        for (int spins = 0; ; ) {
            if (doomed) {
                throw ROLLBACK;
            }
            long m1 = r.meta();
            Object v = r.value();
            long m2 = r.meta();
            if (m1 == m2 && (m1 & TRef.LOCKED) == 0) {
                if (m1 <= rv) {
                    if (!unrecorded) {
                        record(r);
                    }
                    return (T) v;
                }
                if (unrecorded) {
                    throw doom();                        // no read set to move the snapshot with
                }
                extend();                                // newer than the snapshot: move it, or roll back
            } else if (++spins > LOCKED_SPINS && ALONE.get() != this) {
                throw doom();
            } else {
                waitABit(spins);                         // a commit is writing it back
            }
        }
    }

    /** An unrecorded read of {@code r}: the latest committed value, or this transaction's own write. */
    @SuppressWarnings("unchecked")
    <T> T relaxedRead(TRef<T> r) {
        if (writes.size() != 0) {
            int i = writes.find(r);
            if (i >= 0) {
                return (T) writes.value(i);
            }
        }
        if (doomed) {
            throw ROLLBACK;
        }
        return (T) r.value();
    }

    private void record(TRef<?> r) {
        if (readCount == reads.length) {
            reads = Arrays.copyOf(reads, readCount * 2);
        }
        reads[readCount++] = r;
    }

    /** Moves the snapshot to the clock's present if every reference read so far is unchanged; else rolls back. */
    private void extend() {
        long now = CLOCK.get();
        if (!readSetValid()) {
            throw doom();
        }
        rv = now;
    }

    private boolean readSetValid() {
        for (int i = 0; i < readCount; i++) {
            if (!reads[i].unchangedSince(rv, this)) {
                return false;
            }
        }
        return true;
    }

    private Error doom() {
        doomed = true;
        readsSlowly = 1;
        return ROLLBACK;
    }

    /* ---------------------------------------------------------------- writes */

    <T> void write(TRef<T> r, T value) {
        if (doomed) {
            throw ROLLBACK;
        }
        if (unrecorded) {
            wroteUnrecorded = true;                      // its reads were not recorded: it cannot commit
            throw doom();
        }
        writes.put(r, value);
        readsSlowly = 1;                                 // reads look for their own writes now
    }

    /* ---------------------------------------------------------------- handlers */

    void afterCommit(Runnable action) {
        onCommit.add(action);
    }

    void afterRollback(Runnable action) {
        onRollback.add(action);
    }
}

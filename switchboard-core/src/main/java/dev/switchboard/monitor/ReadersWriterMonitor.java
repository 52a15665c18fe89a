package dev.switchboard.monitor;

import java.util.Objects;

/**
 * Multiple readers, single writer ([PAM], Listing 3), over two {@linkplain Category categories}: letters of
 * the read category may run in parallel with each other; a letter of the write category runs alone. A letter in
 * neither category, or in both, is treated as a write (exclusive), which is always safe.
 *
 * <pre>{@code
 * Category reads = Category.of("read", Get.class);
 * Category writes = Category.of("write", Put.class);
 * new ReadersWriterMonitor(reads, writes, Policy.FAIR).bind(dictionary);
 * }</pre>
 *
 * <h2>Policies</h2>
 * <ul>
 *   <li>{@link Policy#FAIR}: arrival order (Listing 3). Readers older than the oldest waiting writer start
 *       together; the writer starts once they (and any running readers) are done; readers behind it wait for it.</li>
 *   <li>{@link Policy#READERS_PREFERRED}: every waiting reader starts whenever no writer runs; a writer starts
 *       only when no reader runs or waits (the first readers-writers problem). Under reads that never stop, the
 *       writers wait for ever, and since each decision walks past the writers held, the actor slows as they pile
 *       up.</li>
 *   <li>{@link Policy#WRITERS_PREFERRED}: while a writer waits, no new reader starts; the writer starts as soon as
 *       the running readers are done (the second readers-writers problem).</li>
 * </ul>
 *
 * <h2>Reads that cost less than a hand-over</h2>
 * Running reads in parallel pays when a read takes longer than handing it to another worker; a read that is a map
 * lookup takes less, and run in parallel it would make the actor slower than without a monitor. So the monitor
 * lets the runtime choose: it measures what the reads take and what a hand-over costs, and while parallel would not
 * pay, the letters it starts run inline, one after another on the actor's worker, as a plain actor's messages do;
 * when reads grow longer, or reads of a few microseconds queue up while another worker is idle, they run in
 * parallel again. Writers are exclusive either way, and the policy above decides the order in both. On a runtime
 * of one worker every letter runs inline. Reads that wait for each other (one waits on a latch another opens, say)
 * must run in parallel: build such a monitor with {@link #alwaysParallel()}.
 */
public class ReadersWriterMonitor extends Monitor {
    /**
     * Which side waits when both readers and writers are waiting. {@code FAIR} starts the letters in the order
     * they arrived (a read waits for the writes before it, and the reads beside it run together), so one sender's
     * messages take effect in the order it sent them. The other two let the preferred side overtake: a read may
     * run before a write its own sender sent first ({@code READERS_PREFERRED}), a write before a read
     * ({@code WRITERS_PREFERRED}); a sender that needs its write seen by its next read waits for the write's
     * answer, or the monitor is {@code FAIR}.
     */
    public enum Policy { FAIR, READERS_PREFERRED, WRITERS_PREFERRED }

    private final LetterFilter reads;
    private final LetterFilter writes;
    private final Policy policy;
    private boolean writing;
    private int readers;
    private volatile boolean alwaysParallel;

    public ReadersWriterMonitor(Category reads, Category writes) {
        this(reads, writes, Policy.FAIR);
    }

    public ReadersWriterMonitor(Category reads, Category writes, Policy policy) {
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(writes, "writes");
        // A letter in both categories is a write, and one in neither: exclusive either way, which is always safe.
        // Each letter must be one or the other, the same in schedule and in leave.
        this.reads = reads.and(writes.negate());
        this.writes = writes.or(reads.negate());
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /**
     * Runs every read as a task of its own, in parallel with the other reads, whatever reads cost: for reads that
     * wait for each other. Call it before {@link #bind}.
     *
     * <pre>{@code
     * new ReadersWriterMonitor(reads, writes).alwaysParallel().bind(board);
     * }</pre>
     *
     * @return this monitor
     * @throws IllegalStateException if the monitor is bound already
     */
    public final ReadersWriterMonitor alwaysParallel() {
        if (actor() != null) {
            throw new IllegalStateException(this + " is bound already: call alwaysParallel() before bind()");
        }
        alwaysParallel = true;
        return this;
    }

    @Override
    protected final boolean mayRunLettersInline() {
        return !alwaysParallel;
    }

    /**
     * Idle (no reader or writer running, no letter waiting), each of the three policies starts a letter as soon as
     * it arrives: a reader because no writer runs, a writer because no reader runs or waits. Unless a subclass
     * decides for itself (overrides schedule or leave).
     */
    @Override
    final boolean startsEachArrivalWhenIdle() {
        for (Class<?> c = getClass(); c != ReadersWriterMonitor.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("schedule") && m.getParameterCount() == 0
                        || m.getName().equals("leave") && m.getParameterCount() == 1) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    protected void schedule() {
        if (writing) {
            return;
        }
        switch (policy) {
            case FAIR -> readers += startAllOlderThan(reads, writes);
            case READERS_PREFERRED -> readers += startAll(reads);
            case WRITERS_PREFERRED -> {
                if (!contains(writes)) {
                    readers += startAll(reads);
                }
            }
        }
        if (readers == 0 && (policy != Policy.READERS_PREFERRED || !contains(reads))) {
            writing = startOldest(writes);
        }
    }

    @Override
    protected void leave(Letter letter) {
        if (reads.pass(letter)) {
            readers--;
        } else {
            writing = false;
        }
    }

    /** Readers running now (for tests and diagnostics; read it from schedule or leave). */
    protected final int runningReaders() {
        return readers;
    }

    /** Whether a writer runs now. */
    protected final boolean writerRunning() {
        return writing;
    }

    @Override
    public String toString() {
        return "ReadersWriterMonitor(" + policy + (alwaysParallel ? ", always parallel" : "") + ")"
                + (actor() == null ? "" : " of " + actor());
    }
}

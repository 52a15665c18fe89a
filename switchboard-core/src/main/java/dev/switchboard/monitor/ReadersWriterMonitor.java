package dev.switchboard.monitor;

import java.util.Objects;

/**
 * Multiple readers, single writer ([PAM], Listing 3), over two {@linkplain Category categories}: letters of
 * the read category may run in parallel with each other; a letter of the write category runs alone. A letter in
 * neither category is treated as a write (exclusive), which is always safe.
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
 *       only when no reader runs or waits (the first readers-writers problem).</li>
 *   <li>{@link Policy#WRITERS_PREFERRED}: while a writer waits, no new reader starts; the writer starts as soon as
 *       the running readers are done (the second readers-writers problem).</li>
 * </ul>
 */
public class ReadersWriterMonitor extends Monitor {
    /** Which side waits when both readers and writers are waiting. */
    public enum Policy { FAIR, READERS_PREFERRED, WRITERS_PREFERRED }

    private final LetterFilter reads;
    private final LetterFilter writes;
    private final Policy policy;
    private boolean writing;
    private int readers;

    public ReadersWriterMonitor(Category reads, Category writes) {
        this(reads, writes, Policy.FAIR);
    }

    public ReadersWriterMonitor(Category reads, Category writes, Policy policy) {
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(writes, "writes");
        this.reads = reads;
        // The write category names the writers; any other letter that is not a read is exclusive as well.
        this.writes = writes.or(reads.negate());
        this.policy = Objects.requireNonNull(policy, "policy");
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
        dispatch(letter).on(reads, () -> readers--).otherwise(() -> writing = false);
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
        return "ReadersWriterMonitor(" + policy + ")" + (actor() == null ? "" : " of " + actor());
    }
}

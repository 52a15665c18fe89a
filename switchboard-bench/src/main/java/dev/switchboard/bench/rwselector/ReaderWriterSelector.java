package dev.switchboard.bench.rwselector;

import static dev.switchboard.Switchboard.async;

import dev.switchboard.actor.Selector;
import dev.switchboard.task.DataDrivenControl;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reader-writer selector of [Selectors] §6 (Fig. 16): reads are processed in parallel, each in an async of its
 * own; a write runs alone. A write that finds readers in flight disables the read and write mailboxes, so
 * nothing else is started, and registers itself on a {@link DataDrivenControl} that the last in-flight reader
 * fills; it then runs and enables the mailboxes again. Reads therefore never overlap a write, and the state they read needs no
 * synchronisation of its own: a write happens before the asyncs of later reads are spawned, and every read
 * happens before the write that waited for it.
 *
 * <p>The {@link Policy} chooses the mailboxes: one for both kinds in arrival order (AO), or a read and a write
 * mailbox with the selector's priority order favouring readers (RF, the first readers-writers problem) or
 * writers (WF, the second). {@code process} is the same for all three.
 *
 * <p>Control messages (the end of the run) have a last mailbox of their own, served when no read or write waits.
 * A write that waits for readers disables every mailbox, the control mailbox with the read and write mailboxes of
 * Fig. 16 ({@code disable(READ, WRITE)}), so a control message is never taken before the reads and writes sent
 * ahead of it (reads started as tasks may still be running when it is processed).
 *
 * <p>Granularity: a read whose work is tiny (a hash lookup) costs less than the task that would run it, so a
 * subclass may let up to {@code readBatch} reads that are queued together share one task, as a sequential
 * threshold does in divide and conquer. A read is never held back: the batch is started when no further
 * request waits in the read mailbox, when it is full, and before any write or control message. With
 * {@code readBatch = 1}, and reads long enough to be worth a task (below), every read is a task of its own, exactly
 * as in Fig. 16.
 *
 * <p>Placement: a batch runs as a task only while that pays. The selector times its batches ({@code ReadPlacement})
 * and, while the median batch takes less than handing it to another worker costs, runs each read inline, in the
 * turn that takes it, as the runtime's {@code ReadersWriterMonitor} does with its letters; on a runtime of one
 * worker always inline. Inline, a timed read counts as the batch a task would carry in its place (it and the
 * reads waiting, up to {@code readBatch}), so that reads which are cheap alone but worth a task together go back
 * to tasks. Inline reads still never overlap a write: a write is processed in a turn of its own, after the reads
 * started as tasks before it have ended. {@link #readsRunInline()} says where they run now.
 *
 * @param <M> the message type
 */
public abstract class ReaderWriterSelector<M> extends Selector<M, Selector.Numbered> {
    /** Which requests go first. */
    public enum Policy {
        /** Arrival order: one mailbox for reads and writes. */
        AO,
        /** Readers first: the read mailbox has priority over the write mailbox. */
        RF,
        /** Writers first: the write mailbox has priority over the read mailbox. */
        WF
    }

    private final int readMailbox;
    private final int writeMailbox;
    private final int controlMailbox;
    /** Read tasks that have not ended; incremented by the processing, decremented by the tasks. */
    private final AtomicInteger activeReaders = new AtomicInteger();
    /**
     * Filled when the readers of the current burst have all ended. A new one is made when a read starts with no
     * reader in flight; each reader keeps the one of its burst, so a late reader of an old burst never fills a
     * newer one. Touched only by the processing.
     */
    private DataDrivenControl<Boolean> readersDone;
    /** Reads queued together that will share one task; confined to the processing. */
    private final int readBatch;
    private List<M> batch;
    /** Where batches of reads run; confined to the processing (its samples excepted). */
    private ReadPlacement placement;

    /** A reader-writer selector that starts one task per read (Fig. 16). */
    protected ReaderWriterSelector(Policy policy) {
        this(policy, 1);
    }

    /** A reader-writer selector that lets up to {@code readBatch} reads queued together share a task. */
    protected ReaderWriterSelector(Policy policy, int readBatch) {
        super(policy == Policy.AO ? 2 : 3);
        if (readBatch < 1) {
            throw new IllegalArgumentException("readBatch must be at least 1, got " + readBatch);
        }
        this.readMailbox = policy == Policy.WF ? 1 : 0;
        this.writeMailbox = policy == Policy.RF ? 1 : 0;
        this.controlMailbox = policy == Policy.AO ? 1 : 2;
        this.readersDone = idle();
        this.readBatch = readBatch;
        this.batch = new ArrayList<>(readBatch);
    }

    /** Whether {@code message} modifies the state (and must run alone). */
    protected abstract boolean isWrite(M message);

    /** Processes a read; runs in parallel with other reads, never with a write. */
    protected abstract void processRead(M message);

    /** Processes a write; runs alone. */
    protected abstract void processWrite(M message);

    /**
     * Whether {@code message} is a control message: served from the last mailbox, when no read or write waits,
     * and processed by {@link #processControl}. None by default.
     */
    protected boolean isControl(M message) {
        return false;
    }

    /** Processes a control message, like any serial actor; reads of earlier requests may still be running. */
    protected void processControl(M message) {
        throw new IllegalStateException("no control messages expected: " + message);
    }

    @Override
    protected final int route(M message) {
        return isControl(message) ? controlMailbox : isWrite(message) ? writeMailbox : readMailbox;
    }

    @Override
    protected final void process(M message) {
        if (isControl(message)) {
            startReads();
            processControl(message);
        } else if (isWrite(message)) {
            startReads();
            write(message);
        } else {
            batch.add(message);
            if (readsRunInline() || batch.size() == readBatch || mailboxSize(readMailbox) == 0) {
                startReads();
            }
        }
    }

    /**
     * Starts the batched reads: inline, in this turn, while the placement finds them cheaper than a task's
     * hand-over (then each read is started as it is taken: there is no task to share); otherwise as one task, in
     * parallel with other reads.
     */
    private void startReads() {
        if (batch.isEmpty()) {
            return;
        }
        ReadPlacement placement = placement();
        boolean inline = placement.runInline();
        boolean timed = placement.timeNext();
        if (inline) {
            // Timed as the batch a task would carry now: these reads and those waiting, up to readBatch.
            int waiting = timed ? mailboxSize(readMailbox) : 0;
            runReads(batch, timed, Math.max(batch.size(), Math.min(readBatch, batch.size() + waiting)));
            batch.clear();                                 // run in this turn: no task holds the list
            return;
        }
        List<M> reads = batch;
        batch = new ArrayList<>(readBatch);
        if (activeReaders.getAndIncrement() == 0) {
            readersDone = new DataDrivenControl<>(DataDrivenControl.Mode.SYNCHRONOUS);
        }
        DataDrivenControl<Boolean> burst = readersDone;
        async(() -> {
            try {
                runReads(reads, timed, reads.size());
            } finally {
                if (activeReaders.decrementAndGet() == 0) {
                    burst.addValue(Boolean.TRUE);
                }
            }
        });
    }

    /** Processes {@code reads}; if {@code timed}, reports to the placement what {@code carry} of them take. */
    private void runReads(List<M> reads, boolean timed, int carry) {
        long start = timed ? System.nanoTime() : 0;
        for (M read : reads) {
            processRead(read);
        }
        if (timed) {
            placement.batchTook((System.nanoTime() - start) * carry / reads.size());
        }
    }

    /** The placement, made at the first read, when the runtime that runs this selector is known. */
    private ReadPlacement placement() {
        ReadPlacement p = placement;
        if (p == null) {
            p = placement = new ReadPlacement(TaskRuntime.current().workers());
        }
        return p;
    }

    /** Whether reads run inline in the selector's turn now, rather than as tasks (as last decided). */
    protected final boolean readsRunInline() {
        return placement != null && placement.inline();
    }

    private void write(M message) {
        DataDrivenControl<Boolean> burst = readersDone;
        if (burst.valueAvailable()) {
            processWrite(message);                         // no reader in flight
            return;
        }
        // Fig. 16's disable(READ, WRITE), and the control mailbox too: a control message sent after the reads
        // queued behind this write waits for them.
        disableAll();
        // Synchronous: the write runs on the thread of the last reader as it ends (or here, if that already
        // happened), without scheduling another task. The mailboxes are enabled in one step: enabling READ
        // and then WRITE would let the selector start again after the first, take the next write, and have
        // that write's disabling undone by the second.
        burst.addResumable(ignored -> {
            processWrite(message);
            enableAll();
        });
    }

    private static DataDrivenControl<Boolean> idle() {
        DataDrivenControl<Boolean> d = new DataDrivenControl<>(DataDrivenControl.Mode.SYNCHRONOUS);
        d.addValue(Boolean.TRUE);
        return d;
    }
}

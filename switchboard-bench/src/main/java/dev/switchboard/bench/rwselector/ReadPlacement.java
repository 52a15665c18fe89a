package dev.switchboard.bench.rwselector;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where a {@link ReaderWriterSelector}'s reads run: as tasks of their own, in parallel with each other (Fig. 16),
 * or inline, in the selector's turn. A task pays only when the reads it carries take longer than handing them to
 * another worker costs; a hash lookup and a reply take less, and run as tasks they make two workers slower than
 * one. This class times the read batches and chooses. Owns the measurements and the choice; touches nothing else.
 */
final class ReadPlacement {
    /*
     * Implementation notes.
     *
     * The rule is the one the runtime's ReadersWriterMonitor applies to its letters (decision 027), with the hand-over
     * taken at its bounds instead of measured: what a batch of reads takes is timed with System.nanoTime, wherever it
     * ran (every batch until the first choice, then about one in SAMPLE_PERIOD at random; inline, where each read is a
     * batch of its own, as the batch a task would carry in its place, the read's time times the reads it and those
     * waiting would make, up to the selector's readBatch), into a ring of the last TRIAL samples, whose median is read
     * after every TRIAL new samples, so that a pre-empted or collected batch counts as one long sample, not as the
     * length of its pause. Batches start as tasks, as in the paper; they come inline when the median batch takes less
     * than INLINE_BELOW_NANOS, and go back to tasks when it takes more than TASKS_ABOVE_NANOS. The gap between the two
     * keeps batches near the line from flipping between the places. On a runtime of one worker, a task only adds its
     * own cost: every batch runs inline and nothing is timed.
     *
     * Samples are written by the threads that ran the batches (the selector's turn or a task), without
     * synchronisation: they are hints (ints, never torn), and a sample lost to a
     * race only delays a choice. The choice and the countdown to the next timed batch are confined to the
     * selector's processing.
     */
    /** Samples per choice, and the size of the ring. */
    static final int TRIAL = 32;
    /** About one batch in this many is timed after the first choice. */
    static final int SAMPLE_PERIOD = 16;
    /**
     * Below this median a batch comes inline: the least the runtime's monitor takes a hand-over to cost, what its
     * workers find not worth a wake-up.
     */
    static final long INLINE_BELOW_NANOS = 2_000;
    /** Above this median a batch goes to a task: twice the most a hand-over is taken to cost. */
    static final long TASKS_ABOVE_NANOS = 8_000;

    private final boolean oneWorker;
    /** The last TRIAL samples of what a batch took, by sample count modulo TRIAL. */
    private final int[] ring = new int[TRIAL];
    /** Samples taken so far (a racy count). */
    private volatile int samples;
    /** Confined to the processing: the sample count at the last choice. */
    private int chosenAt;
    /** Confined to the processing: batches to start before the next timed one (1: the next one). */
    private int untilTimed = 1;
    /** Confined to the processing: whether batches run inline now. */
    private boolean inline;
    /** Confined to the processing: whether a choice was made yet. */
    private boolean chosen;
    /** Confined to the processing: the median batch at the last choice, for {@link #toString}. */
    private int lastMedian = -1;

    ReadPlacement(int workers) {
        this.oneWorker = workers == 1;
        this.inline = oneWorker;
    }

    /** Called by the processing for each batch it starts: whether it runs inline (decided now). */
    boolean runInline() {
        if (oneWorker) {
            return true;
        }
        int n = samples;
        if (n - chosenAt >= TRIAL) {
            chosenAt = n;
            chosen = true;
            lastMedian = median(ring);
            inline = inline ? lastMedian <= TASKS_ABOVE_NANOS : lastMedian < INLINE_BELOW_NANOS;
        }
        return inline;
    }

    /** Called by the processing for each batch it starts, after {@link #runInline}: whether to time it. */
    boolean timeNext() {
        if (oneWorker) {
            return false;
        }
        if (!chosen || --untilTimed <= 0) {
            untilTimed = 1 + ThreadLocalRandom.current().nextInt(2 * SAMPLE_PERIOD - 1);
            return true;
        }
        return false;
    }

    /** A timed batch took {@code nanos}; called by the thread that ran it. */
    void batchTook(long nanos) {
        int n = samples;
        ring[n & (TRIAL - 1)] = (int) Math.min(Math.max(nanos, 0), Integer.MAX_VALUE);    // racy: a hint
        samples = n + 1;
    }

    /** Whether batches run inline now (as last decided). */
    boolean inline() {
        return inline;
    }

    /** The median of a ring of samples (read racily: a sample written meanwhile is one more hint). */
    static int median(int[] ring) {
        int[] sorted = ring.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    @Override
    public String toString() {
        return (inline ? "inline" : "as tasks") + " (median batch ~" + lastMedian + " ns)";
    }
}

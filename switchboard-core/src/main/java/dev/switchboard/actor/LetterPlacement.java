package dev.switchboard.actor;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.Scheduler;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where the messages a dispatch policy starts run, for a policy that allows them to run inline
 * ({@code DispatchPolicy.mayRunInline()}): as tasks of their own, in parallel with each other (the policy's
 * intent), or one after another on the thread of the turn that started them, as a plain actor runs its messages.
 * Parallel pays only when a message takes longer than handing it to another worker costs; a map lookup takes less,
 * and run in parallel it makes the actor slower than running it inline. This class measures both and chooses.
 * Owns the measurements and the choice; touches nothing else.
 */
final class LetterPlacement {
    /*
     * Implementation notes.
     *
     * What is measured, through the runtime's clock (Scheduler.clock(): a test on a manual clock decides what a
     * message costs by moving the clock inside it):
     * - what processing a message takes, wherever it ran: every message until the first choice, then about one in
     *   LetterLength.SAMPLE_PERIOD, or one in LEFT_OUT_SAMPLE_PERIOD of those the token's holder takes without the
     *   policy (gapAfter: after one that would have the messages run elsewhere, or could, for a spare worker, every
     *   one until the next choice, so that a choice after a change of cost is not held up by the longer gap). The
     *   last TRIAL samples are kept in a ring (TRIAL is a power of two), and the choice reads their median, so a
     *   pre-empted or collected message counts as one long sample, not as the length of its pause. A message run
     *   inline while tasks of the actor run beside it is no sample: it shares its core's time and data with them
     *   (PolicyDispatch.BESIDE_TASKS);
     * - what handing a message to another worker costs: about one task in the same period is timed from the
     *   start() that made it to the moment a worker begins it, into a running median (a frugal streaming median:
     *   Ma, Muthukrishnan and Sandler, "Frugal Streaming for Estimating Quantiles", 2013: each sample moves it one
     *   step of an eighth of it, at least MIN_STEP, toward itself). That time also holds the wait behind other
     *   work, which is no cost while every worker is busy with useful work, and it is short when an idle worker
     *   spins for work, while the messages' own hand-over costs (the turns that start them and hear of their end,
     *   the token passed between cores, the state's cache misses on another core) do not show in it; so the cost
     *   of elsewhere is taken as the measured hand-over clamped to [MIN_ELSEWHERE, MAX_ELSEWHERE], between what
     *   the workers' spreading rule finds not worth a wake-up and twice that;
     * - whether a worker is spare: for each sample taken inline, whether another message of the actor was waiting
     *   when it started (at its end, a client's next request may already be there: that is no queue) and some
     *   worker was idle when it ended (Scheduler.hasIdleWorkers). While messages run inline, the actor's messages
     *   use one core; when they queue up behind each other and another core has nothing to do, running them in
     *   parallel would use it.
     * Samples are written by whichever thread took them, without synchronisation: they are hints (ints, never
     * torn), and a sample lost to a race only delays a choice.
     *
     * The choice is made by the holder of the actor's token (runInline(), called by PolicyDispatch for each
     * message it starts or takes), after every TRIAL new samples. Messages start inline; but a policy may start a
     * whole burst in one turn, before any of it has run and been timed, so until the first choice only TRIAL
     * messages start inline and the rest of such a burst as tasks (a burst of long reads is not run one after
     * another for want of a measurement; short ones come one or a few at a time). They go to tasks when
     * the median message takes more than twice the cost of elsewhere, and come back inline when it takes less
     * than that cost: the gap keeps messages near the line from flipping between the places (each flip back to
     * inline waits for the tasks to finish before the policy can be left out). They also go to tasks for a spare
     * worker: when at least half of the trial's samples saw one, and the median message takes more than
     * MIN_ELSEWHERE (the least a hand-over is taken to cost: a message shorter than that gains nothing from another
     * core, whatever the hand-over really costs); they come back from there when the median falls below
     * SPARE_WORKER_BACK. That gap is wider than the other on purpose: run in parallel, the messages keep the spare
     * worker busy, so its absence then says nothing, and the messages' length is the only sign left. A message
     * that waits for no other (one client at a time) sees no spare worker: running it elsewhere would only add a
     * hand-over to its latency. A runtime of one worker never runs messages in parallel, so there every message
     * runs inline and nothing is timed.
     */
    /** Samples per choice, and the size of the ring (a power of two). */
    static final int TRIAL = 32;
    /** About one message in this many that the token's holder processes without the policy is timed. */
    static final int LEFT_OUT_SAMPLE_PERIOD = 256;
    /** The least a hand-over to another worker is taken to cost. */
    static final int MIN_ELSEWHERE = (int) Scheduler.SPREAD_WORTH_NANOS;
    /** The most a hand-over is taken to cost. */
    static final int MAX_ELSEWHERE = 2 * MIN_ELSEWHERE;
    /** The least step of the hand-over's median. */
    static final int MIN_STEP = 16;
    /**
     * Below this, messages that went to tasks for a spare worker come back inline: three quarters of
     * {@link #MIN_ELSEWHERE}, the least they went for.
     */
    static final int SPARE_WORKER_BACK = MIN_ELSEWHERE * 3 / 4;

    private final Scheduler scheduler;
    private final boolean oneWorker;
    /** The last TRIAL samples of what a message took, by sample count modulo TRIAL. */
    private final int[] ring = new int[TRIAL];
    /** Samples taken so far (a racy count). */
    private volatile int samples;
    /**
     * Samples taken inline since the last choice whose message found another of the actor waiting as it started,
     * and some worker idle as it ended (a racy count).
     */
    private volatile int spareSamples;
    /** The running median of the hand-over, in nanoseconds. */
    private int handoverNanos = MIN_ELSEWHERE;
    /** Whether started messages run inline now. */
    private volatile boolean inline = true;
    /** Whether every message is timed (until the first choice). */
    private volatile boolean timingAll;
    /** Confined to the token's holder: the sample count at the last choice (0: none yet). */
    private int chosenAt;
    /**
     * Confined to the token's holder: whether every message it processes without the policy is timed until the
     * next choice ({@link #gapAfter}).
     */
    private boolean timingToChoice;
    /** Confined to the token's holder: messages started inline before the first choice. */
    private int inlineBeforeChoice;
    /** Confined to the token's holder: whether the messages went to tasks for a spare worker (last choice). */
    private boolean forSpareWorker;
    /** Confined to the token's holder: the median message at the last choice (for toString). */
    private int lastMedian = -1;

    LetterPlacement(Scheduler scheduler) {
        this.scheduler = scheduler;
        this.oneWorker = scheduler.parallelism() == 1;
        this.timingAll = !oneWorker;
    }

    /**
     * Called by the token's holder for each message a turn starts: where it runs (decided now). Until the first
     * choice, only TRIAL of them run inline.
     */
    boolean runInline() {
        boolean inline = choose();
        if (inline && chosenAt == 0 && !oneWorker && ++inlineBeforeChoice > TRIAL) {
            return false;             // no choice yet, and enough inline to make it: the rest of a burst in parallel
        }
        return inline;
    }

    /**
     * Called by the token's holder for each message it processes without the policy, one at a time: whether they
     * still run inline (decided now).
     */
    boolean choose() {
        if (oneWorker) {
            return true;
        }
        int n = samples;
        if (n - chosenAt >= TRIAL) {
            chosenAt = n;
            timingAll = false;
            timingToChoice = false;
            int median = median(ring);
            int elsewhere = elsewhere();
            boolean spare = spareSamples * 2 >= TRIAL;
            spareSamples = 0;
            boolean now;
            if (inline) {
                boolean worthTasks = median > 2 * elsewhere;
                forSpareWorker = !worthTasks && spare && median > MIN_ELSEWHERE;
                now = !worthTasks && !forSpareWorker;
            } else {
                now = median < (forSpareWorker ? SPARE_WORKER_BACK : elsewhere);
            }
            lastMedian = median;
            if (now != inline) {
                inline = now;
            }
        }
        return inline;
    }

    /**
     * Called by the token's holder after it timed a message it processed without the policy, which took
     * {@code nanos}: how many such messages to count down to the next one it times (1: the next one). Until the
     * first choice, every one; after one that would have the messages run elsewhere (inline, longer than
     * {@link #MIN_ELSEWHERE}, for which a spare worker may be reason enough), every one until the next choice, so
     * that a change of cost is seen within a choice (cheap samples meanwhile, a write among long reads say, do not
     * hold it up); otherwise a random gap of about {@link #LEFT_OUT_SAMPLE_PERIOD}. On one worker,
     * where there is nothing to choose, none again.
     */
    int gapAfter(long nanos) {
        if (oneWorker) {
            return Integer.MAX_VALUE;                 // nothing to choose: never timed again
        }
        if (timingAll || timingToChoice || (inline ? nanos > MIN_ELSEWHERE : nanos < elsewhere())) {
            timingToChoice = true;
            return 1;
        }
        return 1 + ThreadLocalRandom.current().nextInt(2 * LEFT_OUT_SAMPLE_PERIOD - 1);
    }

    /** Whether the next message is to be timed whatever the sampling period says (until the first choice). */
    boolean timingAll() {
        return timingAll;
    }

    /** What running a message elsewhere is taken to cost: the hand-over, clamped (see the notes). */
    private int elsewhere() {
        return Math.min(Math.max(handoverNanos, MIN_ELSEWHERE), MAX_ELSEWHERE);
    }

    /** The clock of the runtime, which messages and hand-overs are timed with. */
    Clock clock() {
        return scheduler.clock();
    }

    /**
     * A timed message took {@code nanos} to process; {@code othersWait}: another message of the actor was waiting
     * when it started.
     */
    void messageTook(long nanos, boolean othersWait) {
        ring[samples++ & (TRIAL - 1)] = (int) Math.min(Math.max(nanos, 0), Integer.MAX_VALUE);   // racy: a hint
        if (othersWait && inline && scheduler.hasIdleWorkers()) {
            spareSamples++;                                                                     // racy: a hint
        }
    }

    /** A timed task began {@code nanos} after the start() that made it. */
    void handedOver(long nanos) {
        handoverNanos = towards(handoverNanos, nanos);
    }

    /** The median of a ring of samples (read racily: a sample written meanwhile is one more hint). */
    static int median(int[] ring) {
        int[] sorted = ring.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** A running median's next value after {@code sample}: one step toward it, never past it. */
    static int towards(int median, long sample) {
        long s = Math.min(Math.max(sample, 0), Integer.MAX_VALUE);
        int step = Math.max(median >> 3, MIN_STEP);
        if (s > median) {
            return (int) Math.min((long) median + step, s);
        }
        return (int) Math.max(median - step, s);
    }

    /** Whether messages run inline now (as last decided). */
    boolean inline() {
        return inline;
    }

    @Override
    public String toString() {
        return (inline ? "inline" : "in parallel") + " (median message ~" + lastMedian + " ns, hand-over ~"
                + handoverNanos + " ns)";
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Scheduler;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a policy's started messages take, on average: whether a message started beside a continuation is
 * forked, so that an idle worker can steal it at once, or queued behind the continuation (PolicyDispatch's
 * notes). Owns the average; touches nothing else.
 */
final class LetterLength {
    /*
     * Implementation notes. About one message in SAMPLE_PERIOD is timed (chosen by the thread's own random numbers, so
     * that parallel messages do not all write one counter), and the moving average (weight 1/4, each time capped at
     * twice the threshold so that one pre-empted message does not count as many) is long when it is at least
     * Scheduler.SPREAD_WORTH_NANOS, the threshold below which the workers do not wake each other for activations
     * either: forking a short message wakes an idle worker to run less work than the wake-up and the handover cost.
     * Where a fork wakes nobody and is taken within microseconds (Scheduler.forksTakenAtOnce: the runtime's idle
     * workers spin, or one spins for work now) the threshold is half as long (a message of about 1 µs and more is
     * forked). The average is a hint written by the message tasks without synchronisation: an int, so that a racy write
     * is never torn (a sample is capped far below its range); it starts at the threshold, so that forking is tried
     * first.
     */
    /** About one message in this many is timed. */
    static final int SAMPLE_PERIOD = 16;
    /** The moving average, in nanoseconds; racy on purpose. */
    private int nanos = (int) Scheduler.SPREAD_WORTH_NANOS;

    /** Whether the message about to be processed is one to time: about one in {@link #SAMPLE_PERIOD}. */
    static boolean timesNextMessage() {
        return ThreadLocalRandom.current().nextInt(SAMPLE_PERIOD) == 0;
    }

    /** A timed message took {@code took} nanoseconds to process. */
    void took(long took) {
        int t = (int) Math.min(took, 2 * Scheduler.SPREAD_WORTH_NANOS);
        int average = nanos;
        nanos = average + ((t - average) >> 2);
    }

    /** Whether the messages are long: one started beside a continuation on {@code scheduler} is forked. */
    boolean isLong(Scheduler scheduler) {
        int t = nanos;
        return t >= Scheduler.SPREAD_WORTH_NANOS
                || (t >= Scheduler.SPREAD_WORTH_NANOS / 2 && scheduler.forksTakenAtOnce());
    }
}

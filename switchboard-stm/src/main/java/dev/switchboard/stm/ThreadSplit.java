package dev.switchboard.stm;

import java.util.ArrayList;
import java.util.List;

/**
 * How a transactional actor's threads are split between its two classes of message, and the rule of [TxActors]
 * (§4.1) that changes the split every period: halve the transactional threads when the period's commits per
 * rollback fell below α, double them otherwise, each class keeping a tenth; and, while α is not known, the
 * profiling phase that finds it ({@link TransactionalActor.Settings#profiledSplit}). Owns the split and α;
 * touches nothing else.
 */
final class ThreadSplit {
    /*
     * Implementation notes. The split and α are volatile: the actor's turns and stats() read them on any thread,
     * and periodEnded, the only writer, runs on the runtime's timer thread, once per period (the timer's runs do
     * not overlap). The profiling state belongs to that thread as well.
     */
    private final TransactionalActor.Settings settings;
    /** The threads transactional messages may use now. */
    private volatile int transactionalThreads;
    /** α: given, or found by profiling (NaN until then). */
    private volatile double alpha;
    /** The profiling phase, while α is not known: the levels to try, and what each period measured. */
    private int[] levels;
    private long[] levelCommits;
    private long[] levelRollbacks;
    private int level;

    ThreadSplit(TransactionalActor.Settings settings) {
        this.settings = settings;
        this.transactionalThreads = clamp(settings,
                (int) Math.round(settings.threads() * settings.transactionalShare()));
        this.alpha = settings.alpha();
    }

    /** The threads transactional messages may use now; the rest are the read-only messages'. */
    int transactionalThreads() {
        return transactionalThreads;
    }

    /** α: the threshold of the dynamic split, NaN while it is being profiled. */
    double alpha() {
        return alpha;
    }

    /**
     * A period of a dynamic split has ended, with {@code commits} and {@code rollbacks} in it (on the timer
     * thread): profiles it or applies the rule. A period without a transaction says nothing and changes nothing,
     * the profiling phase's start included. Returns whether the split changed.
     */
    boolean periodEnded(long commits, long rollbacks) {
        if (commits + rollbacks == 0) {
            return false;
        }
        int tx = transactionalThreads;
        int next = Double.isNaN(alpha) ? profile(commits, rollbacks) : nextSplit(settings, alpha, tx, commits, rollbacks);
        if (next == tx) {
            return false;
        }
        transactionalThreads = next;
        return true;
    }

    /** One period of the profiling phase has ended: record it, and go to the next level (or set α). */
    private int profile(long dc, long dr) {
        if (levels == null) {                 // the first period with transactions ran at the initial split: start over
            levels = profilingLevels(settings);
            levelCommits = new long[levels.length];
            levelRollbacks = new long[levels.length];
            level = 0;
            return levels[0];
        }
        levelCommits[level] = dc;
        levelRollbacks[level] = dr;
        if (++level < levels.length) {
            return levels[level];
        }
        double[] found = profiledAlpha(levels, levelCommits, levelRollbacks);
        alpha = found[1];
        return (int) found[0];
    }

    private static int clamp(TransactionalActor.Settings settings, int tx) {
        int floor = settings.floor();
        return Math.max(floor, Math.min(settings.threads() - floor, tx));
    }

    /**
     * The paper's rule (§4.1): the transactional threads for the next period, from the current number and the
     * commits and rollbacks of the period that ended: halved when commits per rollback fell below α, doubled
     * otherwise, each class keeping a tenth; unchanged after a period without transactions.
     */
    static int nextSplit(TransactionalActor.Settings settings, double alpha, int transactionalThreads, long commits,
                         long rollbacks) {
        if (commits + rollbacks == 0) {
            return transactionalThreads;                  // nothing learned
        }
        return clamp(settings, ratio(commits, rollbacks) < alpha ? transactionalThreads / 2 : transactionalThreads * 2);
    }

    /** The thread counts the profiling phase tries for transactional messages: 1, 2, 4, ..., and the top. */
    static int[] profilingLevels(TransactionalActor.Settings settings) {
        List<Integer> levels = new ArrayList<>();
        int top = settings.threads() - settings.floor();
        for (int t = settings.floor(); t < top; t *= 2) {
            levels.add(t);
        }
        levels.add(top);
        return levels.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * α from a profile: {@code commits[i]} and {@code rollbacks[i]} measured over one period with
     * {@code levels[i]} transactional threads (see {@link TransactionalActor.Settings#profiledSplit}). Returns
     * {best level, α}.
     */
    static double[] profiledAlpha(int[] levels, long[] commits, long[] rollbacks) {
        int best = 0;
        for (int i = 1; i < levels.length; i++) {
            if (commits[i] > commits[best]) {
                best = i;
            }
        }
        double atBest = ratio(commits[best], rollbacks[best]);
        double alpha;
        if (best + 1 < levels.length) {
            double above = ratio(commits[best + 1], rollbacks[best + 1]);
            alpha = Double.isInfinite(atBest) ? (Double.isInfinite(above) ? 0 : 2 * above)
                    : Double.isInfinite(above) ? atBest / 2 : Math.sqrt(atBest * Math.max(above, 1e-9));
        } else {
            alpha = Double.isInfinite(atBest) ? 0 : atBest / 2;
        }
        if (!(alpha > 0)) {                               // no rollback anywhere: a tenth of the smallest ratio seen
            alpha = 0.1 / Math.max(1, commits[best]);
        }
        return new double[] {levels[best], alpha};
    }

    private static double ratio(long commits, long rollbacks) {
        return rollbacks == 0 ? Double.POSITIVE_INFINITY : (double) commits / rollbacks;
    }
}

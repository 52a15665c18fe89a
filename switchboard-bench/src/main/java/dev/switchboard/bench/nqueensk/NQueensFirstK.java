package dev.switchboard.bench.nqueensk;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina NQueens-first-K ([Selectors] §5.1, Fig. 14): a master hands N-queens subproblems to workers round-robin;
 * a worker splits a subproblem into its valid one-queen-deeper children (sent back to the master) until the
 * threshold depth, and below it solves sequentially, reporting each solution to the master. Deeper subproblems
 * have higher priority, so the search reaches solutions sooner; the master stops the workers as soon as it has
 * counted {@code solutionsLimit} solutions.
 *
 * <p>Switchboard's actors are selectors with one mailbox per priority (mailbox 0 first); Pekko's use a stable
 * priority mailbox ({@code UnboundedStablePriorityMailbox}) ordering the same messages the same way. Which
 * solutions are found first varies from run to run; how many the master counts does not: exactly the limit,
 * or every solution if the board has fewer.
 *
 * <p>Scaling: Savina's defaults are 20 workers, board 12, threshold 4, 10 priorities and a limit of 1,500,000
 * (more than board 12 has, so Savina finds all 14,200); the paper uses board 15, threshold 5, 24 workers and the
 * first 1.5 million of 2.28 million solutions. Here: Savina's workers, threshold and priorities, board 13 and
 * the first 40,000 of its 73,712 solutions, so that, as in the paper, the limit is what ends the search, and a
 * Pekko run takes about 0.75 s on two cores (board 12 is searched completely in a quarter of a second). The
 * search itself dominates the time: about 40 microseconds of sequential solving per solution, one message per
 * solution.
 */
public final class NQueensFirstK implements Benchmark {
    /** Solutions of the N-queens problem for N = 1..20. */
    static final long[] SOLUTIONS = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
            14772512, 95815104, 666090624, 4968057848L, 39029188884L};

    /**
     * The mailbox both sides' Pekko actors are created with ({@code Props.withMailbox}). Pekko reads mailbox
     * types from the actor system's configuration only, so {@link #PEKKO_MAILBOX_CONFIG} must be part of it.
     */
    public static final String PEKKO_MAILBOX = "switchboard-bench.mailboxes.nqueens-priority";

    /** The configuration entry that declares {@link #PEKKO_MAILBOX}. */
    public static final String PEKKO_MAILBOX_CONFIG = PEKKO_MAILBOX + ".mailbox-type = \""
            + PekkoNQueensFirstK.DepthPriorityMailbox.class.getName() + "\"\n";

    private final Params p;

    public NQueensFirstK(int workers, int size, int threshold, int solutionsLimit, int priorities) {
        if (size < 1 || size > SOLUTIONS.length || threshold < 1 || workers < 1 || solutionsLimit < 1
                || priorities < 1) {
            throw new IllegalArgumentException("bad NQueensFirstK parameters");
        }
        this.p = new Params(workers, size, threshold, solutionsLimit, priorities);
    }

    /** Savina's workers, threshold and priorities; board 13 and the first 40,000 solutions (see the class comment). */
    public NQueensFirstK() {
        this(20, 13, 4, 40_000, 10);
    }

    @Override
    public String name() {
        return "NQueensFirstK";
    }

    @Override
    public String description() {
        return "master-worker N-queens search for the first k solutions, deeper subproblems first (Savina nqueenk;"
                + " board 13 and k 40,000 instead of 12 and 1.5M)";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workers", p.workers());
        m.put("size", p.size());
        m.put("threshold", p.threshold());
        m.put("solutions_limit", p.solutionsLimit());
        m.put("priorities", p.priorities());
        return m;
    }

    /** Solutions counted by the master: the limit, or all solutions of the board if there are fewer. */
    @Override
    public long expected() {
        return Math.min(p.solutionsLimit(), SOLUTIONS[p.size() - 1]);
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardNQueensFirstK.run(runtime, p);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoNQueensFirstK.run(system, p);
    }

    record Params(int workers, int size, int threshold, int solutionsLimit, int priorities) {
        /** Priority (0 = most urgent) of a subproblem at {@code depth}: the deeper, the more urgent. */
        int priorityOf(int depth) {
            return Math.max(0, priorities - 1 - depth);
        }
    }

    /** The search both sides run in their workers (Savina's kernels, unchanged). */
    static final class Kernel {
        private Kernel() {
        }

        /**
         * Whether the {@code n} queens in {@code a} (one per row, {@code a[row]} = column) leave each other
         * alone.
         */
        static boolean boardValid(int n, int[] a) {
            for (int i = 0; i < n; i++) {
                int p = a[i];
                for (int j = i + 1; j < n; j++) {
                    int q = a[j];
                    if (q == p || q == p - (j - i) || q == p + (j - i)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Calls {@code onSolution} once per completion of the partial board {@code a} of {@code depth} rows. */
        static void solveSequentially(int size, int[] a, int depth, Runnable onSolution) {
            if (size == depth) {
                onSolution.run();
                return;
            }
            int[] b = new int[depth + 1];
            for (int i = 0; i < size; i++) {
                System.arraycopy(a, 0, b, 0, depth);
                b[depth] = i;
                if (boardValid(depth + 1, b)) {
                    solveSequentially(size, b, depth + 1, onSolution);
                }
            }
        }

        /** Calls {@code onChild} with each valid board one row deeper than {@code a}, in column order. */
        static void forEachChild(int size, int[] a, int depth, java.util.function.Consumer<int[]> onChild) {
            for (int i = 0; i < size; i++) {
                int[] b = new int[depth + 1];
                System.arraycopy(a, 0, b, 0, depth);
                b[depth] = i;
                if (boardValid(depth + 1, b)) {
                    onChild.accept(b);
                }
            }
        }
    }
}

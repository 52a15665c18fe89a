package dev.switchboard.bench.astar;

import dev.switchboard.bench.astar.AStar.Grid;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.task.TaskRuntime;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.pekko.actor.ActorSystem;

/**
 * How much of the grid {@link AStar}'s search claims on each side at a given budget, and the time per node
 * claimed: whether a side is slower at the search's work or does more of it. The benchmark's time follows the
 * nodes claimed, and how many that is depends on how many items of work the master deals out per turn (the
 * throughput budget), not on the runtime.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.astar.AStarOrder 24 switchboard:64 pekko:5 switchboard:64/0 pekko:64
 * </pre>
 * The first argument is the runs per side (the first half is warm-up), each next one a side and its budget; each
 * side runs with two workers (two threads on Pekko) in a runtime of its own, one after the other. A Switchboard
 * side's master declares its own budget ({@link SwitchboardAStar#MASTER_THROUGHPUT} unless the side names one
 * after a slash; 0: none, the runtime's).
 */
public final class AStarOrder {
    /**
     * Held so that its level stays: the workers' unprocessed work at the search's end is logged as dead letters
     * (counted, as it should be), which would bury the report.
     */
    private static final Logger RUNTIME_LOG = Logger.getLogger("dev.switchboard");

    private AStarOrder() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: AStarOrder RUNS SIDE:BUDGET... (SIDE: switchboard or pekko;"
                    + " switchboard:BUDGET/MASTER gives the master its own budget, 0 for the runtime's)");
        }
        int runs = Integer.parseInt(args[0]);
        if (runs < 1) {
            throw new IllegalArgumentException("RUNS must be at least 1, not " + runs);
        }
        RUNTIME_LOG.setLevel(Level.WARNING);
        for (int i = 1; i < args.length; i++) {
            if (!args[i].matches("switchboard:[1-9][0-9]*(/[0-9]+)?|pekko:[1-9][0-9]*")) {
                throw new IllegalArgumentException("a side is switchboard:BUDGET[/MASTER] or pekko:BUDGET, not "
                        + args[i]);
            }
        }
        Grid grid = new Grid(150, 10);
        for (int i = 1; i < args.length; i++) {
            String[] sideBudget = args[i].split("[:/]");
            int budget = Integer.parseInt(sideBudget[1]);
            int master = sideBudget.length > 2 ? Integer.parseInt(sideBudget[2]) : SwitchboardAStar.MASTER_THROUGHPUT;
            double[][] measured = sideBudget[0].equals("switchboard") ? switchboard(grid, budget, master, runs)
                    : pekko(grid, budget, runs);
            report("AStar " + args[i], measured);
        }
    }

    private static double[][] switchboard(Grid grid, int budget, int master, int runs) {
        double[][] out = new double[runs][];
        try (TaskRuntime runtime = TaskRuntime.builder().workers(2).throughput(budget).build()) {
            for (int r = 0; r < runs; r++) {
                AtomicIntegerArray parents = grid.newParents();
                long t0 = System.nanoTime();
                long checksum = SwitchboardAStar.run(runtime, grid, 20, 1_024, master, parents);
                out[r] = measured(parents, checksum, System.nanoTime() - t0);
            }
        }
        return out;
    }

    private static double[][] pekko(Grid grid, int budget, int runs) throws Exception {
        double[][] out = new double[runs][];
        ActorSystem system = ActorSystem.create("astar-order", PekkoSettings.matched(2, budget));
        try {
            for (int r = 0; r < runs; r++) {
                AtomicIntegerArray parents = grid.newParents();
                long t0 = System.nanoTime();
                long checksum = PekkoAStar.run(system, grid, 20, 1_024, parents);
                out[r] = measured(parents, checksum, System.nanoTime() - t0);
            }
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        return out;
    }

    /** A run's milliseconds and nodes claimed; fails if the run did not reach the target. */
    private static double[] measured(AtomicIntegerArray parents, long checksum, long nanos) {
        if (checksum != 1) {
            throw new IllegalStateException("the search did not reach the target along the grid's edges");
        }
        return new double[] {nanos / 1e6, Grid.claimed(parents)};
    }

    private static void report(String what, double[][] runs) {
        double[][] kept = Arrays.copyOfRange(runs, runs.length / 2, runs.length);
        double[] ms = Arrays.stream(kept).mapToDouble(r -> r[0]).sorted().toArray();
        double[] nodes = Arrays.stream(kept).mapToDouble(r -> r[1]).sorted().toArray();
        double[] perNode = Arrays.stream(kept).mapToDouble(r -> r[0] * 1e6 / r[1]).sorted().toArray();
        System.out.printf(Locale.ROOT, "%-24s %7.1f ms  %,9.0f nodes claimed (%,.0f .. %,.0f)  %5.0f ns per node"
                + "  (medians of the last %d runs)%n", what, median(ms), median(nodes), nodes[0],
                nodes[nodes.length - 1], median(perNode), kept.length);
    }

    private static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }
}

package dev.switchboard.bench.astar;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina A* / guided search ([Selectors] §5.1, Fig. 15): workers search a randomly generated (seeded) 3-D grid for
 * a path from the origin to a target. A worker expands up to {@code threshold} nodes breadth-first from the node
 * it was given, claiming each newly reached node by setting its parent (a CAS, so every node is expanded once),
 * and hands the rest of its frontier back to the master as new work, which the master deals out round-robin.
 * Nodes closer to the target (euclidean distance) have higher priority, so the search heads for the target;
 * the worker that reaches it tells the master, which stops everyone.
 *
 * <p>Switchboard's master and workers are selectors with one mailbox per distance bucket; Pekko's actors use a
 * stable priority mailbox with the same order. Which path is found varies from run to run; the checksum is 1
 * when the target was reached and the parent chain from it leads back to the origin along grid edges.
 *
 * <p>Scaling: Savina's defaults are 20 workers, grid 30, threshold 1,024; the paper uses grid 150 and 24
 * workers. Here: the paper's grid 150 (3.4 million nodes; grid 30 is searched in a few milliseconds) with
 * Savina's 20 workers and threshold 1,024, and 10 priorities; a Pekko run takes about 0.2 s on two cores (a
 * larger grid would take hundreds of megabytes). The grid, about 50 MB, is built once, on first use. Savina's per-node busy wait draws 100 numbers from
 * {@code Math.random()}, one generator shared by all threads; here each worker draws them from its own, so the
 * runtimes are not compared through contention on one global seed.
 */
public final class AStar implements Benchmark {
    /** The mailbox the Pekko actors are created with; Pekko reads mailbox types from its configuration only. */
    public static final String PEKKO_MAILBOX = "switchboard-bench.mailboxes.astar-priority";

    /** The configuration entry that declares {@link #PEKKO_MAILBOX}. */
    public static final String PEKKO_MAILBOX_CONFIG = PEKKO_MAILBOX + ".mailbox-type = \""
            + PekkoAStar.DistancePriorityMailbox.class.getName() + "\"\n";

    private final int workers;
    private final int threshold;
    private final int priorities;
    private final int gridSize;
    /** Built on first use: constructing the suite must not build every grid. */
    private Grid grid;

    public AStar(int workers, int gridSize, int threshold, int priorities) {
        if (workers < 1 || gridSize < 2 || threshold < 1 || priorities < 1) {
            throw new IllegalArgumentException("bad AStar parameters");
        }
        this.workers = workers;
        this.threshold = threshold;
        this.priorities = priorities;
        this.gridSize = gridSize;
    }

    private synchronized Grid grid() {
        if (grid == null) {
            grid = new Grid(gridSize, priorities);
        }
        return grid;
    }

    /** Savina's workers and threshold, the paper's grid 150, 10 priorities (see the class comment). */
    public AStar() {
        this(20, 150, 1_024, 10);
    }

    @Override
    public String name() {
        return "AStar";
    }

    @Override
    public String description() {
        return "parallel guided search of a seeded 3-D grid, nodes nearer the target first (Savina astar;"
                + " grid 150 as in the paper, instead of 30)";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workers", workers);
        m.put("grid_size", gridSize);
        m.put("threshold", threshold);
        m.put("priorities", priorities);
        return m;
    }

    /** The target was reached along a valid path. */
    @Override
    public long expected() {
        return 1;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardAStar.run(runtime, grid(), workers, threshold);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoAStar.run(system, grid(), workers, threshold);
    }

    /**
     * The grid: node {@code id = (i * size + j) * size + k}; each node has up to six edges to nodes one step
     * further along some of the axes, chosen with Savina's seed and rules, so the graph is the same in every run
     * and every node has at least one way onward. Edges are kept in two flat arrays (node {@code n}'s neighbours
     * are {@code edges[first[n]] .. edges[first[n + 1] - 1]}), which keeps a 150-wide grid at about 50 MB.
     */
    static final class Grid {
        final int size;
        final int origin;
        final int target;
        private final int priorities;
        private final int[] first;
        private final int[] edges;
        private final double maxDistance;

        Grid(int size, int priorities) {
            this.size = size;
            this.priorities = priorities;
            int n = size * size * size;
            this.first = new int[n + 1];
            int[] all = new int[6 * n];
            int count = 0;
            Random random = new Random(123456L);
            for (int id = 0; id < n; id++) {
                first[id] = count;
                int gi = id / (size * size);
                int gj = (id / size) % size;
                int gk = id % size;
                int iteration = 0;
                for (int i = 0; i < 2; i++) {
                    for (int j = 0; j < 2; j++) {
                        for (int k = 0; k < 2; k++) {
                            iteration++;
                            if (iteration == 1 || iteration == 8) {
                                continue;                        // neither itself nor the diagonal
                            }
                            if ((iteration == 7 && count == first[id]) || random.nextBoolean()) {
                                int other = id(Math.min(size - 1, gi + i), Math.min(size - 1, gj + j),
                                        Math.min(size - 1, gk + k));
                                if (other != id && !contains(all, first[id], count, other)) {
                                    all[count++] = other;
                                }
                            }
                        }
                    }
                }
            }
            first[n] = count;
            this.edges = java.util.Arrays.copyOf(all, count);
            this.origin = 0;
            int axis = (int) (0.80 * size);
            this.target = id(axis, axis, axis);
            this.maxDistance = distance(origin, target);
            if (!reachable()) {
                throw new IllegalStateException("the target of grid " + size + " is not reachable");
            }
        }

        int id(int i, int j, int k) {
            return (i * size + j) * size + k;
        }

        int firstEdge(int node) {
            return first[node];
        }

        int endEdge(int node) {
            return first[node + 1];
        }

        int edge(int e) {
            return edges[e];
        }

        double distance(int a, int b) {
            int di = a / (size * size) - b / (size * size);
            int dj = (a / size) % size - (b / size) % size;
            int dk = a % size - b % size;
            return Math.sqrt(di * di + dj * dj + dk * dk);
        }

        /** Priority of a node, 0 (most urgent) for the nodes nearest the target. */
        int priority(int node) {
            int bucket = (int) (distance(node, target) * priorities / maxDistance);
            return Math.min(priorities - 1, bucket);
        }

        int priorities() {
            return priorities;
        }

        /** A fresh parent table for one run: -1 everywhere except the origin, which is its own parent. */
        AtomicIntegerArray newParents() {
            AtomicIntegerArray parents = new AtomicIntegerArray(first.length - 1);
            for (int i = 0; i < first.length - 1; i++) {
                parents.setPlain(i, -1);
            }
            parents.setPlain(origin, origin);
            return parents;
        }

        /** The nodes a search claimed: those with a parent, the origin included. */
        static int claimed(AtomicIntegerArray parents) {
            int n = 0;
            for (int i = 0; i < parents.length(); i++) {
                if (parents.getPlain(i) >= 0) {
                    n++;
                }
            }
            return n;
        }

        /** 1 if the target has a parent chain back to the origin along edges of the grid, else 0. */
        long checksum(AtomicIntegerArray parents) {
            int node = target;
            for (int steps = 0; steps < first.length; steps++) {
                if (node == origin) {
                    return 1;
                }
                int parent = parents.get(node);
                if (parent < 0 || !contains(edges, first[parent], first[parent + 1], node)) {
                    return 0;
                }
                node = parent;
            }
            return 0;
        }

        private boolean reachable() {
            boolean[] seen = new boolean[first.length - 1];
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(origin);
            seen[origin] = true;
            while (!queue.isEmpty()) {
                int node = queue.poll();
                if (node == target) {
                    return true;
                }
                for (int e = first[node]; e < first[node + 1]; e++) {
                    int next = edges[e];
                    if (!seen[next]) {
                        seen[next] = true;
                        queue.add(next);
                    }
                }
            }
            return false;
        }

        private static boolean contains(int[] a, int from, int to, int v) {
            for (int i = from; i < to; i++) {
                if (a[i] == v) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * One worker's expansion, the same on both sides: breadth-first from {@code start}, at most
     * {@code threshold} nodes. Returns true if this worker claimed the target; otherwise the nodes still in the
     * frontier are passed to {@code spill} (to become new work).
     */
    static final class Search {
        private final Grid grid;
        private final AtomicIntegerArray parents;
        private final int threshold;
        private final ArrayDeque<Integer> queue = new ArrayDeque<>();
        private final Random random;
        /** Keeps the busy work observable so the JIT cannot drop it. */
        int sink;

        Search(Grid grid, AtomicIntegerArray parents, int threshold, int worker) {
            this.random = new Random(worker);
            this.grid = grid;
            this.parents = parents;
            this.threshold = threshold;
        }

        boolean expand(int start, java.util.function.IntConsumer spill) {
            queue.clear();
            queue.add(start);
            int processed = 0;
            while (!queue.isEmpty() && processed < threshold) {
                processed++;
                int node = queue.poll();
                sink ^= busyWork();
                for (int e = grid.firstEdge(node), end = grid.endEdge(node); e < end; e++) {
                    int next = grid.edge(e);
                    if (parents.compareAndSet(next, -1, node)) {
                        if (next == grid.target) {
                            return true;
                        }
                        queue.add(next);
                    }
                }
            }
            while (!queue.isEmpty()) {
                spill.accept(queue.poll());
            }
            return false;
        }

        /**
         * Savina's per-node busy wait: 100 pseudo-random numbers. Savina draws them from {@code Math.random()}, one
         * generator shared by all threads; here each worker has its own, so the CAS on the seed is uncontended
         * on both sides and the runtimes are not measured through contention on one global variable.
         */
        private int busyWork() {
            double sum = 0;
            for (int i = 0; i < 100; i++) {
                sum += random.nextDouble();
            }
            return (int) sum;
        }
    }
}

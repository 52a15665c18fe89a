package dev.switchboard.bench.tasks;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * A wavefront over a {@code rows} × {@code columns} grid: each cell is a task that runs once its upper and left
 * neighbours are done and computes its value from theirs ({@link #value}: {@code work} rounds of a 64-bit hash).
 * The whole dependency graph is built up front; the cells then run as their inputs arrive, one anti-diagonal after
 * another. Switchboard gives each cell a data-driven future ({@code ddf()}) filled by an {@code asyncAwait} task on
 * its neighbours' futures; the peer chains {@code CompletableFuture}s with {@code thenCombineAsync(..., pool)}.
 * The checksum is the value of the last cell, which depends on every other.
 */
public final class DataDriven implements Benchmark {
    private final int rows;
    private final int columns;
    private final int work;
    private Long expected;

    /**
     * @param rows     of the grid (at least 1)
     * @param columns  of the grid (at least 1)
     * @param work     hash rounds per cell (at least 1)
     */
    public DataDriven(int rows, int columns, int work) {
        if (rows < 1) {
            throw new IllegalArgumentException("DataDriven: rows must be at least 1, got " + rows);
        }
        if (columns < 1) {
            throw new IllegalArgumentException("DataDriven: columns must be at least 1, got " + columns);
        }
        if ((long) rows * columns > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("DataDriven: rows x columns must be at most " + Integer.MAX_VALUE / 2
                    + ", got " + (long) rows * columns);
        }
        if (work < 1) {
            throw new IllegalArgumentException("DataDriven: work (hash rounds per cell) must be at least 1, got "
                    + work);
        }
        this.rows = rows;
        this.columns = columns;
        this.work = work;
    }

    /** 200 × 200 cells of 64 hash rounds. */
    public DataDriven() {
        this(200, 200, 64);
    }

    @Override
    public String name() {
        return "DataDriven";
    }

    @Override
    public String description() {
        return rows + "x" + columns + " wavefront, a cell after its upper and left neighbours: asyncAwait on ddf()s"
                + " (Switchboard) vs CompletableFuture.thenCombineAsync on the pool";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rows", rows);
        m.put("columns", columns);
        m.put("work_per_cell", work);
        return m;
    }

    @Override
    public Peer peer() {
        return Peer.FORK_JOIN_POOL;
    }

    /** The last cell, by a sequential sweep of the grid row by row. */
    @Override
    public synchronized long expected() {
        if (expected == null) {
            long[] row = new long[columns];
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < columns; j++) {
                    row[j] = value(i == 0 ? EDGE : row[j], j == 0 ? EDGE : row[j - 1], i, j, work);
                }
            }
            expected = row[columns - 1];
        }
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardDataDriven.run(runtime, rows, columns, work);
    }

    @Override
    public long runForkJoin(ForkJoinPool pool) {
        return CompletableFutureDataDriven.run(pool, rows, columns, work);
    }

    /** What a cell on the top row sees above it, and a cell on the left column to its left. */
    static final long EDGE = 1;

    /** A cell's value from its upper and left neighbours' and its position. */
    static long value(long up, long left, int row, int column, int work) {
        long h = up * 31 + left + ((long) row << 32 | column);
        for (int k = 0; k < work; k++) {
            h = mix(h);
        }
        return h;
    }

    /** SplitMix64's finalizer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

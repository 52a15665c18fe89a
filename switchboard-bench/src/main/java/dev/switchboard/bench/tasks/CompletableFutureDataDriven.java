package dev.switchboard.bench.tasks;

import static dev.switchboard.bench.tasks.DataDriven.EDGE;
import static dev.switchboard.bench.tasks.DataDriven.value;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * The wavefront with {@code CompletableFuture}s on the pool: a cell is its upper neighbour's future
 * {@code thenCombineAsync} its left neighbour's (the edges {@code thenApplyAsync} their one neighbour); the run
 * joins the last cell, which every other cell precedes.
 */
final class CompletableFutureDataDriven {
    private CompletableFutureDataDriven() {
    }

    static long run(ForkJoinPool pool, int rows, int columns, int work) {
        List<CompletableFuture<Long>> grid = new ArrayList<>(rows * columns);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                int row = i;
                int column = j;
                CompletableFuture<Long> cell;
                if (i == 0 && j == 0) {
                    cell = CompletableFuture.supplyAsync(() -> value(EDGE, EDGE, 0, 0, work), pool);
                } else if (i == 0) {
                    cell = grid.get(j - 1).thenApplyAsync(left -> value(EDGE, left, row, column, work), pool);
                } else if (j == 0) {
                    cell = grid.get((i - 1) * columns).thenApplyAsync(up -> value(up, EDGE, row, column, work), pool);
                } else {
                    cell = grid.get((i - 1) * columns + j).thenCombineAsync(grid.get(i * columns + j - 1),
                            (up, left) -> value(up, left, row, column, work), pool);
                }
                grid.add(cell);
            }
        }
        return grid.get(rows * columns - 1).join();
    }
}

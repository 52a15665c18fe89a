package dev.switchboard.bench.tasks;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.asyncAwait;
import static dev.switchboard.Switchboard.ddf;
import static dev.switchboard.bench.tasks.DataDriven.EDGE;
import static dev.switchboard.bench.tasks.DataDriven.value;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.List;

/**
 * The wavefront on Switchboard: a data-driven future per cell, put by a task that {@code asyncAwait}s the
 * futures of the cell's upper and left neighbours. The finish ends when every cell has been computed.
 */
final class SwitchboardDataDriven {
    private SwitchboardDataDriven() {
    }

    static long run(TaskRuntime runtime, int rows, int columns, int work) {
        List<DataDrivenFuture<Long>> grid = new ArrayList<>(rows * columns);
        runtime.finish(() -> {
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < columns; j++) {
                    int row = i;
                    int column = j;
                    DataDrivenFuture<Long> cell = ddf();
                    if (i == 0 && j == 0) {
                        async(() -> cell.put(value(EDGE, EDGE, 0, 0, work)));
                    } else if (i == 0) {
                        DataDrivenFuture<Long> left = grid.get(j - 1);
                        asyncAwait(left, () -> cell.put(value(EDGE, left.get(), row, column, work)));
                    } else if (j == 0) {
                        DataDrivenFuture<Long> up = grid.get((i - 1) * columns);
                        asyncAwait(up, () -> cell.put(value(up.get(), EDGE, row, column, work)));
                    } else {
                        DataDrivenFuture<Long> up = grid.get((i - 1) * columns + j);
                        DataDrivenFuture<Long> left = grid.get(i * columns + j - 1);
                        asyncAwait(up, left, () -> cell.put(value(up.get(), left.get(), row, column, work)));
                    }
                    grid.add(cell);
                }
            }
        });
        return grid.get(rows * columns - 1).get();
    }
}

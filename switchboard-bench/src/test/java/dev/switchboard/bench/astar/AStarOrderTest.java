package dev.switchboard.bench.astar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.astar.AStar.Grid;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What {@link AStarOrder} counts: the nodes a search claimed, on a small grid. Not a timing test. */
class AStarOrderTest {
    @Test
    void aFreshTableHasOnlyTheOriginClaimed() {
        Grid grid = new Grid(10, 5);
        assertThat(Grid.claimed(grid.newParents())).isEqualTo(1);
    }

    @Test
    @Timeout(60)
    void aSearchClaimsThePathToTheTargetAndNoMoreThanTheGrid() {
        Grid grid = new Grid(30, 10);
        try (TaskRuntime runtime = TaskRuntime.builder().workers(2).throughput(5).build()) {
            AtomicIntegerArray parents = grid.newParents();
            assertThat(SwitchboardAStar.run(runtime, grid, 6, 16, SwitchboardAStar.MASTER_THROUGHPUT, parents))
                    .isEqualTo(1);
            int path = 0;
            for (int node = grid.target; node != grid.origin; node = parents.get(node)) {
                path++;
            }
            // the path's nodes and the origin at least; every node at most once
            assertThat(Grid.claimed(parents)).isBetween(path + 1, 30 * 30 * 30);
        }
    }

    @Test
    void anUnknownSideIsNamed() {
        assertThatThrownBy(() -> AStarOrder.main(new String[] {"2", "akka:5"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("akka:5");
        assertThatThrownBy(() -> AStarOrder.main(new String[] {"2", "switchboard:64/"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("switchboard:64/");
        assertThatThrownBy(() -> AStarOrder.main(new String[] {"2", "pekko:5/5"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pekko:5/5");
    }
}

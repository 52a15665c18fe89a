package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.astar.AStar;
import dev.switchboard.bench.nqueensk.NQueensFirstK;
import java.util.List;

/** The selector benchmarks of this group, in report order (see {@link Suite}). */
final class PriorityBenchmarks {
    private PriorityBenchmarks() {
    }

    static List<Benchmark> all() {
        return List.of(new NQueensFirstK(), new AStar());
    }
}

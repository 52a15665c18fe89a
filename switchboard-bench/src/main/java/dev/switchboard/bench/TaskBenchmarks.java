package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.tasks.DataDriven;
import dev.switchboard.bench.tasks.FibFinish;
import dev.switchboard.bench.tasks.FibFuture;
import dev.switchboard.bench.tasks.ParallelLoop;
import dev.switchboard.bench.tasks.Sort;
import java.util.List;

/**
 * The task-parallel benchmarks (package {@code dev.switchboard.bench.tasks}), in report order (see {@link Suite}):
 * their peer is the JDK's {@code ForkJoinPool} ({@code RecursiveTask}, {@code RecursiveAction}, {@code invokeAll},
 * {@code CompletableFuture} on the pool), not Pekko.
 */
final class TaskBenchmarks {
    private TaskBenchmarks() {
    }

    static List<Benchmark> all() {
        return List.of(
                new FibFuture(),
                new FibFinish(),
                new Sort(),
                new ParallelLoop(),
                new DataDriven());
    }
}

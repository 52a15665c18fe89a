package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.tasks.DataDriven;
import dev.switchboard.bench.tasks.FibFinish;
import dev.switchboard.bench.tasks.FibFuture;
import dev.switchboard.bench.tasks.ParallelLoop;
import dev.switchboard.bench.tasks.Sort;
import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The task-parallel benchmarks, at small sizes, compute the expected checksum on Switchboard and on their peer,
 * the {@code ForkJoinPool}, three times in a row in one runtime and one pool (as the harness runs them). Not a
 * timing test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TaskVerifyTest {
    static TaskRuntime runtime;
    static ForkJoinPool pool;

    @BeforeAll
    static void start() {
        runtime = TaskRuntime.create(2);
        pool = new ForkJoinPool(2);
    }

    @AfterAll
    static void stop() {
        runtime.close();
        pool.close();
    }

    static Stream<Benchmark> small() {
        return Stream.of(
                new FibFuture(20, 12),
                new FibFuture(16, 4),
                new FibFuture(2, 2),                 // the smallest parallel call: fib(1) in a future, fib(0) here
                new FibFuture(9, 12),                // below the threshold: sequential
                new FibFinish(20, 12),
                new FibFinish(16, 4),
                new FibFinish(2, 2),
                new FibFinish(0, 12),
                new Sort(100_000, 1_024, 7),
                new Sort(1_001, 16, 7),              // odd lengths at every level
                new Sort(5, 1, 7),                   // down to single elements
                new Sort(1, 4_096, 7),
                new ParallelLoop(1_000_000, 10_000),
                new ParallelLoop(100_003, 1_000),    // a short last chunk
                new ParallelLoop(10, 100),           // one chunk
                new DataDriven(40, 30, 4),
                new DataDriven(1, 50, 2),            // one row: a chain
                new DataDriven(50, 1, 2),            // one column
                new DataDriven(1, 1, 1));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        assertThat(b.peer()).isEqualTo(Benchmark.Peer.FORK_JOIN_POOL);
        for (int i = 0; i < 3; i++) {
            assertThat(b.runSwitchboard(runtime)).as("%s %s on Switchboard, run %d", b.name(), b.params(), i)
                    .isEqualTo(b.expected());
            assertThat(b.runForkJoin(pool)).as("%s %s on the ForkJoinPool, run %d", b.name(), b.params(), i)
                    .isEqualTo(b.expected());
        }
    }

    @Test
    void theExpectedChecksumsAreTheKnownValues() {
        assertThat(new FibFuture(20, 12).expected()).isEqualTo(6_765);
        assertThat(new FibFinish(50, 12).expected()).isEqualTo(12_586_269_025L);
        assertThat(new FibFinish(0, 12).expected()).isZero();
        assertThat(new FibFinish(1, 12).expected()).isEqualTo(1);
    }

    @Test
    void theGroupHasTheFiveBenchmarksAgainstTheForkJoinPool() {
        assertThat(TaskBenchmarks.all()).extracting(Benchmark::name).containsExactly(
                "FibFuture", "FibFinish", "Sort", "ParallelLoop", "DataDriven");
        assertThat(TaskBenchmarks.all()).extracting(Benchmark::peer).containsOnly(Benchmark.Peer.FORK_JOIN_POOL);
        List<Benchmark> suite = Suite.all();
        assertThat(suite.subList(suite.size() - 5, suite.size())).extracting(Benchmark::name).containsExactly(
                "FibFuture", "FibFinish", "Sort", "ParallelLoop", "DataDriven");
        assertThat(new FibFuture().params()).containsEntry("n", 33).containsEntry("threshold", 12);
        assertThat(new Sort().params()).containsEntry("elements", 1 << 20).containsEntry("threshold", 4_096);
        assertThat(new ParallelLoop().params()).containsEntry("iterations", 1 << 24).containsEntry("chunks", 256);
        assertThat(new DataDriven().params()).containsEntry("rows", 200).containsEntry("columns", 200);
    }

    @Test
    void badParametersAreRefusedWithTheParameterNamed() {
        refused(() -> new FibFuture(-1, 12), "n must be between 0 and 50, got -1");
        refused(() -> new FibFinish(51, 12), "n must be between 0 and 50, got 51");
        refused(() -> new FibFuture(20, 1), "threshold must be at least 2");
        refused(() -> new Sort(0, 16, 1), "elements must be at least 1, got 0");
        refused(() -> new Sort(10, 0, 1), "threshold must be at least 1, got 0");
        refused(() -> new ParallelLoop(0, 16), "iterations must be at least 1, got 0");
        refused(() -> new ParallelLoop(16, 0), "chunk must be at least 1, got 0");
        refused(() -> new DataDriven(0, 5, 1), "rows must be at least 1, got 0");
        refused(() -> new DataDriven(5, -2, 1), "columns must be at least 1, got -2");
        refused(() -> new DataDriven(5, 5, 0), "work (hash rounds per cell) must be at least 1, got 0");
        refused(() -> new DataDriven(1 << 16, 1 << 16, 1), "rows x columns must be at most");
    }

    private static void refused(ThrowingCallable construction, String message) {
        assertThatThrownBy(construction).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}

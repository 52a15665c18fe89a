package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testing.Runtimes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Nested finish on worker threads never deadlocks, even with one or two workers and deep nesting. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NestedFinishTest {

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void deeplyNestedFinishOnWorkers(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            AtomicInteger leaves = new AtomicInteger();
            rt.finish(() -> rt.async(() -> nest(rt, 200, leaves)));
            assertThat(leaves.get()).isEqualTo(200);
        }
    }

    private static void nest(TaskRuntime rt, int depth, AtomicInteger leaves) {
        if (depth == 0) {
            return;
        }
        rt.finish(() -> {
            rt.async(leaves::incrementAndGet);
            rt.async(() -> nest(rt, depth - 1, leaves));
        });
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void treeOfNestedFinishes(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            for (int round = 0; round < 5; round++) {
                assertThat(FinishTest.fib(rt, 18)).isEqualTo(2584);
            }
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void nestedFinishWaitingOnABlockingGetElsewhere(int workers) {
        // Every worker may end up waiting in an inner finish whose task waits for a value that only another
        // task produces; compensation must keep the pool live.
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            LongAdder sum = new LongAdder();
            rt.finish(() -> {
                for (int i = 0; i < 8; i++) {
                    DataDrivenFuture<Integer> value = new DataDrivenFuture<>();
                    rt.async(() -> rt.finish(() -> rt.async(() -> sum.add(value.get()))));
                    rt.async(() -> value.put(1));
                }
            });
            assertThat(sum.sum()).isEqualTo(8);
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void manyConcurrentNestedFinishes(int workers) {
        try (TaskRuntime rt = Runtimes.workers(workers)) {
            LongAdder leaves = new LongAdder();
            rt.finish(() -> {
                for (int i = 0; i < 200; i++) {
                    rt.async(() -> rt.finish(() -> {
                        for (int j = 0; j < 10; j++) {
                            rt.async(() -> rt.finish(() -> rt.async(leaves::increment)));
                        }
                    }));
                }
            });
            assertThat(leaves.sum()).isEqualTo(2000);
        }
    }
}

package dev.switchboard.bench.jmh;

import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code finish}: an empty finish on a caller thread, a finish around {@code tasks} asyncs (flat fan-out, which
 * exercises spawn groups), and a nested finish inside a task (which helps, then blocks).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class FinishBenchmark {
    @Param({"1", "100", "10000"})
    int tasks;

    final LongAdder sink = new LongAdder();

    @Benchmark
    public void emptyFinish(TwoWorkers s) {
        s.runtime.finish(() -> { });
    }

    @Benchmark
    public void flatFanOut(TwoWorkers s) {
        TaskRuntime runtime = s.runtime;
        runtime.finish(() -> {
            for (int i = 0; i < tasks; i++) {
                runtime.async(sink::increment);
            }
        });
    }

    @Benchmark
    public void nestedFinishInTask(TwoWorkers s) {
        TaskRuntime runtime = s.runtime;
        runtime.finish(() -> runtime.async(() -> runtime.finish(() -> {
            for (int i = 0; i < tasks; i++) {
                runtime.async(sink::increment);
            }
        })));
    }
}

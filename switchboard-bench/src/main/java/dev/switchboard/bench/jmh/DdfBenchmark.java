package dev.switchboard.bench.jmh;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/** Data-driven futures: put then get with no waiter, and put waking {@code asyncAwait} tasks. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DdfBenchmark {
    static final int AWAITS = 1_000;

    @Benchmark
    public Integer putThenGet() {
        DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
        f.put(42);
        return f.get();
    }

    /** Per awaiting task: register, put, schedule, run. */
    @Benchmark
    @OperationsPerInvocation(AWAITS)
    public void asyncAwaitThenPut(TwoWorkers s) {
        TaskRuntime runtime = s.runtime;
        runtime.finish(() -> {
            for (int i = 0; i < AWAITS; i++) {
                DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
                runtime.asyncAwait(f, f::get);
                f.put(i);
            }
        });
    }

    /** Per awaiting task of two inputs (a wavefront's cell): register, two puts, schedule, run. */
    @Benchmark
    @OperationsPerInvocation(AWAITS)
    public void asyncAwaitTwoThenPut(TwoWorkers s) {
        TaskRuntime runtime = s.runtime;
        runtime.finish(() -> {
            for (int i = 0; i < AWAITS; i++) {
                DataDrivenFuture<Integer> a = new DataDrivenFuture<>();
                DataDrivenFuture<Integer> b = new DataDrivenFuture<>();
                runtime.asyncAwait(a, b, () -> a.get().compareTo(b.get()));
                a.put(i);
                b.put(i);
            }
        });
    }
}

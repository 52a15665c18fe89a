package dev.switchboard.bench.jmh;

import dev.switchboard.task.TaskRuntime;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** A Switchboard runtime with two workers for the duration of a JMH trial. */
@State(Scope.Benchmark)
public class TwoWorkers {
    TaskRuntime runtime;

    @Setup(Level.Trial)
    public void setUp() {
        runtime = TaskRuntime.create(2);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        runtime.close();
    }
}

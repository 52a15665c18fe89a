package dev.switchboard.testing;

import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;

/** Test runtimes with a chosen number of workers. */
public final class Runtimes {
    private Runtimes() {
    }

    public static TaskRuntime workers(int n) {
        return TaskRuntime.builder().name("test-" + n + "w").workers(n).build();
    }

    /** A runtime of {@code n} workers whose time is {@code clock}: it moves only when the test advances it. */
    public static TaskRuntime manualClock(int n, ManualClock clock) {
        return RuntimeInternals.clock(TaskRuntime.builder().name("test-" + n + "w-manual-clock").workers(n), clock)
                .build();
    }

    /**
     * A runtime whose ready actors and tasks run one at a time on the thread that drives {@code deterministic}, in
     * the order it chooses; {@code throughput} messages per activation (1 interleaves actors most finely).
     */
    public static TaskRuntime deterministic(DeterministicScheduler deterministic, int throughput) {
        return RuntimeInternals.deterministic(TaskRuntime.builder().name("test-deterministic").workers(1)
                .throughput(throughput), deterministic).build();
    }
}

package dev.switchboard.task;

import dev.switchboard.internal.Scheduler;

/** For tests of the internal package: the scheduler behind a runtime, which the public API does not show. */
public final class RuntimeInternals {
    private RuntimeInternals() {
    }

    public static Scheduler schedulerOf(TaskRuntime runtime) {
        return runtime.scheduler();
    }
}

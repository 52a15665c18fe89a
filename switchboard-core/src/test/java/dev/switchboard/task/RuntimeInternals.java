package dev.switchboard.task;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.Scheduler;

/** For tests: what the public API does not show of a runtime (its scheduler) or of its builder (its clock). */
public final class RuntimeInternals {
    private RuntimeInternals() {
    }

    public static Scheduler schedulerOf(TaskRuntime runtime) {
        return runtime.scheduler();
    }

    /** Has {@code builder} make a runtime that reads the time from {@code clock} (a {@code ManualClock}, say). */
    public static TaskRuntime.Builder clock(TaskRuntime.Builder builder, Clock clock) {
        builder.clock = java.util.Objects.requireNonNull(clock, "clock");
        return builder;
    }
}

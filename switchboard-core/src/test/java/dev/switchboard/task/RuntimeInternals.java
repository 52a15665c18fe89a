package dev.switchboard.task;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.internal.Scheduler;

/**
 * For tests: what the public API does not show of a runtime (its scheduler) or of its builder (its clock, its
 * deterministic scheduler).
 */
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

    /**
     * Has {@code builder} make a runtime whose ready actors and tasks run only when the test runs them, in the
     * order {@code deterministic} chooses (what it supports is said there).
     */
    public static TaskRuntime.Builder deterministic(TaskRuntime.Builder builder,
                                                    DeterministicScheduler deterministic) {
        builder.deterministic = java.util.Objects.requireNonNull(deterministic, "deterministic");
        return builder;
    }
}

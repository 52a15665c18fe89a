package dev.switchboard.task;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.internal.RuntimeAccess;
import java.util.Objects;

/**
 * Sets the options of a {@link TaskRuntime.Builder} that are not public API (a manual clock, a deterministic
 * scheduler), for the test kit, which reaches it through {@link RuntimeAccess#builderOptions()}.
 */
final class NonPublicBuilderOptions implements RuntimeAccess.BuilderOptions {
    @Override
    public void clock(Object builder, Clock clock) {
        ((TaskRuntime.Builder) builder).clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void deterministic(Object builder, DeterministicScheduler deterministic) {
        ((TaskRuntime.Builder) builder).deterministic = Objects.requireNonNull(deterministic, "deterministic");
    }
}

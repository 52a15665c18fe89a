package dev.switchboard.task;

import java.time.Duration;
import java.util.Objects;

/**
 * The ranges of {@link TaskRuntime.Builder}'s settings: each method returns the value it is given when it is in
 * range, and otherwise throws the {@link IllegalArgumentException} that names the setting and the value.
 */
final class BuilderChecks {
    private BuilderChecks() {
    }

    static int workers(int workers) {
        if (workers < 1 || workers > TaskRuntime.Builder.MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be between 1 and " + TaskRuntime.Builder.MAX_WORKERS
                    + " (the most a ForkJoinPool runs), got " + workers);
        }
        return workers;
    }

    static int throughput(int messages) {
        if (messages < 1) {
            throw new IllegalArgumentException("throughput must be at least 1 message, got " + messages);
        }
        return messages;
    }

    static int handoffLimit(int activations) {
        if (activations < 1) {
            throw new IllegalArgumentException("handoff limit must be at least 1, got " + activations);
        }
        return activations;
    }

    static Duration hangReportAfter(Duration after) {
        Objects.requireNonNull(after, "null duration given to hangReportAfter (to report no hangs: noHangReports())");
        if (after.isNegative() || after.isZero()) {
            throw new IllegalArgumentException("hangReportAfter must be positive, got " + after);
        }
        return after;
    }

    static Duration idleSpin(Duration spin) {
        Objects.requireNonNull(spin, "spin");
        if (spin.isNegative() || spin.compareTo(TaskRuntime.Builder.MAX_IDLE_SPIN) > 0) {
            throw new IllegalArgumentException("idleSpin must be between 0 and "
                    + TaskRuntime.Builder.MAX_IDLE_SPIN.toMillis() + " ms, got " + spin);
        }
        return spin;
    }

    static int failuresLoggedPerMinute(int perMinute) {
        if (perMinute < 0) {
            throw new IllegalArgumentException("logFailures must be 0 or more a minute, got " + perMinute);
        }
        return perMinute;
    }
}

package dev.switchboard.bench.harness;

import java.util.Map;

/** The outcome of one benchmark: both sides' statistics and whether every iteration was correct. */
public record Result(String name, String description, Map<String, Object> params, int iterations,
                     Stats switchboard, Stats pekko, boolean verified, String failure) {
    /** {@code pekko_median / switchboard_median}: above 1 means Switchboard is faster. */
    public double ratio() {
        return pekko.medianMs() / switchboard.medianMs();
    }
}

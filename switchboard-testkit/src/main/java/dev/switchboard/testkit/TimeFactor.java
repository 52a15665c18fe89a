package dev.switchboard.testkit;

import java.time.Duration;

/**
 * The factor that stretches a {@link TestKit}'s default waits for slow machines: the system property
 * {@value TestKit#TIME_FACTOR_PROPERTY}, read and checked each time a kit is built. Called by
 * {@link TestKit.Builder#build()}.
 */
final class TimeFactor {
    private TimeFactor() {
    }

    /** The factor of {@value TestKit#TIME_FACTOR_PROPERTY}, checked. */
    static double get() {
        String v = System.getProperty(TestKit.TIME_FACTOR_PROPERTY);
        if (v == null || v.isBlank()) {
            return 1;
        }
        try {
            double f = Double.parseDouble(v.strip());
            if (f > 0 && f <= 1_000) {
                return f;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(TestKit.TIME_FACTOR_PROPERTY + " must be a number above 0 and at most"
                + " 1000, got \"" + v + "\"");
    }

    /** {@code d} times the factor. */
    static Duration dilated(Duration d) {
        return Duration.ofNanos((long) (d.toNanos() * get()));
    }
}

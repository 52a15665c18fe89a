package dev.switchboard.internal;

/** Formats ages for diagnostics. */
final class Durations {
    private Durations() {
    }

    static String ago(long millis) {
        if (millis < 1_000) {
            return millis + " ms ago";
        }
        return String.format("%.1f s ago", millis / 1000.0);
    }
}

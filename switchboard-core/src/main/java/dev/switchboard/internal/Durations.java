package dev.switchboard.internal;

/** Formats ages for diagnostics. */
final class Durations {
    private Durations() {
    }

    static String ago(long millis) {
        return of(millis) + " ago";
    }

    static String of(long millis) {
        if (millis < 0) {
            millis = 0;                    // a stamp taken after the report's clock read: just now
        }
        if (millis < 1_000) {
            return millis + " ms";
        }
        return String.format("%.1f s", millis / 1000.0);
    }
}

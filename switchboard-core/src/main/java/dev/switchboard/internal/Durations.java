package dev.switchboard.internal;

/**
 * Formats ages for diagnostics: "12 ms", "3.4 s". With integer arithmetic, not {@code String.format}: the same in
 * every locale, and nothing to initialize on a failure path (the formatter's classes, initialized first at the
 * stack's edge, failed and made every later report fail).
 */
public final class Durations {
    private Durations() {
    }

    public static String ago(long millis) {
        return of(millis) + " ago";
    }

    public static String of(long millis) {
        if (millis < 0) {
            millis = 0;                    // a stamp taken after the report's clock read: just now
        }
        if (millis < 1_000) {
            return millis + " ms";
        }
        long tenths = (millis + 50) / 100;                  // rounded half up, as %.1f
        return tenths / 10 + "." + tenths % 10 + " s";
    }
}

package dev.switchboard.testkit;

import dev.switchboard.internal.SafeText;
import java.time.Duration;
import java.util.Collection;
import java.util.StringJoiner;

/** How the kit's assertion messages show durations, messages and lists: short, and never failing themselves. */
final class Texts {
    private static final int MAX = 200;
    private static final int MAX_ITEMS = 10;

    private Texts() {
    }

    /** "250 ms", "3 s", "1.5 s", "2 min". */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1_000) {
            return ms >= 1 ? ms + " ms" : d.toNanos() >= 1_000 ? d.toNanos() / 1_000 + " µs" : d.toNanos() + " ns";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + " min";
        }
        return java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** The object's {@code toString()}, cut at 200 characters; what it threw (or that it returned null), if so. */
    static String brief(Object o) {
        String s = SafeText.of(o);
        return s.length() <= MAX ? s : s.substring(0, MAX) + "…";
    }

    /** "[a, b, c]", the first ten items, each {@link #brief}. */
    static String list(Collection<?> items) {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        int n = 0;
        for (Object o : items) {
            if (n++ == MAX_ITEMS) {
                j.add("… " + (items.size() - MAX_ITEMS) + " more");
                break;
            }
            j.add(brief(o));
        }
        return j.toString();
    }
}

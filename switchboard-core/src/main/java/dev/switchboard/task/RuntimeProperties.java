package dev.switchboard.task;

import java.time.Duration;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runtime's settings read from system properties ({@link TaskRuntime.Builder#systemProperties}): which keys,
 * how their values are written, and the errors that name a key whose value is not valid. Owns the parsing; sets
 * the builder only through its public setters.
 */
final class RuntimeProperties {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(us|ms|s|m)");

    private RuntimeProperties() {
    }

    static void apply(TaskRuntime.Builder builder, Properties properties) {
        set(properties, "switchboard.workers", v -> builder.workers(intProperty("switchboard.workers", v)));
        set(properties, "switchboard.throughput", v -> builder.throughput(intProperty("switchboard.throughput", v)));
        set(properties, "switchboard.handoffLimit",
                v -> builder.handoffLimit(intProperty("switchboard.handoffLimit", v)));
        set(properties, "switchboard.idleSpin", v -> builder.idleSpin(isOff(v) ? Duration.ZERO
                : durationProperty("switchboard.idleSpin", v)));
        set(properties, "switchboard.hangReportAfter", v -> {
            if (isOff(v)) {
                builder.noHangReports();
            } else {
                builder.hangReportAfter(durationProperty("switchboard.hangReportAfter", v));
            }
        });
        set(properties, "switchboard.logFailures",
                v -> builder.logFailures(isOff(v) ? 0 : intProperty("switchboard.logFailures", v)));
    }

    /**
     * Applies property {@code key}, if set: a value the builder refuses (out of its range) is refused naming the
     * property, as one that does not parse is.
     */
    private static void set(Properties properties, String key, Consumer<String> apply) {
        String value = properties.getProperty(key);
        if (value == null) {
            return;
        }
        try {
            apply.accept(value);
        } catch (IllegalArgumentException e) {
            if (String.valueOf(e.getMessage()).startsWith("system property ")) {
                throw e;                                // named already (it did not parse)
            }
            throw new IllegalArgumentException("system property " + key + "=" + value + ": " + e.getMessage(), e);
        }
    }

    private static boolean isOff(String value) {
        return value.strip().equalsIgnoreCase("off");
    }

    private static int intProperty(String key, String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + key + " must be a whole number, got \""
                    + value + "\"");
        }
    }

    private static Duration durationProperty(String key, String value) {
        Matcher m = DURATION.matcher(value.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("system property " + key + " must be a duration such as 10s,"
                    + " 500ms, 50us or 2m, or off; got \"" + value + "\"");
        }
        Duration d;
        try {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1_000L));
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMinutes(n);
            };
        } catch (NumberFormatException | ArithmeticException tooLarge) {
            throw new IllegalArgumentException("system property " + key + " is too large a duration, got \"" + value
                    + "\"", tooLarge);
        }
        if (d.isZero()) {
            throw new IllegalArgumentException("system property " + key + " must be positive (or off), got \""
                    + value + "\"");
        }
        return d;
    }
}

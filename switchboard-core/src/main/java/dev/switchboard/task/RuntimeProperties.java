package dev.switchboard.task;

import java.time.Duration;
import java.util.Properties;
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
        String w = properties.getProperty("switchboard.workers");
        if (w != null) {
            builder.workers(intProperty("switchboard.workers", w));
        }
        String t = properties.getProperty("switchboard.throughput");
        if (t != null) {
            builder.throughput(intProperty("switchboard.throughput", t));
        }
        String h = properties.getProperty("switchboard.handoffLimit");
        if (h != null) {
            builder.handoffLimit(intProperty("switchboard.handoffLimit", h));
        }
        String spin = properties.getProperty("switchboard.idleSpin");
        if (spin != null) {
            builder.idleSpin(isOff(spin) ? Duration.ZERO : durationProperty("switchboard.idleSpin", spin));
        }
        String r = properties.getProperty("switchboard.hangReportAfter");
        if (r != null) {
            if (isOff(r)) {
                builder.noHangReports();
            } else {
                builder.hangReportAfter(durationProperty("switchboard.hangReportAfter", r));
            }
        }
        String f = properties.getProperty("switchboard.logFailures");
        if (f != null) {
            builder.logFailures(isOff(f) ? 0 : intProperty("switchboard.logFailures", f));
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
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "us" -> Duration.ofNanos(n * 1_000);
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        };
        if (d.isZero()) {
            throw new IllegalArgumentException("system property " + key + " must be positive (or off), got \""
                    + value + "\"");
        }
        return d;
    }
}

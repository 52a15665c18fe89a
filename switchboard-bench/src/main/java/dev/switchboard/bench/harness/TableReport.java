package dev.switchboard.bench.harness;

import java.util.List;
import java.util.Locale;

/** The table printed at the end of a run. */
final class TableReport {
    private TableReport() {
    }

    static String render(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        String header = String.format(Locale.ROOT, "%-24s %12s %12s %12s %12s %12s %12s %8s %s%n", "benchmark",
                "sb median", "sb min", "sb max", "pekko median", "pekko min", "pekko max", "ratio", "verified");
        sb.append(header).append("-".repeat(header.length() - 1)).append('\n');
        double logSum = 0;
        int n = 0;
        for (Result r : results) {
            if (!r.verified()) {
                sb.append(String.format(Locale.ROOT, "%-24s %s%n", r.name(), "FAILED: " + r.failure()));
                continue;
            }
            sb.append(String.format(Locale.ROOT, "%-24s %12.2f %12.2f %12.2f %12.2f %12.2f %12.2f %8.2f %s%n",
                    r.name(), r.switchboard().medianMs(), r.switchboard().minMs(), r.switchboard().maxMs(),
                    r.pekko().medianMs(), r.pekko().minMs(), r.pekko().maxMs(), r.ratio(), "yes"));
            logSum += Math.log(r.ratio());
            n++;
        }
        if (n > 0) {
            sb.append(String.format(Locale.ROOT, "%-24s %90s %8.2f%n", "geometric mean", "", Math.exp(logSum / n)));
        }
        sb.append("(times in ms)\n");
        return sb.toString();
    }
}

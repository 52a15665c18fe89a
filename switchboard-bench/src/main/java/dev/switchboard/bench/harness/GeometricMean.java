package dev.switchboard.bench.harness;

import java.util.List;

/** The geometric mean of the ratios of the benchmarks compared with one peer side. */
final class GeometricMean {
    private GeometricMean() {
    }

    /**
     * The geometric mean of {@code ratio(side)} over the verified results that ran on {@code side}, whether
     * Switchboard won or lost them; NaN if there are none.
     */
    static double of(List<Result> results, Side side) {
        double logSum = 0;
        int n = 0;
        for (Result r : results) {
            if (r.verified() && r.peers().containsKey(side)) {
                logSum += Math.log(r.ratio(side));
                n++;
            }
        }
        return n == 0 ? Double.NaN : Math.exp(logSum / n);
    }
}

package dev.switchboard.bench.harness;

import java.util.Arrays;

/** Median, minimum and maximum of a series of wall times. */
public record Stats(double medianMs, double minMs, double maxMs, double[] samplesMs) {
    public static Stats of(long[] nanos) {
        double[] ms = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) {
            ms[i] = nanos[i] / 1e6;
        }
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Stats(median, sorted[0], sorted[n - 1], ms);
    }
}

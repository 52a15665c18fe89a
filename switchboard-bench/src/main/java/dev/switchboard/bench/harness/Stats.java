package dev.switchboard.bench.harness;

import java.util.Arrays;

/** Median, minimum and maximum of a series of wall times, and the series in the order measured. */
public record Stats(double medianMs, double minMs, double maxMs, double[] samplesMs) {
    public static Stats of(long[] nanos) {
        double[] ms = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) {
            ms[i] = nanos[i] / 1e6;
        }
        return ofMs(ms);
    }

    /** The statistics of {@code ms}, wall times in milliseconds (at least one). */
    public static Stats ofMs(double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return new Stats(median(sorted), sorted[0], sorted[sorted.length - 1], ms.clone());
    }

    /** The median of sorted values: the middle one, or the mean of the two middle ones. */
    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

package dev.switchboard.bench.tasks;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** The merge sort as a {@code RecursiveAction}: {@code invokeAll} of the halves, then the merge. */
final class ForkJoinSort extends RecursiveAction {
    private final int[] a;
    private final int[] buffer;
    private final int lo;
    private final int hi;
    private final int threshold;

    private ForkJoinSort(int[] a, int[] buffer, int lo, int hi, int threshold) {
        this.a = a;
        this.buffer = buffer;
        this.lo = lo;
        this.hi = hi;
        this.threshold = threshold;
    }

    static void sort(ForkJoinPool pool, int[] a, int threshold) {
        pool.invoke(new ForkJoinSort(a, new int[a.length], 0, a.length, threshold));
    }

    @Override
    protected void compute() {
        if (hi - lo <= threshold) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        invokeAll(new ForkJoinSort(a, buffer, lo, mid, threshold), new ForkJoinSort(a, buffer, mid, hi, threshold));
        Sort.merge(a, buffer, lo, mid, hi);
    }
}

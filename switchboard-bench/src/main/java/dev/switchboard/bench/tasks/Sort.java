package dev.switchboard.bench.tasks;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;

/**
 * A parallel merge sort of {@code elements} ints drawn from a seeded generator: a range longer than
 * {@code threshold} is split in halves, the halves are sorted in parallel and merged; a shorter one is sorted with
 * {@code Arrays.sort}. Switchboard sorts the halves in {@code finish { async(left); right }}, the peer with a
 * {@code RecursiveAction} that calls {@code invokeAll(left, right)}. A run copies the input, sorts the copy and
 * returns a polynomial hash of it, which any element out of place changes.
 */
public final class Sort implements Benchmark {
    private final int elements;
    private final int threshold;
    private final long seed;
    /** Built on first use: {@code Suite.all()} constructs every benchmark, most of which a run never selects. */
    private int[] input;
    private Long expected;

    /**
     * @param elements   ints to sort (at least 1)
     * @param threshold  ranges of at most this many elements are sorted sequentially (at least 1)
     * @param seed       of the generator of the input
     */
    public Sort(int elements, int threshold, long seed) {
        if (elements < 1) {
            throw new IllegalArgumentException("Sort: elements must be at least 1, got " + elements);
        }
        if (threshold < 1) {
            throw new IllegalArgumentException("Sort: threshold must be at least 1, got " + threshold);
        }
        this.elements = elements;
        this.threshold = threshold;
        this.seed = seed;
    }

    /** 2^20 ints, sequential at 4,096 and below (256 leaves). */
    public Sort() {
        this(1 << 20, 4_096, 42);
    }

    @Override
    public String name() {
        return "Sort";
    }

    @Override
    public String description() {
        return "merge sort of " + elements + " ints: finish { async(left); right }; merge (Switchboard) vs"
                + " RecursiveAction invokeAll(left, right); merge";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("elements", elements);
        m.put("threshold", threshold);
        m.put("seed", seed);
        return m;
    }

    @Override
    public Peer peer() {
        return Peer.FORK_JOIN_POOL;
    }

    /** The hash of the input sorted sequentially by {@code Arrays.sort}. */
    @Override
    public synchronized long expected() {
        if (expected == null) {
            int[] sorted = input().clone();
            Arrays.sort(sorted);
            expected = hash(sorted);
        }
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        int[] a = input().clone();
        SwitchboardSort.sort(runtime, a, threshold);
        return hash(a);
    }

    @Override
    public long runForkJoin(ForkJoinPool pool) {
        int[] a = input().clone();
        ForkJoinSort.sort(pool, a, threshold);
        return hash(a);
    }

    private synchronized int[] input() {
        if (input == null) {
            input = new SplittableRandom(seed).ints(elements).toArray();
        }
        return input;
    }

    /** A polynomial hash: it depends on every element and on its position. */
    static long hash(int[] a) {
        long h = 1;
        for (int x : a) {
            h = 31 * h + x;
        }
        return h;
    }

    /**
     * Merges the sorted ranges {@code a[lo, mid)} and {@code a[mid, hi)} into {@code a[lo, hi)}, using
     * {@code buffer[lo, mid)} (so merges of disjoint ranges can run in parallel on one buffer).
     */
    static void merge(int[] a, int[] buffer, int lo, int mid, int hi) {
        System.arraycopy(a, lo, buffer, lo, mid - lo);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            a[k++] = buffer[i] <= a[j] ? buffer[i++] : a[j++];
        }
        while (i < mid) {
            a[k++] = buffer[i++];
        }
    }
}

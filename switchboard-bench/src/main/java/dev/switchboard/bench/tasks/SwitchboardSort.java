package dev.switchboard.bench.tasks;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.task.TaskRuntime;
import java.util.Arrays;

/** The merge sort on Switchboard: the halves in {@code finish { async(left); right }}, then the merge. */
final class SwitchboardSort {
    private SwitchboardSort() {
    }

    static void sort(TaskRuntime runtime, int[] a, int threshold) {
        int[] buffer = new int[a.length];
        runtime.finish(() -> async(() -> sort(a, buffer, 0, a.length, threshold)));
    }

    static void sort(int[] a, int[] buffer, int lo, int hi, int threshold) {
        if (hi - lo <= threshold) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        finish(() -> {
            async(() -> sort(a, buffer, lo, mid, threshold));
            sort(a, buffer, mid, hi, threshold);
        });
        Sort.merge(a, buffer, lo, mid, hi);
    }
}

package dev.switchboard.examples;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.asyncAwait;
import static dev.switchboard.Switchboard.finish;

import dev.switchboard.task.DataDrivenFuture;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * [Unified], Fig. 3: Quicksort with data-driven futures. Each call sorts its two partitions in parallel tasks
 * and joins them in an {@code asyncAwait} that runs once both partitions' DDFs are put.
 */
public final class Quicksort implements Example {
    private static final int SEQUENTIAL_BELOW = 1_000;
    private final int size;

    public Quicksort(int size) {
        this.size = size;
    }

    public Quicksort() {
        this(200_000);
    }

    static void quicksort(List<Integer> data, DataDrivenFuture<List<Integer>> result) {
        if (data.size() < SEQUENTIAL_BELOW) {
            List<Integer> sorted = new ArrayList<>(data);
            sorted.sort(null);
            result.put(sorted);
            return;
        }
        int pivot = data.get(data.size() / 2);
        DataDrivenFuture<List<Integer>> left = new DataDrivenFuture<>();
        DataDrivenFuture<List<Integer>> right = new DataDrivenFuture<>();
        async(() -> quicksort(data.stream().filter(x -> x < pivot).toList(), left));    // left fragment
        async(() -> quicksort(data.stream().filter(x -> x > pivot).toList(), right));   // right fragment
        List<Integer> equal = data.stream().filter(x -> x == pivot).toList();
        asyncAwait(left, right, () -> {                  // runs once both fragments are sorted
            List<Integer> all = new ArrayList<>(left.get().size() + equal.size() + right.get().size());
            all.addAll(left.get());
            all.addAll(equal);
            all.addAll(right.get());
            result.put(all);
        });
    }

    @Override
    public void run(PrintStream out) {
        Random random = new Random(42);
        List<Integer> input = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            input.add(random.nextInt(1_000_000));
        }
        DataDrivenFuture<List<Integer>> sorted = new DataDrivenFuture<>();
        finish(() -> {
            asyncAwait(sorted, () -> out.printf("sorted %d numbers: first %d, last %d%n", sorted.get().size(),
                    sorted.get().get(0), sorted.get().get(size - 1)));
            quicksort(input, sorted);
        });
        List<Integer> expected = new ArrayList<>(input);
        expected.sort(null);
        out.println(expected.equals(sorted.get()) ? "result is sorted" : "RESULT IS NOT SORTED");
    }

    public static void main(String[] args) {
        new Quicksort().run(System.out);
    }
}

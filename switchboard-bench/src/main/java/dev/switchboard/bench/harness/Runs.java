package dev.switchboard.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of several runs of the harness (each in its own JVM, {@code --runs N}), merged per benchmark: for
 * each side the median of each run, for each peer side the ratio of each run with its median and spread over the
 * runs, and per peer side the geometric mean of each run's ratios with its median and spread. A spread over runs
 * is what shows how far one run's figure can be trusted on a noisy machine.
 */
final class Runs {
    /** Values over runs, one per run in run order, with their median, minimum and maximum. */
    record Spread(double median, double min, double max, double[] perRun) {
        static Spread of(double[] perRun) {
            double[] sorted = perRun.clone();
            Arrays.sort(sorted);
            return new Spread(Stats.median(sorted), sorted[0], sorted[sorted.length - 1], perRun.clone());
        }
    }

    /**
     * One benchmark over the runs.
     *
     * @param medians      per side (Switchboard's too), the medians of the runs: {@link Stats#samplesMs()} has one
     *                     per run, {@link Stats#medianMs()} is their median; empty unless verified
     * @param ratios       per peer side, the ratio of each run; empty unless verified
     * @param threadsAdded per side, the most threads one measured run added, over all runs (pool benchmarks)
     * @param series       what the last run's last measured Switchboard run recorded over time (mostly empty)
     * @param failure      the first run's failure, naming the run; null when verified in every run
     */
    record Row(String name, String description, Map<String, Object> params, Benchmark.Peer peer, Side headline,
               Map<Side, Stats> medians, Map<Side, Spread> ratios, Map<Side, Integer> threadsAdded,
               List<Series> series, boolean verified, String failure) {
        /** The headline's ratio over the runs. */
        Spread ratio() {
            return ratios.get(headline);
        }
    }

    private final List<List<Result>> runs;
    private final List<Row> rows = new ArrayList<>();
    private final Map<Side, Spread> geometricMeans = new EnumMap<>(Side.class);

    /**
     * Merges {@code runs}, each the results of one run in the same order of the same benchmarks.
     *
     * @throws IllegalArgumentException if there are no runs, or a run's benchmarks differ from the first's
     */
    Runs(List<List<Result>> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to merge");
        }
        this.runs = List.copyOf(runs);
        List<Result> first = runs.get(0);
        for (int i = 1; i < runs.size(); i++) {
            List<String> names = runs.get(i).stream().map(Result::name).toList();
            if (!names.equals(first.stream().map(Result::name).toList())) {
                throw new IllegalArgumentException("run " + (i + 1) + " has benchmarks " + names + ", run 1 has "
                        + first.stream().map(Result::name).toList());
            }
        }
        for (int b = 0; b < first.size(); b++) {
            rows.add(row(b));
        }
        for (Side side : TableReport.peerSides(first)) {
            List<Double> means = new ArrayList<>();
            for (List<Result> run : runs) {
                double mean = GeometricMean.of(run, side);
                if (!Double.isNaN(mean)) {
                    means.add(mean);
                }
            }
            if (!means.isEmpty()) {
                geometricMeans.put(side, Spread.of(means.stream().mapToDouble(Double::doubleValue).toArray()));
            }
        }
    }

    private Row row(int b) {
        Result first = runs.get(0).get(b);
        String failure = null;
        Map<Side, Integer> threads = new EnumMap<>(Side.class);
        for (int i = 0; i < runs.size(); i++) {
            Result r = runs.get(i).get(b);
            if (!r.verified() && failure == null) {
                failure = "run " + (i + 1) + ": " + r.failure();
            }
            r.threadsAdded().forEach((side, n) -> threads.merge(side, n, Math::max));
        }
        Map<Side, Stats> medians = new LinkedHashMap<>();
        Map<Side, Spread> ratios = new LinkedHashMap<>();
        if (failure == null) {
            medians.put(Side.SWITCHBOARD, Stats.ofMs(perRun(b, r -> r.switchboard().medianMs())));
            for (Side side : first.peers().keySet()) {
                medians.put(side, Stats.ofMs(perRun(b, r -> r.peers().get(side).medianMs())));
                ratios.put(side, Spread.of(perRun(b, r -> r.ratio(side))));
            }
        }
        return new Row(first.name(), first.description(), first.params(), first.peer(), first.headline(),
                Collections.unmodifiableMap(medians), Collections.unmodifiableMap(ratios),
                Collections.unmodifiableMap(threads), runs.get(runs.size() - 1).get(b).series(), failure == null,
                failure);
    }

    private double[] perRun(int b, java.util.function.ToDoubleFunction<Result> value) {
        double[] v = new double[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            v[i] = value.applyAsDouble(runs.get(i).get(b));
        }
        return v;
    }

    /** How many runs were merged. */
    int count() {
        return runs.size();
    }

    /** The results of run {@code i} (from 0). */
    List<Result> run(int i) {
        return runs.get(i);
    }

    /** One row per benchmark, in the order of the runs. */
    List<Row> rows() {
        return Collections.unmodifiableList(rows);
    }

    /** Per peer side, the geometric mean of each run's verified ratios, over the runs. */
    Map<Side, Spread> geometricMeans() {
        return Collections.unmodifiableMap(geometricMeans);
    }

    /** Whether every benchmark was verified in every run. */
    boolean verified() {
        return rows.stream().allMatch(Row::verified);
    }
}

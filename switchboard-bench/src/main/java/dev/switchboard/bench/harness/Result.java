package dev.switchboard.bench.harness;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one benchmark in one run: the statistics of Switchboard's side and of each peer side it ran
 * against, which of those is the headline, and whether every iteration returned the expected checksum.
 *
 * @param peer        the kind of runtime the benchmark is compared with
 * @param headline    the peer side whose ratio is the benchmark's headline figure: {@link Side#PEKKO_DEFAULT}
 *                    when it ran, otherwise the only peer side
 * @param switchboard Switchboard's wall times; null when the benchmark failed
 * @param peers       each peer side's wall times, in {@link Side} order; empty when the benchmark failed
 * @param threadsAdded for benchmarks whose peer is the {@link Benchmark.Peer#FORK_JOIN_POOL pool}: per side
 *                    (Switchboard's too), the most threads one measured run added ({@link ThreadPeak}); empty
 *                    for the others
 * @param series      what the last measured Switchboard run recorded over time ({@link
 *                    Benchmark#lastRunSeries()}); empty for most benchmarks
 * @param failure     what went wrong, or null when {@code verified}
 */
public record Result(String name, String description, Map<String, Object> params, Benchmark.Peer peer,
                     Side headline, int iterations, Stats switchboard, Map<Side, Stats> peers,
                     Map<Side, Integer> threadsAdded, List<Series> series, boolean verified,
                     String failure) {
    public Result {
        peers = ordered(peers);
        threadsAdded = ordered(threadsAdded);
        series = List.copyOf(series);
    }

    /** A benchmark that failed: no statistics, the failure's message. */
    static Result failed(Benchmark b, Side headline, String failure) {
        return new Result(b.name(), b.description(), b.params(), b.peer(), headline, 0, null, Map.of(), Map.of(),
                List.of(), false, failure);
    }

    private static <V> Map<Side, V> ordered(Map<Side, V> map) {
        EnumMap<Side, V> ordered = new EnumMap<>(Side.class);
        ordered.putAll(map);
        return Collections.unmodifiableMap(ordered);
    }

    /** The headline ratio, {@link #ratio(Side) ratio(headline)}. */
    public double ratio() {
        return ratio(headline);
    }

    /** {@code peer_median / switchboard_median} for one peer side: above 1 means Switchboard is faster. */
    public double ratio(Side side) {
        Stats s = peers.get(side);
        if (s == null || switchboard == null) {
            throw new IllegalArgumentException(name + " has no measurements on " + side.label());
        }
        return s.medianMs() / switchboard.medianMs();
    }
}

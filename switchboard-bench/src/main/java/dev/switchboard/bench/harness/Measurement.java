package dev.switchboard.bench.harness;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Owns the measuring of one benchmark on every side it runs on: the warm-up, the measured iterations in rotating
 * order, the checksums, the threads the pool benchmarks' runs added, and the recovery after a failure.
 */
final class Measurement {
    private static final int MAX_WARMUP = 200;
    private final Options options;
    private final PrintStream out;

    Measurement(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** The sides {@code b} runs on, Switchboard first: the Pekko configurations asked for, or the pool. */
    private List<Side> sides(Benchmark b) {
        List<Side> sides = new ArrayList<>();
        sides.add(Side.SWITCHBOARD);
        if (b.peer() == Benchmark.Peer.FORK_JOIN_POOL) {
            sides.add(Side.FORK_JOIN_POOL);
        } else {
            sides.addAll(options.peerConfigs);
        }
        return sides;
    }

    private Side headline(Benchmark b) {
        return b.peer() == Benchmark.Peer.FORK_JOIN_POOL ? Side.FORK_JOIN_POOL : options.headline();
    }

    Result measure(Benchmark b, int index, int total, Runtimes runtimes) {
        List<Side> sides = sides(b);
        long[][] nanos = new long[sides.size()][options.iterations];
        boolean countThreads = b.peer() == Benchmark.Peer.FORK_JOIN_POOL;
        int[] mostAdded = new int[sides.size()];
        String failure = null;
        Progress progress = new Progress(out, index, total, b.name(), options.iterations, sides);
        try {
            // Warm up every side: at least the requested number of rounds and at least warmupSeconds, so short
            // benchmarks get enough runs for the JIT to settle.
            long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos((long) (options.warmupSeconds * 1000));
            long[] round = new long[sides.size()];
            for (int i = 0; i < MAX_WARMUP && (i < options.warmup || System.nanoTime() < warmupEnd); i++) {
                round(b, i, sides, runtimes, round, null);
                progress.update(i + 1, true, round);
            }
            int[] added = countThreads ? new int[sides.size()] : null;
            for (int i = 0; i < options.iterations; i++) {
                round(b, i, sides, runtimes, round, added);
                for (int s = 0; s < sides.size(); s++) {
                    nanos[s][i] = round[s];
                    if (added != null) {
                        mostAdded[s] = Math.max(mostAdded[s], added[s]);
                    }
                }
                progress.update(i + 1, false, round);
            }
            runtimes.requireNoneSpinning();     // else every figure above was measured beside a spinning thread
        } catch (Throwable t) {
            failure = t.toString();
        }
        try {
            b.close();                      // a remote benchmark ends its child JVMs here
        } catch (Throwable t) {
            if (failure == null) {
                failure = "closing it failed: " + t;
            }
        }
        progress.done();
        System.gc();
        if (failure != null) {
            out.printf("  %s FAILED: %s%n", b.name(), failure);
            try {
                List<String> replaced = runtimes.recover(Quiescence.LIMIT_NANOS);
                if (!replaced.isEmpty()) {
                    out.printf("  (%s left stuck by it: terminated and replaced by a new one for the benchmarks"
                            + " after it)%n", String.join(" and ", replaced));
                }
            } catch (RuntimeException stuck) {
                out.printf("  (and it left a runtime stuck, which the benchmarks after it will meet: %s)%n", stuck);
            }
            return Result.failed(b, headline(b), failure);
        }
        Map<Side, Stats> peers = new EnumMap<>(Side.class);
        Map<Side, Integer> threadsAdded = new EnumMap<>(Side.class);
        for (int s = 0; s < sides.size(); s++) {
            if (s > 0) {
                peers.put(sides.get(s), Stats.of(nanos[s]));
            }
            if (countThreads) {
                threadsAdded.put(sides.get(s), mostAdded[s]);
            }
        }
        return new Result(b.name(), b.description(), b.params(), b.peer(), headline(b), options.iterations,
                Stats.of(nanos[0]), peers, threadsAdded, b.lastRunSeries(), true, null);
    }

    /**
     * One run on every side. Round {@code i} starts with side {@code i mod n} and goes round the list, so over
     * the iterations every side runs first, in the middle and last equally often. Puts the wall times into
     * {@code nanos} and, unless it is null, the threads each run added into {@code added}, both in the order of
     * {@code sides}.
     */
    private static void round(Benchmark b, int i, List<Side> sides, Runtimes runtimes, long[] nanos, int[] added)
            throws Exception {
        int n = sides.size();
        for (int k = 0; k < n; k++) {
            int s = (i + k) % n;
            ThreadPeak peak = added != null ? ThreadPeak.start() : null;
            nanos[s] = time(b, sides.get(s), runtimes);
            if (peak != null) {
                added[s] = peak.added();
            }
        }
    }

    /** Runs {@code b} once on {@code side}, checks its checksum and returns its wall time. */
    private static long time(Benchmark b, Side side, Runtimes runtimes) throws Exception {
        long t0 = System.nanoTime();
        long checksum = runtimes.run(b, side);
        long t = System.nanoTime() - t0;
        if (checksum != b.expected()) {
            throw new IllegalStateException(b.name() + " on " + side.label() + " returned checksum " + checksum
                    + ", expected " + b.expected());
        }
        runtimes.awaitQuiescence();        // untimed: nothing of this run may bleed into the next
        return t;
    }
}

package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.router.RouterPool;
import java.util.List;

/** The router benchmarks (see {@link RouterPool}), in report order (see {@link Suite}). */
final class RouterBenchmarks {
    private RouterBenchmarks() {
    }

    /** A pool of 8: round-robin against Pekko's RoundRobinPool, smallest mailbox against its BalancingPool. */
    static List<Benchmark> all() {
        return List.of(new RouterPool(RouterPool.Kind.ROUND_ROBIN), new RouterPool(RouterPool.Kind.BALANCING));
    }
}

package dev.switchboard.bench;

import dev.switchboard.bench.adderjoin.AdderJoin;
import dev.switchboard.bench.filterbank.FilterBank;
import dev.switchboard.bench.harness.Benchmark;
import java.util.List;

/** The selector benchmarks of this group, in report order (see {@link Suite}). */
final class JoinBenchmarks {
    private JoinBenchmarks() {
    }

    static List<Benchmark> all() {
        return List.of(
                new FilterBank(false),
                new FilterBank(true),
                new AdderJoin(4, false),
                new AdderJoin(8, false),
                new AdderJoin(12, false),
                new AdderJoin(36, false),
                new AdderJoin(8, true));
    }
}

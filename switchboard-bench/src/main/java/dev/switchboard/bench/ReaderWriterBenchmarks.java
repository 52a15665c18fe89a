package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import java.util.List;

/** The selector benchmarks of this group, in report order (see {@link Suite}). */
final class ReaderWriterBenchmarks {
    private ReaderWriterBenchmarks() {
    }

    static List<Benchmark> all() {
        return List.of();
    }
}

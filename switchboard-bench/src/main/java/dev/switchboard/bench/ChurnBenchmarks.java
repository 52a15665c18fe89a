package dev.switchboard.bench;

import dev.switchboard.bench.churn.Churn;
import dev.switchboard.bench.harness.Benchmark;
import java.util.List;

/** The churn benchmarks (see {@link Churn}), in report order (see {@link Suite}). */
final class ChurnBenchmarks {
    private ChurnBenchmarks() {
    }

    /** 200,000 short-lived actors, then 200,000 short-lived 11-mailbox selectors, 3 messages each. */
    static List<Benchmark> all() {
        return List.of(new Churn(Churn.Kind.ACTOR), new Churn(Churn.Kind.SELECTOR));
    }
}

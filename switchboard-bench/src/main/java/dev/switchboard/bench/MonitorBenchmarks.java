package dev.switchboard.bench;

import dev.switchboard.bench.flock.Flock;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.monitordict.MonitorDictionary;
import dev.switchboard.bench.monitordict.MonitorDictionary.Variant;
import java.util.ArrayList;
import java.util.List;

/**
 * The parallel-actor-monitor benchmarks ([PAM] §7, §8.1): the association-list dictionary at 32K and 150K
 * entries, reads only and a read-mostly mix, with the Switchboard dictionary run as a plain actor, under a mutex
 * monitor and under a readers-writer monitor, against Pekko's serial actor and coordinator + replicas; and the
 * couples flock, serial and with a readers-writer monitor.
 */
final class MonitorBenchmarks {
    /** Reads per run: 40 of the paper's rounds of 100 reads. */
    static final int OPERATIONS = 4_000;

    private MonitorBenchmarks() {
    }

    static List<Benchmark> all() {
        List<Benchmark> all = new ArrayList<>();
        for (int size : new int[] {32_000, 150_000}) {
            for (Variant v : Variant.values()) {
                all.add(new MonitorDictionary(size, OPERATIONS, 0, v, false));
            }
            all.add(new MonitorDictionary(size, OPERATIONS, 0, Variant.READERS_WRITER, true));
        }
        all.add(new MonitorDictionary(150_000, OPERATIONS, 5, Variant.READERS_WRITER, false));
        all.add(new MonitorDictionary(150_000, OPERATIONS, 5, Variant.READERS_WRITER, true));
        all.add(new Flock(300, 200, 4_000, false));
        all.add(new Flock(300, 200, 4_000, true));
        return all;
    }

    /**
     * For {@code --compare} only: the read-mostly mix as a plain actor and under a mutex monitor, the baselines of
     * {@code DictMix150K-ReadersWriter}.
     */
    static List<Benchmark> compareVariants() {
        return List.of(new MonitorDictionary(150_000, OPERATIONS, 5, Variant.ACTOR, false),
                new MonitorDictionary(150_000, OPERATIONS, 5, Variant.MUTEX, false));
    }
}

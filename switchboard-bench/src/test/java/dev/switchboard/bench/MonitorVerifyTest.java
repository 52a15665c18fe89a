package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.flock.Flock;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.monitordict.MonitorDictionary;
import dev.switchboard.bench.monitordict.MonitorDictionary.Variant;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The parallel-actor-monitor benchmarks ([PAM] §7, §8.1), at small sizes, on both sides. */
class MonitorVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.concat(
                Arrays.stream(Variant.values()).flatMap(v -> Stream.of(
                        new MonitorDictionary(2_000, 300, 0, v, false),
                        new MonitorDictionary(2_000, 300, 0, v, true),
                        new MonitorDictionary(1_500, 300, 20, v, false),     // writes between the reads
                        new MonitorDictionary(1_500, 300, 20, v, true))),
                Stream.of(new Flock(40, 30, 64, false), new Flock(40, 30, 64, true)));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasTheDictionaryVariantsAndTheFlock() {
        assertThat(MonitorBenchmarks.all()).extracting(Benchmark::name).containsExactly(
                "DictRead32K-Actor", "DictRead32K-Mutex", "DictRead32K-ReadersWriter",
                "DictRead32K-ReadersWriter-vsReplicas",
                "DictRead150K-Actor", "DictRead150K-Mutex", "DictRead150K-ReadersWriter",
                "DictRead150K-ReadersWriter-vsReplicas",
                "DictMix150K-ReadersWriter", "DictMix150K-ReadersWriter-vsReplicas",
                "FlockCouples-Serial", "FlockCouples-ReadersWriter");
    }
}

package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.concdict.ConcurrentDictionary;
import dev.switchboard.bench.concsll.SortedLinkedList;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reader-writer benchmarks ([Selectors] §6), every policy, at small sizes, compute the expected checksum on
 * both sides, several times in a row in one runtime. Not a timing test.
 */
class ReaderWriterVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Arrays.stream(Policy.values()).flatMap(policy -> Stream.of(
                new ConcurrentDictionary(policy, 6, 2_000, 10, 64),
                new ConcurrentDictionary(policy, 4, 1_000, 50, 16),     // many writes waiting for readers
                new SortedLinkedList(policy, 6, 400, 10, 1),
                new SortedLinkedList(policy, 4, 400, 40, 5)));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasEveryPolicyOfBothStructures() {
        assertThat(ReaderWriterBenchmarks.all()).extracting(Benchmark::name).containsExactly(
                "ConcurrentDictionaryAO", "ConcurrentDictionaryRF", "ConcurrentDictionaryWF",
                "SortedLinkedListAO", "SortedLinkedListRF", "SortedLinkedListWF");
    }
}

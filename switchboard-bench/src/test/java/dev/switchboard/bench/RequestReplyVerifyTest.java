package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.banktransaction.BankTransaction;
import dev.switchboard.bench.boundedbuffer.BoundedBufferDeclarative;
import dev.switchboard.bench.boundedbuffer.BoundedBufferImperative;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.logisticmap.LogisticMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The request-reply and bounded-buffer selector benchmarks, at small sizes, compute the expected checksum on both
 * sides, several times in a row in one runtime (as the harness runs them). Not a timing test.
 */
class RequestReplyVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new LogisticMap(200, 4),
                new BankTransaction(50, 2_000),
                new BankTransaction(10, 500),                      // few accounts: long chains of waits
                new BoundedBufferImperative(8, 6, 5, 200, 2, 2),
                new BoundedBufferDeclarative(8, 6, 5, 200, 2, 2),
                // a buffer smaller than the producers: the adjusted size is 1, so producers wait all the time
                new BoundedBufferImperative(4, 6, 9, 100, 0, 3),
                new BoundedBufferDeclarative(4, 6, 9, 100, 0, 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasItsFourBenchmarksWithTheirStatedParameters() {
        assertThat(RequestReplyBenchmarks.all()).extracting(Benchmark::name).containsExactly("LogisticMap",
                "BankTransaction", "BoundedBufferImperative", "BoundedBufferDeclarative");
        // Savina's defaults except where scaled (LogisticMap: 2,500 terms; BoundedBuffer: 5,000 items per producer)
        assertThat(new LogisticMap().params()).containsEntry("terms", 2_500).containsEntry("series", 10)
                .containsEntry("start_rate", 3.46).containsEntry("increment", 0.0025);
        assertThat(new BankTransaction().params()).containsEntry("accounts", 1_000)
                .containsEntry("transactions", 50_000);
        assertThat(new BoundedBufferImperative().params()).isEqualTo(new BoundedBufferDeclarative().params())
                .containsEntry("buffer_size", 50).containsEntry("producers", 40).containsEntry("consumers", 40)
                .containsEntry("items_per_producer", 5_000).containsEntry("produce_cost", 25)
                .containsEntry("consume_cost", 25);
    }

    @Test
    void checksumsCoverTheResults() {
        // series 0 starts at 0 and stays there; the others are chaotic, so their final terms differ
        assertThat(new LogisticMap(200, 4).expected()).isNotEqualTo(new LogisticMap(201, 4).expected());
        assertThat(new BankTransaction(50, 2_000).expected()).isNotEqualTo(new BankTransaction(50, 2_001).expected());
        assertThat(new BoundedBufferImperative(8, 6, 5, 200, 2, 2).expected())
                .isNotEqualTo(new BoundedBufferImperative(8, 6, 5, 200, 3, 2).expected());
    }
}

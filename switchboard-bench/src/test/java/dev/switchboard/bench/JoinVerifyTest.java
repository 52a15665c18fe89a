package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.adderjoin.AdderJoin;
import dev.switchboard.bench.filterbank.FilterBank;
import dev.switchboard.bench.harness.Benchmark;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The join-pattern benchmarks ([Selectors] §4), at small sizes, compute the expected checksum on both sides,
 * several times in a row in one runtime (as the harness runs them). Not a timing test.
 */
class JoinVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new FilterBank(3_000, 8, 16, false),
                new FilterBank(3_000, 8, 16, true),
                new FilterBank(500, 3, 8, true),
                new AdderJoin(4, 5_000, false),
                new AdderJoin(8, 5_000, false),
                new AdderJoin(12, 3_000, false),
                new AdderJoin(36, 1_000, false),
                new AdderJoin(8, 5_000, true),
                new AdderJoin(36, 1_000, true),
                new AdderJoin(1, 1_000, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasBothFilterBankJoinsAndTheAdderJoinSizesOfFig13() {
        assertThat(JoinBenchmarks.all()).extracting(Benchmark::name).containsExactly("FilterBankAnyOrder",
                "FilterBankRoundRobin", "AdderJoin4", "AdderJoin8", "AdderJoin12", "AdderJoin36", "AdderJoinRR8");
        assertThat(new FilterBank().params()).containsEntry("channels", 8).containsEntry("simulations", 4 * 34_816);
        for (int k : new int[] {4, 8, 12, 36}) {
            assertThat(new AdderJoin(k, false).params()).containsEntry("numbers", (long) AdderJoin.DEFAULT_NUMBERS);
        }
    }

    @Test
    void filterBankRejectsSizesWhoseSumsWouldBeInexact() {
        assertThatThrownBy(() -> new FilterBank(100_000, 8, 1_024, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^53");
    }
}

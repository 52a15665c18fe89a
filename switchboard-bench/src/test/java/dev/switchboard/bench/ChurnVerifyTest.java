package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.churn.Churn;
import dev.switchboard.bench.churn.Churn.Kind;
import dev.switchboard.bench.harness.Benchmark;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The churn benchmarks, at small sizes, compute the expected checksum on both sides, several times in a row in
 * one runtime. Not a timing test.
 */
class ChurnVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new Churn(1, 100, 1, Kind.ACTOR),
                new Churn(4, 2_000, 3, Kind.ACTOR),
                new Churn(4, 2_000, 3, Kind.SELECTOR),
                new Churn(3, 500, Churn.SELECTOR_MAILBOXES, Kind.SELECTOR));   // every mailbox used
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasTheActorAndTheSelectorChurn() {
        assertThat(ChurnBenchmarks.all()).extracting(Benchmark::name).containsExactly("ActorChurn", "SelectorChurn");
        assertThat(Suite.all()).extracting(Benchmark::name).contains("ActorChurn", "SelectorChurn");
    }

    @Test
    void badParametersAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new Churn(0, 10, 1, Kind.ACTOR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spawners 0");
        assertThatThrownBy(() -> new Churn(1, 10, 12, Kind.SELECTOR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("messages 12");
    }
}

package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.adderjoin.AdderJoin;
import dev.switchboard.bench.filterbank.FilterBank;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The join-pattern benchmarks (paper 000 §4), at small sizes, compute the expected checksum on both sides,
 * several times in a row in one runtime (as the harness runs them). Not a timing test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JoinVerifyTest {
    static TaskRuntime runtime;
    static ActorSystem system;

    @BeforeAll
    static void start() {
        runtime = TaskRuntime.create(2);
        system = ActorSystem.create("verify-join", PekkoSettings.config(2, TaskRuntime.DEFAULT_THROUGHPUT));
    }

    @AfterAll
    static void stop() {
        runtime.close();
        system.terminate();
    }

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
        for (int i = 0; i < 3; i++) {
            assertThat(b.runSwitchboard(runtime)).as("%s on Switchboard, run %d", b.name(), i).isEqualTo(b.expected());
            assertThat(b.runPekko(system)).as("%s on Pekko, run %d", b.name(), i).isEqualTo(b.expected());
        }
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

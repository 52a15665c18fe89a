package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.astar.AStar;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.nqueensk.NQueensFirstK;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The message-priority benchmarks ([Selectors] §5), at small sizes, compute the expected checksum on both sides,
 * several times in a row in one runtime. Not a timing test.
 */
class PriorityVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new NQueensFirstK(4, 8, 3, 50, 5),          // stops at the limit (board 8 has 92)
                new NQueensFirstK(4, 8, 3, 1_000, 5),       // runs out of work first: all 92
                new NQueensFirstK(3, 6, 6, 1_000, 10),      // every node is a message; board 6 has 4
                new AStar(4, 20, 64, 5),
                new AStar(6, 30, 16, 10));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasBothBenchmarks() {
        assertThat(PriorityBenchmarks.all()).extracting(Benchmark::name).containsExactly("NQueensFirstK", "AStar");
        assertThat(new NQueensFirstK().expected()).isEqualTo(40_000);
        assertThat(new AStar().params()).containsEntry("grid_size", 150).containsEntry("threshold", 1_024);
    }
}

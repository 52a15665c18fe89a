package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.router.RouterPool;
import dev.switchboard.bench.router.RouterPool.Kind;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The router benchmarks, at small sizes, compute the expected checksum on both sides (Switchboard's router pool,
 * Pekko's RoundRobinPool and BalancingPool), several times in a row in one runtime. Not a timing test.
 */
class RouterVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new RouterPool(Kind.ROUND_ROBIN, 1, 100, 10),
                new RouterPool(Kind.ROUND_ROBIN, 8, 5_000, 50),
                new RouterPool(Kind.BALANCING, 3, 5_000, 50),
                new RouterPool(Kind.BALANCING, 8, 5_000, 50));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasRoundRobinAndBalancing() {
        assertThat(RouterBenchmarks.all()).extracting(Benchmark::name)
                .containsExactly("RouterRoundRobin", "RouterBalancing");
        assertThat(Suite.all()).extracting(Benchmark::name).contains("RouterRoundRobin", "RouterBalancing");
    }
}

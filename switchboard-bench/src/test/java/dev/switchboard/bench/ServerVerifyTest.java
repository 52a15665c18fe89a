package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.hotserver.HotServer;
import dev.switchboard.bench.hotserver.HotServer.Cost;
import dev.switchboard.bench.hotserver.HotServer.Variant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hot-server benchmarks, at small sizes, compute the expected checksum on both sides, several times in a row
 * in one runtime. Not a timing test.
 */
class ServerVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new HotServer(1, 2_000, 10, Cost.INCREMENT, Variant.ACTOR),
                new HotServer(20, 4_000, 10, Cost.INCREMENT, Variant.ACTOR),
                new HotServer(4, 4_000, 10, Cost.MAP, Variant.ACTOR),
                new HotServer(20, 4_000, 10, Cost.MAP, Variant.READERS_WRITER),
                new HotServer(7, 4_000, 50, Cost.MAP, Variant.READERS_WRITER),    // many writes between the reads
                new HotServer(20, 2_000, 10, Cost.RENDER, Variant.ACTOR),
                new HotServer(20, 2_000, 10, Cost.RENDER, Variant.READERS_WRITER),
                new HotServer(1, 2_000, 10, Cost.INCREMENT, Variant.AWAIT_REPLY),
                new HotServer(20, 4_000, 10, Cost.MAP, Variant.AWAIT_REPLY),
                new HotServer(6, 3_000, 50, Cost.RENDER, Variant.AWAIT_REPLY));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasOneFourAndTwentyClientsTheReadersWriterServerTheRenderingServerAndAskingClients() {
        assertThat(ServerBenchmarks.all()).extracting(Benchmark::name).containsExactly(
                "HotServer1Map", "HotServer4Map", "HotServer20Map", "HotServer1Inc", "HotServer20Inc",
                "HotServer4Map-ReadersWriter", "HotServer20Map-ReadersWriter", "HotServer20Render",
                "HotServer20Render-ReadersWriter", "HotServer1Inc-AwaitReply", "HotServer20Inc-AwaitReply",
                "HotServer20Map-AwaitReply");
    }

    @Test
    void badParametersAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new HotServer(0, 10, 10, Cost.MAP, Variant.ACTOR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clients 0");
        assertThatThrownBy(() -> new HotServer(2, 10, 10, Cost.INCREMENT, Variant.READERS_WRITER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the MAP or RENDER cost");
    }
}

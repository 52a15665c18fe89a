package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.hotserver.HotServer;
import dev.switchboard.bench.hotserver.HotServer.Cost;
import dev.switchboard.bench.hotserver.HotServer.Variant;
import java.util.List;
import java.util.Set;
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

    /** Three cells of the request-reply grid, at their full size, and the server that builds its map at each run. */
    static Stream<Benchmark> gridCells() {
        return Stream.of(
                HotServer.grid(1_000, 4, 50, Variant.AWAIT_REPLY),
                HotServer.grid(100_000, 64, 0, Variant.ACTOR),
                HotServer.grid(1_000_000, 20, 10, Variant.ACTOR),
                HotServer.fresh(500_000, 20, 10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gridCells")
    void gridCellsComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGridHasEveryMapSizeClientCountWriteShareAndReplyStyleAndTheFreshServer() {
        List<String> names = ServerBenchmarks.grid().stream().map(Benchmark::name).toList();
        assertThat(names).hasSize(3 * 4 * 3 * 2 + 1).doesNotHaveDuplicates()
                .startsWith("Server1K-1c-0w", "Server1K-1c-0w-ReplyTo", "Server1K-1c-10w")
                .contains("Server100K-20c-10w", "Server1M-64c-50w-ReplyTo").endsWith("ServerFresh500K-20c-10w");
        assertThat(Suite.select(Set.of("servergrid"))).hasSize(names.size());
        assertThat(Suite.select(Set.of("server1m-4c-0w", "pingpong"))).extracting(Benchmark::name)
                .containsExactly("PingPong", "Server1M-4c-0w");
        assertThat(HotServer.fresh(500_000, 20, 10).params()).containsEntry("map_keys", 500_000)
                .containsEntry("fresh_map", true);
    }

    @Test
    void badParametersAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new HotServer(0, 10, 10, Cost.MAP, Variant.ACTOR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clients 0");
        assertThatThrownBy(() -> new HotServer(2, 10, 10, Cost.INCREMENT, Variant.READERS_WRITER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the MAP or RENDER cost");
    }
}

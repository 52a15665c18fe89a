package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.hotserver.HotServer;
import dev.switchboard.bench.hotserver.HotServer.Cost;
import dev.switchboard.bench.hotserver.HotServer.Variant;
import java.util.ArrayList;
import java.util.List;

/** The hot-server benchmarks (see {@link HotServer}), in report order (see {@link Suite}). */
final class ServerBenchmarks {
    private ServerBenchmarks() {
    }

    /**
     * One server and 1, 4 or 20 request-reply clients, 200,000 requests in all: a large-map lookup per request,
     * a field increment per request, and the map server under a readers-writer monitor; then 20 clients of a
     * server that also renders each reply (about 2 µs a request), plain and under the monitor, which shows where
     * running reads in parallel starts to pay; then the increment server with 1 and 20 clients and the map server
     * with 20, whose clients ask with {@code awaitReply} (Pekko's side as before).
     */
    static List<Benchmark> all() {
        return List.of(
                new HotServer(1, Cost.MAP, Variant.ACTOR),
                new HotServer(4, Cost.MAP, Variant.ACTOR),
                new HotServer(20, Cost.MAP, Variant.ACTOR),
                new HotServer(1, Cost.INCREMENT, Variant.ACTOR),
                new HotServer(20, Cost.INCREMENT, Variant.ACTOR),
                new HotServer(4, Cost.MAP, Variant.READERS_WRITER),
                new HotServer(20, Cost.MAP, Variant.READERS_WRITER),
                new HotServer(20, Cost.RENDER, Variant.ACTOR),
                new HotServer(20, Cost.RENDER, Variant.READERS_WRITER),
                new HotServer(1, Cost.INCREMENT, Variant.AWAIT_REPLY),
                new HotServer(20, Cost.INCREMENT, Variant.AWAIT_REPLY),
                new HotServer(20, Cost.MAP, Variant.AWAIT_REPLY));
    }

    /**
     * The request-reply grid: servers whose state is a map of 1,000, 100,000 or 1,000,000 entries (built once per
     * JVM), with 1, 4, 20 or 64 clients, 0, 10 or 50 % writes, the replies sent to the client's reference in the
     * request or to a {@code ReplyTo} (the clients asking with {@code awaitReply}); then one server that builds a
     * 500,000-entry map in its constructor at every run, with 20 clients and 10 % writes.
     */
    static List<Benchmark> grid() {
        List<Benchmark> grid = new ArrayList<>(HotServer.gridCells());
        grid.add(HotServer.fresh(500_000, 20, 10));
        return List.copyOf(grid);
    }
}

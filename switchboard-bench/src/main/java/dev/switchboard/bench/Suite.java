package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.big.Big;
import dev.switchboard.bench.chameneos.Chameneos;
import dev.switchboard.bench.counting.Counting;
import dev.switchboard.bench.fjcreation.ForkJoinCreation;
import dev.switchboard.bench.fjthroughput.ForkJoinThroughput;
import dev.switchboard.bench.pingpong.PingPong;
import dev.switchboard.bench.remote.RemotePingPong;
import dev.switchboard.bench.remote.RemoteThroughput;
import dev.switchboard.bench.threadring.ThreadRing;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Every benchmark of the harness, in report order. */
public final class Suite {
    private Suite() {
    }

    public static List<Benchmark> all() {
        List<Benchmark> all = new java.util.ArrayList<>(micro());
        all.add(PingPong.pairs(8));
        all.addAll(MailboxOverheadBenchmarks.all());
        all.addAll(RequestReplyBenchmarks.all());
        all.addAll(ServerBenchmarks.all());
        all.addAll(ChurnBenchmarks.all());
        all.addAll(RouterBenchmarks.all());
        all.addAll(JoinBenchmarks.all());
        all.addAll(PriorityBenchmarks.all());
        all.addAll(ReaderWriterBenchmarks.all());
        all.addAll(MonitorBenchmarks.all());
        all.addAll(TxListBenchmarks.all());
        all.addAll(TaskBenchmarks.all());
        return List.copyOf(all);
    }

    /** The seven Savina micro benchmarks of the foundation. */
    public static List<Benchmark> micro() {
        return List.of(
                new PingPong(),
                new ThreadRing(),
                new Counting(),
                new ForkJoinThroughput(),
                new ForkJoinCreation(),
                new Chameneos(),
                new Big());
    }

    /**
     * Benchmarks that run only when {@code --only} names them, not in the default run: the remote ones start a
     * second JVM per side (Switchboard's places against Pekko's Artery TCP, or both over mutual TLS) and keep them
     * for all of their runs.
     */
    public static List<Benchmark> optional() {
        return List.of(
                new RemoteThroughput(),
                new RemotePingPong(),
                RemoteThroughput.overTls(),
                RemotePingPong.overTls());
    }

    /** The name that stands for the whole {@link #serverGrid()} in {@code --only}. */
    public static final String SERVER_GRID = "ServerGrid";

    /**
     * The request-reply grid (map size x clients x writes x reply style, and a server that builds its map at every
     * run): run only when {@code --only} names them, one by one or all as {@value #SERVER_GRID}.
     */
    public static List<Benchmark> serverGrid() {
        return ServerBenchmarks.grid();
    }

    /**
     * Switchboard-only variants that {@code --compare} can name besides the benchmarks of {@link #all()}: they
     * take a measured difference apart and are not part of the main run.
     */
    public static List<Benchmark> compareVariants() {
        List<Benchmark> variants = new java.util.ArrayList<>(MailboxOverheadBenchmarks.compareVariants());
        variants.addAll(TxListBenchmarks.compareVariants());
        variants.addAll(MonitorBenchmarks.compareVariants());
        return variants;
    }

    /** The benchmark or comparison variant called {@code name} (case-insensitive). */
    public static Benchmark forCompare(String name) {
        List<Benchmark> known = new java.util.ArrayList<>(all());
        known.addAll(optional());
        known.addAll(serverGrid());
        known.addAll(compareVariants());
        return known.stream().filter(b -> b.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown benchmark " + name + " for --compare;"
                        + " known: " + known.stream().map(Benchmark::name).toList()));
    }

    /**
     * The benchmarks named in {@code only} (case-insensitive), of {@link #all()}, {@link #optional()} and
     * {@link #serverGrid()} ({@value #SERVER_GRID} names all of the grid), in report order; or those of
     * {@link #all()} if it is null.
     */
    public static List<Benchmark> select(Set<String> only) {
        if (only == null) {
            return all();
        }
        Set<String> names = new java.util.HashSet<>(only);
        if (names.remove(SERVER_GRID.toLowerCase(Locale.ROOT))) {
            serverGrid().forEach(b -> names.add(b.name().toLowerCase(Locale.ROOT)));
        }
        List<Benchmark> known = new java.util.ArrayList<>(all());
        known.addAll(optional());
        known.addAll(serverGrid());
        List<Benchmark> chosen = known.stream()
                .filter(b -> names.contains(b.name().toLowerCase(Locale.ROOT))).toList();
        if (chosen.size() != names.size()) {
            throw new IllegalArgumentException("unknown benchmark in " + only + "; known: "
                    + known.stream().map(Benchmark::name).toList());
        }
        return chosen;
    }
}

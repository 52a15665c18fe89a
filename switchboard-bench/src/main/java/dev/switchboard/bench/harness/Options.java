package dev.switchboard.bench.harness;

import dev.switchboard.bench.latency.ProbeLatency;
import dev.switchboard.task.TaskRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Owns the harness's command line: every option, declared once for picocli, which parses them and generates the one
 * usage text ({@link #usage()}); then the checks between options and the defaults that depend on others
 * ({@link #parse}).
 */
@Command(name = "./switchboard bench", sortOptions = false, abbreviateSynopsis = true, usageHelpWidth = 110,
        description = "Every benchmark on Switchboard and on its peer (Apache Pekko; the JDK's ForkJoinPool for the"
                + " task-parallel ones), side by side in one JVM; prints a table, optionally writes JSON and HTML.",
        footer = {"", "The launcher starts the harness in a JVM with -Xms2g -Xmx2g and the collector of --gc; the"
                + " report names the collector that ran."})
final class Options {
    /** Options only --probe-latency takes. */
    private static final Set<String> PROBE_OPTIONS = Set.of("--chains", "--chain-kind", "--probes",
            "--probe-warmup", "--probe-bound-ms", "--probe-source");
    /** Options of the benchmark runs that mean nothing to --probe-latency. */
    private static final Set<String> BENCHMARK_OPTIONS = Set.of("--quick", "--only", "--compare", "--html",
            "--iterations", "--warmup", "--warmup-seconds", "--list", "--peer-config", "--runs", "--pool-mode",
            "--compare-workers", "--idle-spin", "--scaling");
    /**
     * Options of the main run that mean nothing to --compare (it runs Switchboard only, names its own benchmarks
     * and reports a table and --json).
     */
    private static final Set<String> MAIN_RUN_OPTIONS = Set.of("--peer-config", "--runs", "--pool-mode", "--scaling",
            "--only", "--html");

    /** The arguments as given. */
    List<String> arguments = List.of();

    @Option(names = "--quick", order = 1, description = "fewer iterations (the whole suite in a few minutes)")
    boolean quick;

    Set<String> only;

    @Option(names = "--json", order = 3, paramLabel = "FILE", description = "write the results as JSON")
    Path json;

    @Option(names = "--html", order = 4, paramLabel = "DIR", description = "write an HTML report with charts into DIR")
    Path html;

    int workers = -1;
    int throughput = TaskRuntime.DEFAULT_THROUGHPUT;
    /** Switchboard's idle spin ({@code TaskRuntime.Builder.idleSpin}). */
    Duration idleSpin = Duration.ZERO;
    /** The Pekko configurations to run, in {@link Side} order: the first is the headline. */
    List<Side> peerConfigs = List.of(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
    /** Whether the ForkJoinPool peer runs in FIFO (async) mode instead of its default LIFO order. */
    boolean poolFifo;
    /** How many times to run the harness, each in its own JVM ({@link ChildRuns}). */
    int runs = 1;
    int iterations = -1;
    int warmup = -1;
    double warmupSeconds = -1;
    /** The collector asked for, checked against the one this JVM runs ({@link Collector}). */
    Collector.Choice gc = Collector.Choice.DEFAULT;

    @Option(names = "--list", order = 15, description = "list the benchmarks (and the variants for --compare) and exit")
    boolean list;

    /** Benchmarks to compare with the first, in order; null unless --compare. */
    List<String> compare;
    /** With --compare: the worker counts to run every benchmark on, one runtime each; null for --workers. */
    List<Integer> compareWorkers;
    /** The worker counts of the scaling mode ({@link Scaling}); null otherwise. */
    List<Integer> scaling;

    /** The probe-latency tool instead of the benchmarks ({@link ProbeLatency}). */
    @Option(names = "--probe-latency", order = 18,
            description = {"instead of the benchmarks: the latency of a probe message"
            + " while N actor chains keep the workers busy forever, one table row per N; takes --workers (default"
            + " 2), --throughput, --json and the options below"})
    boolean probeLatency;

    int[] chains = {0, 1, 2, 3, 4, 8, 16};
    ProbeLatency.ChainKind chainKind = ProbeLatency.ChainKind.PAIRS;
    ProbeLatency.ProbeSource probeSource = ProbeLatency.ProbeSource.OUTSIDE;
    int probes = 1000;
    int probeWarmup = 100;
    Duration probeBound = Duration.ofSeconds(2);

    @Option(names = {"-h", "--help"}, usageHelp = true, order = 99, description = "print this text and exit")
    boolean help;

    @Option(names = "--only", order = 2, paramLabel = "a,b", description = {"run only these benchmarks (names as in"
            + " --list, case-insensitive); the remote ones (RemoteThroughput, RemotePingPong and their Tls"
            + " variants: a second JVM per side) run only when named here"})
    void only(String v) {
        only = Set.of(v.toLowerCase(Locale.ROOT).split(","));
    }

    @Option(names = "--workers", order = 5, paramLabel = "N", description = "worker threads for every runtime (default:"
            + " available processors)")
    void workers(String v) {
        workers = positive(v, "--workers");
    }

    @Option(names = "--throughput", order = 6, paramLabel = "N", description = "Switchboard's budget: messages an actor"
            + " processes per turn (default 64); also the throughput of the matched Pekko configuration")
    void throughput(String v) {
        throughput = positive(v, "--throughput");
    }

    @Option(names = "--idle-spin", order = 7,
            paramLabel = "D", description = "how long Switchboard's idle workers spin for"
            + " work before they park, e.g. 50us or 1ms (TaskRuntime.Builder.idleSpin; default 0: they park)")
    void idleSpin(String v) {
        Matcher m = Pattern.compile("(\\d+)(us|ms)?").matcher(v.strip());
        if (!m.matches() || (m.group(2) == null && !m.group(1).equals("0"))) {
            throw bad("--idle-spin takes a duration such as 50us or 1ms, got '" + v + "'");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = "ms".equals(m.group(2)) ? Duration.ofMillis(n) : Duration.ofNanos(n * 1_000);
        if (d.compareTo(TaskRuntime.Builder.MAX_IDLE_SPIN) > 0) {
            throw bad("--idle-spin is at most " + TaskRuntime.Builder.MAX_IDLE_SPIN.toMillis() + "ms, got '" + v
                    + "'");
        }
        idleSpin = d;
    }

    @Option(names = "--peer-config", order = 8,
            paramLabel = "C", description = {"the Pekko configurations to run: default"
            + " (Pekko's default dispatcher settings, throughput 5: the headline), matched (throughput = the"
            + " Switchboard budget) or both (default); both run in this one JVM"})
    void peerConfig(String v) {
        peerConfigs = switch (v.toLowerCase(Locale.ROOT)) {
            case "default" -> List.of(Side.PEKKO_DEFAULT);
            case "matched" -> List.of(Side.PEKKO_MATCHED);
            case "both" -> List.of(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
            default -> throw bad("--peer-config takes default, matched or both, got '" + v + "'");
        };
    }

    @Option(names = "--pool-mode", order = 9,
            paramLabel = "M", description = {"the ForkJoinPool peer's local order: lifo (new"
            + " ForkJoinPool(n), what its users run: the headline) or fifo (asyncMode true, the order Switchboard's"
            + " pool runs in for fairness; shows what that order costs)"})
    void poolMode(String v) {
        poolFifo = switch (v.toLowerCase(Locale.ROOT)) {
            case "lifo" -> false;
            case "fifo" -> true;
            default -> throw bad("--pool-mode takes lifo or fifo, got '" + v + "'");
        };
    }

    @Option(names = "--gc", order = 10, paramLabel = "G", description = {"the garbage collector: default (the JVM's own"
            + " choice, the launcher's default), g1, parallel or zgc (generational); the launcher starts the JVM"
            + " with it (and --runs its children), the harness checks that it runs on it"})
    void gc(String v) {
        gc = Collector.Choice.parse(v);
    }

    @Option(names = "--runs", order = 11,
            paramLabel = "N", description = {"run the harness N times, each in its own JVM (same"
            + " flags), one after the other, and report the spread of every ratio over the runs (default 1); a"
            + " run whose JVM fails is named and tried once more, and left out if it fails again; with --scaling,"
            + " N runs per worker count"})
    void runs(String v) {
        runs = positive(v, "--runs");
    }

    @Option(names = "--iterations", order = 12,
            paramLabel = "N", description = "measured iterations per side (default 15,"
            + " quick 7; with --compare the rounds: 30, quick 15)")
    void iterations(String v) {
        iterations = positive(v, "--iterations");
    }

    @Option(names = "--warmup", order = 13,
            paramLabel = "N", description = "minimum warm-up iterations per side (default 5,"
            + " quick 3)")
    void warmup(String v) {
        warmup = nonNegative(v, "--warmup");
    }

    @Option(names = "--warmup-seconds", order = 14, paramLabel = "S", description = "minimum warm-up time per benchmark"
            + " (default 5, quick 2)")
    void warmupSeconds(String v) {
        try {
            warmupSeconds = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw bad("--warmup-seconds takes a number of seconds, got '" + v + "'");
        }
    }

    @Option(names = "--compare", order = 16,
            paramLabel = "a,b,...", description = {"compare Switchboard sides only: the listed"
            + " benchmarks interleaved in rounds, each relative to the first (e.g. an actor and its selector or"
            + " monitor variants); uses --iterations as rounds; also takes the variants --list shows for it"})
    void compare(String v) {
        compare = List.of(v.toLowerCase(Locale.ROOT).split(","));
    }

    @Option(names = "--compare-workers", order = 17,
            paramLabel = "1,2", description = {"with --compare: run every listed"
            + " benchmark on a runtime of each of these worker counts, all in this JVM, in the same rounds, and"
            + " relate each to the same benchmark on the first count (instead of --workers)"})
    void compareWorkers(String value) {
        compareWorkers = counts(value, "--compare-workers");
    }

    @Option(names = "--scaling", order = 17, paramLabel = "1,2,4", description = {"the scaling mode: run a set of"
            + " benchmarks (--only's, or by default PingPongPairs8, Big, HotServer20Map, DictRead150K-ReadersWriter,"
            + " TxList-Read-Dynamic-Tx, FibFuture and ParallelLoop) at each of these worker counts, every side with"
            + " that many workers, each count in JVMs of its own (--runs of them, the counts taking turns), and report"
            + " each side's time and speedup per count (table, --json, --html with a chart per benchmark)"})
    void scaling(String value) {
        scaling = counts(value, "--scaling");
    }

    @Option(names = "--chains", order = 19,
            paramLabel = "a,b,...", description = "--probe-latency: chain counts N (default"
            + " 0,1,2,3,4,8,16)")
    void chains(String v) {
        String[] parts = v.split(",", -1);
        int[] counts = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                counts[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                counts[i] = -1;
            }
            if (counts[i] < 0) {
                throw bad("--chains takes chain counts like 0,1,2,4 (whole numbers >= 0), got '" + v + "'");
            }
        }
        chains = counts;
    }

    @Option(names = "--chain-kind", order = 20,
            paramLabel = "K", description = {"--probe-latency: pairs (ping-pong pairs, no"
            + " work) or self (actors sending to themselves, ~20 us of CPU work per message); default pairs"})
    void chainKind(String v) {
        chainKind = ProbeLatency.ChainKind.parse(v);
    }

    @Option(names = "--probes", order = 21,
            paramLabel = "N", description = "--probe-latency: measured probes per N (default"
            + " 1000)")
    void probes(String v) {
        probes = positive(v, "--probes");
    }

    @Option(names = "--probe-warmup", order = 22,
            paramLabel = "N", description = "--probe-latency: unmeasured probes first"
            + " (default 100)")
    void probeWarmup(String v) {
        probeWarmup = nonNegative(v, "--probe-warmup");
    }

    @Option(names = "--probe-bound-ms", order = 23,
            paramLabel = "MS", description = {"--probe-latency: a probe not served"
            + " within MS counts as starved (default 2000); 3 starved in a row end that N"})
    void probeBound(String v) {
        probeBound = Duration.ofMillis(positive(v, "--probe-bound-ms"));
    }

    @Option(names = "--probe-source", order = 24,
            paramLabel = "S", description = {"--probe-latency: outside (the measuring"
            + " thread sends) or actor (a relay actor inside the runtime sends); default outside"})
    void probeSource(String v) {
        probeSource = ProbeLatency.ProbeSource.parse(v);
    }

    /**
     * Parses {@code args} into options with every default filled in.
     *
     * @throws IllegalArgumentException with a message for the user if {@code args} are not options of the harness
     */
    static Options parse(String[] args) {
        Options o = new Options();
        CommandLine commandLine = new CommandLine(o);
        CommandLine.ParseResult parsed;
        try {
            parsed = commandLine.parseArgs(args);
        } catch (CommandLine.PicocliException e) {
            throw new IllegalArgumentException(e.getCause() instanceof IllegalArgumentException cause
                    ? cause.getMessage() : e.getMessage(), e);
        }
        o.arguments = List.of(args);
        Set<String> given = new HashSet<>();
        parsed.matchedOptions().forEach(option -> given.add(option.longestName()));
        o.check(given);
        o.fillDefaults();
        return o;
    }

    /** The usage text, as picocli makes it from the options above. */
    static String usage() {
        return new CommandLine(new Options()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The peer side whose ratio is the headline: Pekko's defaults when they run. */
    Side headline() {
        return peerConfigs.get(0);
    }

    private void check(Set<String> given) {
        for (String a : given) {
            if (probeLatency && BENCHMARK_OPTIONS.contains(a)) {
                throw bad(a + " does not go with --probe-latency");
            }
            if (!probeLatency && PROBE_OPTIONS.contains(a)) {
                throw bad(a + " needs --probe-latency");
            }
            if (compare != null && MAIN_RUN_OPTIONS.contains(a)) {
                throw bad(a + " does not go with --compare");
            }
        }
        if (compareWorkers != null && compare == null) {
            throw bad("--compare-workers needs --compare");
        }
        if (compareWorkers != null && given.contains("--workers")) {
            throw bad("--compare-workers replaces --workers; give one of them");
        }
        if (scaling != null && given.contains("--workers")) {
            throw bad("--scaling replaces --workers; give one of them");
        }
    }

    private void fillDefaults() {
        if (workers < 0) {
            workers = probeLatency ? 2 : Runtime.getRuntime().availableProcessors();
        }
        if (iterations < 0) {
            iterations = compare != null ? (quick ? 15 : 30) : quick ? 7 : 15;
        }
        if (warmup < 0) {
            warmup = quick ? 3 : 5;
        }
        if (warmupSeconds < 0) {
            warmupSeconds = quick ? 2 : 5;
        }
    }

    /** A list of distinct worker counts, {@code 1,2,4}. */
    private static List<Integer> counts(String value, String option) {
        List<Integer> counts = new ArrayList<>();
        for (String v : value.split(",")) {
            int n = positive(v.trim(), option);
            if (counts.contains(n)) {
                throw bad(option + " lists " + n + " twice: " + value);
            }
            counts.add(n);
        }
        return List.copyOf(counts);
    }

    private static int positive(String v, String option) {
        int n = number(v, option);
        if (n < 1) {
            throw bad(option + " must be at least 1, got " + n);
        }
        return n;
    }

    private static int nonNegative(String v, String option) {
        int n = number(v, option);
        if (n < 0) {
            throw bad(option + " must be at least 0, got " + n);
        }
        return n;
    }

    private static int number(String v, String option) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw bad(option + " takes a whole number, got '" + v + "'");
        }
    }

    private static IllegalArgumentException bad(String message) {
        return new IllegalArgumentException(message);
    }
}

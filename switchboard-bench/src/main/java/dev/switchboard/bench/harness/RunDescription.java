package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Owns what a run says about itself: its settings in words (the HTML page), its configuration (the JSON report's
 * {@code config}), and the phrases of its first line, all from the {@link Options}.
 */
final class RunDescription {
    private final Options options;

    RunDescription(Options options) {
        this.options = options;
    }

    /** The settings of this run in words, for the HTML page. */
    Map<String, String> settings(Map<String, Object> machine, boolean pool) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("workers", options.workers + " per runtime");
        s.put("Switchboard", String.format(Locale.ROOT, "throughput budget %d messages per turn, handoff limit %d",
                options.throughput, TaskRuntime.DEFAULT_HANDOFF_LIMIT));
        List<String> pekko = new ArrayList<>();
        for (Side side : options.peerConfigs) {
            pekko.add(String.format(Locale.ROOT, "%s: Pekko's default dispatcher settings, throughput %d%s%s",
                    side.key(), pekkoThroughput(side), side == Side.PEKKO_MATCHED ? " (Switchboard's budget)" : "",
                    side == options.headline() ? " (the headline)" : ""));
        }
        s.put("Pekko " + pekkoVersion(), String.join("; ", pekko) + String.format(Locale.ROOT,
                "; fork-join executor with parallelism %d", options.workers));
        if (pool) {
            s.put("ForkJoinPool", poolConstruction(options) + ", for the task-parallel benchmarks");
        }
        s.put("iterations", String.format(Locale.ROOT, "%d measured per side after at least %d warm-up iterations"
                + " and %.0f s; each iteration runs every side once, in rotating order", options.iterations,
                options.warmup, options.warmupSeconds));
        s.put("runs", options.runs == 1 ? "1 (this JVM)"
                : options.runs + ", each in its own JVM, one after the other; figures are medians over the runs");
        s.put("collector", machine.get("collector") + " (the one this JVM ran, from its MX beans)");
        s.put("JVM", machine.get("java_vm") + " (Java " + machine.get("java_version") + "), flags: "
                + (String.valueOf(machine.get("jvm_args")).isBlank() ? "none" : machine.get("jvm_args")));
        s.put("machine", String.format(Locale.ROOT, "%s CPUs (%s), %s %s, max heap %s MB", machine.get("cpus"),
                machine.get("cpu_model"), machine.get("os"), machine.get("arch"), machine.get("max_heap_mb")));
        s.put("arguments", options.arguments.isEmpty() ? "none" : String.join(" ", options.arguments));
        return s;
    }

    /** The Pekko configurations of this run, for the first line: which is the headline, their throughput. */
    String describePekko() {
        List<String> parts = new ArrayList<>();
        for (Side side : options.peerConfigs) {
            parts.add(String.format(Locale.ROOT, "%s (throughput %d%s)", side.label(),
                    pekkoThroughput(side), side == options.headline() ? ", the headline" : ""));
        }
        return String.join(" and ", parts);
    }

    private int pekkoThroughput(Side side) {
        return PekkoSettings.throughput(PekkoSettings.of(side, options.workers, options.throughput));
    }

    /** ", idle spin 50 us" for a runtime whose idle workers spin, else nothing. */
    static String describeIdleSpin(Duration spin) {
        return spin.isZero() ? "" : String.format(Locale.ROOT, ", idle spin %d us", spin.toNanos() / 1_000);
    }

    Map<String, Object> configuration(List<Benchmark> benchmarks) {
        Map<String, Object> sb = new LinkedHashMap<>();
        sb.put("workers", options.workers);
        sb.put("throughput", options.throughput);
        sb.put("handoff_limit", TaskRuntime.DEFAULT_HANDOFF_LIMIT);
        sb.put("idle_spin_us", options.idleSpin.toNanos() / 1_000);
        sb.put("scheduler", "ForkJoinPool (FIFO mode) with a per-worker handoff slot");
        Map<String, Object> configs = new LinkedHashMap<>();
        for (Side side : options.peerConfigs) {
            Map<String, Object> pc = new LinkedHashMap<>();
            pc.put("dispatcher", "default-dispatcher, fork-join-executor");
            pc.put("parallelism", options.workers);
            pc.put("throughput", pekkoThroughput(side));
            pc.put("settings", side == Side.PEKKO_DEFAULT
                    ? "Pekko's defaults; parallelism-min = parallelism-max = workers"
                    : "Pekko's defaults; parallelism-min = parallelism-max = workers; throughput = Switchboard's"
                            + " budget");
            pc.put("headline", side == options.headline());
            configs.put(side.key(), pc);
        }
        Map<String, Object> pk = new LinkedHashMap<>();
        pk.put("version", pekkoVersion());
        pk.put("configs", configs);
        pk.put("actors", "classic AbstractActor with receiveBuilder(), Props.create(Class, Creator)");
        Map<String, Object> fj = new LinkedHashMap<>();
        fj.put("construction", poolConstruction(options));
        fj.put("mode", options.poolFifo ? "fifo" : "lifo");
        fj.put("parallelism", options.workers);
        fj.put("benchmarks", "those whose peer is the pool; the Pekko configurations do not apply to them");
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("switchboard", sb);
        c.put("pekko", pk);
        c.put("fork_join_pool", fj);
        c.put("peer_configs", options.peerConfigs.stream().map(Side::key).toList());
        c.put("headline", options.headline().key());
        c.put("warmup_iterations_min", options.warmup);
        c.put("warmup_seconds_min", options.warmupSeconds);
        c.put("measured_iterations", options.iterations);
        c.put("runs", options.runs);
        c.put("quick", options.quick);
        c.put("order", "rotating: every iteration runs each side once, starting one side further than the last");
        c.put("threads_added", "benchmarks whose peer is the pool: per side, the most over the measured iterations"
                + " of (peak live JVM platform threads during the run - live threads when it began)");
        c.put("benchmarks", benchmarks.stream().map(Benchmark::name).collect(Collectors.toList()));
        return c;
    }

    /** How the ForkJoinPool peer is made, in Java. */
    static String poolConstruction(Options options) {
        return options.poolFifo ? "new ForkJoinPool(" + options.workers + ", defaultForkJoinWorkerThreadFactory, null,"
                + " true) (FIFO mode)" : "new ForkJoinPool(" + options.workers + ")";
    }

    static String pekkoVersion() {
        try {
            return org.apache.pekko.Version.current();
        } catch (Throwable t) {
            return "unknown";
        }
    }
}

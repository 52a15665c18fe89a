package dev.switchboard.bench.latency;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The latency a <em>probe message</em> sees while N actor chains keep every worker busy forever ("endless
 * chains"): how long a message to an otherwise idle actor waits when the runtime never runs out of work.
 *
 * <h2>Method</h2>
 * One configuration ({@link #run}) creates a runtime with W workers and the given throughput budget. A
 * background thread runs a finish that starts the N chains and a probe actor, and stays open until the
 * measurement is over. A chain is either a pair of actors that send one message back and forth
 * ({@link ChainKind#PAIRS}, no work per message) or one actor that sends to itself and spins about 20 µs on
 * {@link System#nanoTime()} per message ({@link ChainKind#SELF}). The measuring thread waits until every chain
 * actor has processed a few messages (bounded; a chain that never got going is reported), then sends the probes
 * one at a time: it reads {@code System.nanoTime()}, sends a probe carrying that time and a sequence number,
 * either itself ({@link ProbeSource#OUTSIDE}: a thread that is not a worker) or through a relay actor inside
 * the runtime ({@link ProbeSource#ACTOR}), and waits for the probe actor's signal, at most the per-probe bound.
 * The probe actor stores receive time minus send time and signals. Between probes the thread pauses 0.5 to 1.5
 * ms (random), so probes do not queue behind each other. The first {@code warmup} probes are not recorded, and
 * {@link #table} runs one unreported configuration without chains before its first row.
 *
 * <p>A probe not served within the bound counts as <em>starved</em>; after {@value #STARVED_IN_A_ROW} starved
 * probes in a row the configuration is abandoned. A starved probe may still be delivered later: the probe actor
 * only records the probe the thread currently waits for, so a late one cannot corrupt a later measurement.
 *
 * <p>At the end a stop flag is set; every chain actor sees it at its next message, sends a stop to its partner
 * and exits; the probe actor (and relay) get a stop message. The finish waits for them with a timeout
 * ({@link #SHUTDOWN_BOUND}), so a scheduler that keeps the probe actor's last messages waiting cannot hang the
 * tool: the timeout is reported and the runtime is closed anyway.
 *
 * <p>Percentiles are nearest-rank over the sorted latencies of the served measured probes (every one is a
 * latency that occurred), in microseconds.
 *
 * <pre>
 * ./switchboard bench --probe-latency [--workers 2] [--chains 0,1,2,3,4,8,16] [--chain-kind pairs|self]
 *                     [--probes 1000] [--probe-source outside|actor] [--throughput 64]
 * </pre>
 */
public final class ProbeLatency {
    /** Consecutive probes not served within the bound after which a configuration is abandoned. */
    public static final int STARVED_IN_A_ROW = 3;
    /** How long the chains' finish may take to end once the stop flag is set. */
    public static final Duration SHUTDOWN_BOUND = Duration.ofSeconds(10);
    /** How long the measuring thread waits for every chain to be running before it sends the first probe. */
    static final Duration CHAINS_RUNNING_BOUND = Duration.ofSeconds(5);
    /** Messages every chain actor processes before it counts as running. */
    static final int RUNNING_AFTER = 16;
    /** CPU work per message of a {@link ChainKind#SELF} chain. */
    static final long SELF_WORK_NANOS = 20_000;
    static final long PAUSE_MIN_NANOS = 500_000;
    static final long PAUSE_MAX_NANOS = 1_500_000;

    /** What keeps the workers busy. */
    public enum ChainKind {
        /** Pairs of actors that send one message back and forth, no work per message. */
        PAIRS,
        /** Actors that send to themselves, about 20 µs of CPU work per message. */
        SELF;

        /** Parses {@code pairs} or {@code self}. */
        public static ChainKind parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "pairs" -> PAIRS;
                case "self" -> SELF;
                default -> throw new IllegalArgumentException("unknown chain kind '" + s + "' (pairs or self)");
            };
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Who sends the probe. */
    public enum ProbeSource {
        /** The measuring thread, which is not a worker. */
        OUTSIDE,
        /** A relay actor inside the runtime, to which the measuring thread sends. */
        ACTOR;

        /** Parses {@code outside} or {@code actor}. */
        public static ProbeSource parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "outside" -> OUTSIDE;
                case "actor" -> ACTOR;
                default -> throw new IllegalArgumentException("unknown probe source '" + s + "' (outside or actor)");
            };
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One configuration: W workers, N chains of a kind, the probes and their bound, the throughput budget. */
    public record Config(int workers, int chains, ChainKind kind, ProbeSource source, int probes, int warmup,
                         Duration bound, int throughput) {
        public Config {
            if (workers < 1 || chains < 0 || probes < 1 || warmup < 0 || throughput < 1) {
                throw new IllegalArgumentException("bad probe-latency configuration: " + workers + " workers, "
                        + chains + " chains, " + probes + " probes, " + warmup + " warm-up, throughput "
                        + throughput);
            }
            if (bound.isNegative() || bound.isZero()) {
                throw new IllegalArgumentException("the per-probe bound must be positive, got " + bound);
            }
        }

        /** 2 workers, pairs, probes from outside, 1000 probes after 100 warm-up, 2 s per probe, default budget. */
        public static Config defaults(int chains) {
            return new Config(2, chains, ChainKind.PAIRS, ProbeSource.OUTSIDE, 1000, 100, Duration.ofSeconds(2),
                    TaskRuntime.DEFAULT_THROUGHPUT);
        }
    }

    /**
     * The outcome of one configuration. {@code sent} counts every probe sent, warm-up included; it equals
     * {@code warmupServed + served + starved}, where {@code starved} counts the probes (warm-up or measured) not
     * served within the bound. Latencies are in microseconds, NaN when no measured probe was served;
     * {@code samplesUs} holds the served measured probes' latencies in ascending order. {@code problem} says what
     * went wrong beyond the figures (null if nothing): chains that never got going, a finish that did not end.
     */
    public record Result(Config config, int sent, int warmupServed, int served, int starved, boolean abandoned,
                         int chainsRunning, double medianUs, double p90Us, double p99Us, double maxUs,
                         double[] samplesUs, String problem) {
        public int chains() {
            return config.chains();
        }
    }

    // ------------------------------------------------------------------------------------------ messages

    sealed interface ChainMsg permits Ball, Stop {
    }

    sealed interface ProbeMsg permits Probe, Stop {
    }

    record Ball() implements ChainMsg {
    }

    record Stop() implements ChainMsg, ProbeMsg {
    }

    /** A probe: its sequence number, the sender's {@code System.nanoTime()} and the latch to count down. */
    record Probe(int seq, long sentAt, CountDownLatch served) implements ProbeMsg {
    }

    private static final Ball BALL = new Ball();
    private static final Stop STOP = new Stop();

    private ProbeLatency() {
    }

    // ------------------------------------------------------------------------------------------ running

    /**
     * Runs the configurations one after the other, printing a header and one row per configuration. First it
     * runs the first configuration without chains, unreported: in a fresh JVM the first row otherwise carries the
     * JVM's own warm-up (compiler threads share the cores), which doubled the median of a first N = 0 row.
     */
    public static List<Result> table(List<Config> configs, PrintStream out) {
        if (configs.isEmpty()) {
            return List.of();
        }
        Config first = configs.get(0);
        out.println(header(first));
        run(new Config(first.workers(), 0, first.kind(), first.source(), first.probes(), first.warmup(),
                first.bound(), first.throughput()));
        out.println(COLUMNS);
        List<Result> results = new ArrayList<>();
        for (Config c : configs) {
            Result r = run(c);
            results.add(r);
            out.println(row(r));
            out.flush();
        }
        return results;
    }

    /** Measures one configuration; never waits longer than the bounds (plus closing the runtime). */
    public static Result run(Config c) {
        int total = c.warmup() + c.probes();
        AtomicBoolean stop = new AtomicBoolean();
        int chainActors = c.kind() == ChainKind.PAIRS ? 2 * c.chains() : c.chains();
        CountDownLatch running = new CountDownLatch(chainActors);
        List<ChainActor> chains = new ArrayList<>(chainActors);
        for (int i = 0; i < c.chains(); i++) {
            if (c.kind() == ChainKind.PAIRS) {
                PairActor a = new PairActor(stop, running, true);
                PairActor b = new PairActor(stop, running, false);
                a.partner = b.ref();
                b.partner = a.ref();
                chains.add(a);
                chains.add(b);
            } else {
                chains.add(new SelfActor(stop, running));
            }
        }
        ProbeActor probe = new ProbeActor(total);
        RelayActor relay = c.source() == ProbeSource.ACTOR ? new RelayActor(probe.ref()) : null;
        ActorRef<ProbeMsg> target = relay != null ? relay.ref() : probe.ref();

        CountDownLatch bodyRan = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        AtomicReference<Throwable> finishFailure = new AtomicReference<>();
        List<String> problems = new ArrayList<>();

        int sent = 0;
        int warmupServed = 0;
        int starved = 0;
        int inARow = 0;
        boolean abandoned = false;
        long[] servedNanos = new long[c.probes()];
        int served = 0;
        int chainsRunning;
        try (TaskRuntime runtime = TaskRuntime.builder().name("probe-latency").workers(c.workers())
                .throughput(c.throughput()).build()) {
            Thread chainsThread = Thread.ofPlatform().daemon().name("probe-latency-chains").start(() -> {
                try {
                    runtime.finish(SHUTDOWN_BOUND, () -> {
                        probe.start();
                        if (relay != null) {
                            relay.start();
                        }
                        for (ChainActor a : chains) {
                            a.start();
                        }
                        bodyRan.countDown();
                        for (ChainActor a : chains) {
                            if (a.kicks()) {
                                a.ref().send(BALL);
                            }
                        }
                        awaitUninterruptibly(measured);     // the finish stays open while the probes run
                    });
                } catch (Throwable t) {
                    finishFailure.set(t);
                } finally {
                    bodyRan.countDown();
                }
            });
            try {
                await(bodyRan, SHUTDOWN_BOUND);
                await(running, CHAINS_RUNNING_BOUND);
                chainsRunning = chainsRunning(c, chains);
                if (chainsRunning < c.chains()) {
                    problems.add(chainsRunning + " of " + c.chains() + " chains running before the first probe");
                }
                long boundNanos = c.bound().toNanos();
                for (int seq = 0; seq < total; seq++) {
                    CountDownLatch done = new CountDownLatch(1);
                    probe.awaiting = seq;
                    long sentAt = System.nanoTime();
                    target.send(new Probe(seq, sentAt, done));
                    sent++;
                    if (await(done, boundNanos)) {
                        inARow = 0;
                        if (seq < c.warmup()) {
                            warmupServed++;
                        } else {
                            servedNanos[served++] = probe.latencies[seq];   // written before the count-down
                        }
                    } else {
                        starved++;
                        if (++inARow == STARVED_IN_A_ROW) {
                            abandoned = true;
                            break;
                        }
                    }
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(PAUSE_MIN_NANOS, PAUSE_MAX_NANOS));
                }
            } finally {
                stop.set(true);                          // the chains see it at their next message
                target.send(STOP);
                measured.countDown();
                joinUninterruptibly(chainsThread, SHUTDOWN_BOUND.plusSeconds(5));
                if (chainsThread.isAlive()) {
                    problems.add("the chains' finish thread did not end");
                }
            }
        }
        Throwable failure = finishFailure.get();
        if (failure != null) {
            problems.add("the chains' finish did not end cleanly: " + firstLine(failure));
        }
        long[] sorted = Arrays.copyOf(servedNanos, served);
        Arrays.sort(sorted);
        double[] us = new double[served];
        for (int i = 0; i < served; i++) {
            us[i] = sorted[i] / 1e3;
        }
        return new Result(c, sent, warmupServed, served, starved, abandoned, chainsRunning,
                percentile(us, 0.50), percentile(us, 0.90), percentile(us, 0.99), percentile(us, 1.0), us,
                problems.isEmpty() ? null : String.join("; ", problems));
    }

    /** Chains whose every actor processed {@value #RUNNING_AFTER} messages. */
    private static int chainsRunning(Config c, List<ChainActor> chains) {
        int perChain = c.kind() == ChainKind.PAIRS ? 2 : 1;
        int n = 0;
        for (int i = 0; i < chains.size(); i += perChain) {
            boolean all = true;
            for (int j = i; j < i + perChain; j++) {
                all &= chains.get(j).isRunning();
            }
            n += all ? 1 : 0;
        }
        return n;
    }

    /** Nearest rank: the smallest sample with at least {@code q} of the samples at or below it; NaN if none. */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    // ------------------------------------------------------------------------------------------ printing

    static final String COLUMNS = String.format("%6s  %6s  %7s  %9s  %9s  %9s  %9s", "chains", "served",
            "starved", "median_us", "p90_us", "p99_us", "max_us");

    /** The header line: workers, chain kind, probe source, budget, probes, bound, JDK. */
    public static String header(Config c) {
        return String.format(Locale.ROOT, "Probe latency under endless chains: W=%d workers, kind %s, source %s, "
                        + "throughput budget %d; %d probes after %d warm-up, bound %s per probe; JDK %s",
                c.workers(), c.kind().label(), c.source().label(), c.throughput(), c.probes(), c.warmup(),
                formatDuration(c.bound()), Runtime.version());
    }

    /** One table row, with a note after it when the configuration starved or something else went wrong. */
    public static String row(Result r) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%6d  %6d  %7d  %9s  %9s  %9s  %9s",
                r.chains(), r.served(), r.starved(), us(r.medianUs()), us(r.p90Us()), us(r.p99Us()),
                us(r.maxUs())));
        if (r.abandoned()) {
            sb.append("  STARVED: ").append(STARVED_IN_A_ROW).append(" probes in a row not served within ")
                    .append(formatDuration(r.config().bound())).append(", stopped after ").append(r.sent())
                    .append(" of ").append(r.config().warmup() + r.config().probes()).append(" probes");
        }
        if (r.problem() != null) {
            sb.append("  (").append(r.problem()).append(')');
        }
        return sb.toString();
    }

    private static String us(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String formatDuration(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    private static String firstLine(Throwable t) {
        String s = t.toString();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " ...";
    }

    // ------------------------------------------------------------------------------------------ waiting

    private static boolean await(CountDownLatch latch, Duration bound) {
        return await(latch, bound.toNanos());
    }

    /** Waits at most {@code nanos} for the latch, through interrupts (which it restores). */
    private static boolean await(CountDownLatch latch, long nanos) {
        long deadline = System.nanoTime() + nanos;
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void joinUninterruptibly(Thread t, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        boolean interrupted = false;
        while (t.isAlive() && deadline - System.nanoTime() > 0) {
            try {
                t.join(Duration.ofNanos(deadline - System.nanoTime()));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------------ actors

    /** A chain actor: counts itself running after {@value #RUNNING_AFTER} messages, stops on the flag. */
    abstract static class ChainActor extends Actor<ChainMsg> {
        final AtomicBoolean stop;
        private final CountDownLatch running;
        private int processed;
        private volatile boolean isRunning;

        ChainActor(AtomicBoolean stop, CountDownLatch running) {
            this.stop = stop;
            this.running = running;
        }

        /** Whether this actor gets the first ball (one per chain). */
        abstract boolean kicks();

        final void count() {
            if (++processed == RUNNING_AFTER) {
                isRunning = true;
                running.countDown();
            }
        }

        final boolean isRunning() {
            return isRunning;
        }

    }

    /** One side of a ping-pong pair: returns the ball at once, forever, until the stop flag is set. */
    static final class PairActor extends ChainActor {
        ActorRef<ChainMsg> partner;
        private final boolean first;

        PairActor(AtomicBoolean stop, CountDownLatch running, boolean first) {
            super(stop, running);
            this.first = first;
        }

        @Override
        boolean kicks() {
            return first;
        }

        @Override
        protected void process(ChainMsg msg) {
            switch (msg) {
                case Ball b -> {
                    count();
                    if (stop.get()) {
                        partner.send(STOP);
                        exit();
                    } else {
                        partner.send(b);
                    }
                }
                case Stop s -> exit();
            }
        }
    }

    /** An actor that sends to itself forever, spinning about 20 µs per message, until the stop flag is set. */
    static final class SelfActor extends ChainActor {
        SelfActor(AtomicBoolean stop, CountDownLatch running) {
            super(stop, running);
        }

        @Override
        boolean kicks() {
            return true;
        }

        @Override
        protected void process(ChainMsg msg) {
            switch (msg) {
                case Ball b -> {
                    count();
                    long end = System.nanoTime() + SELF_WORK_NANOS;
                    while (System.nanoTime() - end < 0) {
                        Thread.onSpinWait();
                    }
                    if (stop.get()) {
                        exit();
                    } else {
                        self().send(b);
                    }
                }
                case Stop s -> exit();
            }
        }
    }

    /** Records the latency of the probe the measuring thread waits for and signals it; ignores stale probes. */
    static final class ProbeActor extends Actor<ProbeMsg> {
        final long[] latencies;
        /** The sequence number the measuring thread waits for; earlier ones arrived after their bound. */
        volatile int awaiting = -1;

        ProbeActor(int probes) {
            this.latencies = new long[probes];
        }

        @Override
        protected void process(ProbeMsg msg) {
            switch (msg) {
                case Probe p -> {
                    long now = System.nanoTime();
                    if (p.seq() == awaiting) {
                        latencies[p.seq()] = now - p.sentAt();
                        p.served().countDown();
                    }
                }
                case Stop s -> exit();
            }
        }
    }

    /** Relays probes from the measuring thread, so that an actor inside the runtime sends them. */
    static final class RelayActor extends Actor<ProbeMsg> {
        private final ActorRef<ProbeMsg> probe;

        RelayActor(ActorRef<ProbeMsg> probe) {
            this.probe = probe;
        }

        @Override
        protected void process(ProbeMsg msg) {
            switch (msg) {
                case Probe p -> probe.send(p);
                case Stop s -> {
                    probe.send(s);
                    exit();
                }
            }
        }
    }
}

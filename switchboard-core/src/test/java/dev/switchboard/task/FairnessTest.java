package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fairness: a ready actor or task is started within a bounded number of turns of every busy worker, whatever other
 * actors do - including any number of actors that keep each other busy forever - on 1, 2 and 4 workers, for work
 * submitted from outside the pool, from actors and from tasks.
 *
 * <p>Each case starts endless <em>chains</em> in a finish on a background thread: ping-pong pairs bouncing one
 * message ({@link ChainKind#PAIRS}), or actors that send themselves one message after about 20 µs of work
 * ({@link ChainKind#SELF}), or data-driven tasks each putting the future the next awaits
 * ({@link ChainKind#DATA_DRIVEN}). Once every chain has gone {@value #GOING} messages or links, the test thread
 * submits a <em>probe</em> (a message, an async, an asyncAwait, directly or through an actor or a task running in
 * the runtime) in a finish of its own, which does not wait for the chains, and waits for it to run. Then it stops
 * the chains (each chain actor sees the stop flag on its next message, tells its partner and exits; a data-driven
 * chain adds no next link) and checks the counts.
 *
 * <p>The only time bound is how long a probe may wait ({@link #PATIENCE_SECONDS}, generous: served fairly, a probe
 * runs within milliseconds); nothing here asserts a latency. A starved case fails naming its scenario, stops its
 * chains and closes its runtime, so the next case starts clean. Each starved case waits the whole patience, so
 * once one case of this class has starved, the later ones wait {@link #PATIENCE_AFTER_STARVATION_SECONDS} only:
 * that keeps a run on a starving scheduler within the fork's time limit, and changes nothing while no case starves.
 *
 * <p>{@link #aBusyActorDoesNotStarveTheActorItFeeds} states the same guarantee in messages rather than in time.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FairnessTest {
    /** How long a probe (or the chains, to get going) may wait; {@code -Dswitchboard.fairness.patience=5} shortens it. */
    static final long PATIENCE_SECONDS = Long.getLong("switchboard.fairness.patience", 30);
    /** The patience of every case after one case of this class has starved. */
    static final long PATIENCE_AFTER_STARVATION_SECONDS = Math.min(PATIENCE_SECONDS, 5);
    /** Bound on a finish that should end at once (the probe's after it ran, the chains' after the stop). */
    static final Duration HANG_GUARD = Duration.ofSeconds(30);
    /** Messages every chain actor processes before the probe is submitted: the chains are running by then. */
    static final int GOING = 100;
    /** The work per message of a {@link ChainKind#SELF} chain. */
    static final long SELF_WORK_NANOS = 20_000;

    private static final AtomicBoolean STARVATION_SEEN = new AtomicBoolean();

    /**
     * PAIRS: ping-pong pairs of actors; SELF: actors that send themselves a message after some work; DATA_DRIVEN:
     * asyncAwait tasks, each of which puts the future the next one awaits (no actors).
     */
    enum ChainKind { PAIRS, SELF, DATA_DRIVEN }

    /**
     * The work that must still run while the chains go on. The probes sent or spawned from inside the runtime get
     * there in two steps: the test thread starts the relay actor or task, which then sends, spawns or puts; both
     * steps must be served.
     */
    enum Probe {
        /** The test thread (outside the pool) sends to a fresh actor. */
        OUTSIDE_MESSAGE,
        /** The test thread spawns an async. */
        OUTSIDE_ASYNC,
        /** The test thread puts the future an asyncAwait waits for. */
        OUTSIDE_AWAIT,
        /** The test thread sends to a relay actor (no chain), which sends to a fresh actor from inside the runtime. */
        ACTOR_MESSAGE,
        /** The test thread spawns a task, which sends to a fresh actor from inside the runtime. */
        TASK_MESSAGE,
        /** The test thread spawns a task, which spawns an async from inside the runtime. */
        TASK_ASYNC,
        /** The test thread spawns a task, which puts the future an asyncAwait waits for. */
        TASK_AWAIT
    }

    enum Msg { BALL, STOP, PING }

    // ------------------------------------------------------------------------------------------ the chains

    /** The endless chains of one case. */
    static final class Chains {
        final ChainKind kind;
        final int count;
        final List<Actor<Msg>> actors = new ArrayList<>();
        /** Counted down by each chain actor at its {@value #GOING}th message. */
        final CountDownLatch going;
        volatile boolean stop;

        Chains(ChainKind kind, int count) {
            this.kind = kind;
            this.count = count;
            int size = kind == ChainKind.PAIRS ? 2 * count : count;
            this.going = new CountDownLatch(size);
            for (int i = 0; kind != ChainKind.DATA_DRIVEN && i < count; i++) {
                if (kind == ChainKind.PAIRS) {
                    PairActor a = new PairActor(this);
                    PairActor b = new PairActor(this);
                    a.partner = b.ref();
                    b.partner = a.ref();
                    actors.add(a);
                    actors.add(b);
                } else {
                    actors.add(new SelfActor(this));
                }
            }
        }

        /** Starts every chain actor in the current finish and gives each chain its one message. */
        void start() {
            if (kind == ChainKind.DATA_DRIVEN) {
                for (int i = 0; i < count; i++) {
                    DataDrivenFuture<Long> first = new DataDrivenFuture<>();
                    link(first);
                    first.put(0L);
                }
                return;
            }
            List<ActorRef<Msg>> refs = actors.stream().map(Actor::start).toList();
            for (int i = 0; i < refs.size(); i += kind == ChainKind.PAIRS ? 2 : 1) {
                refs.get(i).send(Msg.BALL);
            }
        }

        /**
         * One link of a data-driven chain: a task that waits for {@code in}, then (unless the chains stop) adds the
         * next link, waiting for {@code out}, and puts {@code out}. The put is made by a task on a worker.
         */
        void link(DataDrivenFuture<Long> in) {
            DataDrivenFuture<Long> out = new DataDrivenFuture<>();
            TaskRuntime.current().asyncAwait(in, () -> {
                long seen = in.get() + 1;
                if (seen == GOING) {
                    going.countDown();
                }
                if (!stop) {
                    link(out);
                }
                out.put(seen);
            });
        }

        /** Chain members that must get going: the actors, or one per data-driven chain. */
        long members() {
            return kind == ChainKind.DATA_DRIVEN ? count : actors.size();
        }
    }

    /** Bounces the ball to its partner until the stop flag is set; then tells the partner to stop, and exits. */
    static final class PairActor extends Actor<Msg> {
        final Chains chains;
        ActorRef<Msg> partner;
        private long seen;

        PairActor(Chains chains) {
            this.chains = chains;
        }

        @Override
        protected void process(Msg m) {
            if (++seen == GOING) {
                chains.going.countDown();
            }
            if (m == Msg.STOP) {
                exit();
            } else if (chains.stop) {
                partner.send(Msg.STOP);
                exit();
            } else {
                partner.send(Msg.BALL);
            }
        }
    }

    /** Works about 20 µs per message and sends itself the next one, until the stop flag is set. */
    static final class SelfActor extends Actor<Msg> {
        final Chains chains;
        private long seen;

        SelfActor(Chains chains) {
            this.chains = chains;
        }

        @Override
        protected void process(Msg m) {
            if (++seen == GOING) {
                chains.going.countDown();
            }
            if (chains.stop) {
                exit();
            } else {
                spin(SELF_WORK_NANOS);
                self().send(Msg.BALL);
            }
        }
    }

    /** CPU work, not a sleep: the worker stays busy for {@code nanos}. */
    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    // ------------------------------------------------------------------------------------------ the probes

    /** The probe's actors and counters. */
    static final class ProbeState {
        final CountDownLatch served = new CountDownLatch(1);
        /** How often the probe's own work ran (an async or asyncAwait body, or the target actor's process). */
        final AtomicInteger runs = new AtomicInteger();
        /** How often the intermediate step ran (the relay actor, or the task that sends, spawns or puts). */
        final AtomicInteger hops = new AtomicInteger();
        final DataDrivenFuture<String> value = new DataDrivenFuture<>();
        volatile String valueSeen;
        final Target target = new Target(this);
        final Relay relay = new Relay();

        void serve() {
            runs.incrementAndGet();
            served.countDown();
        }

        void serveValue() {
            valueSeen = value.get();
            serve();
        }
    }

    /** The fresh actor a probe message goes to: it processes one message and exits. */
    static final class Target extends Actor<Msg> {
        final ProbeState state;

        Target(ProbeState state) {
            this.state = state;
        }

        @Override
        protected void process(Msg m) {
            state.serve();
            exit();
        }
    }

    /** An actor that is no chain: forwards one message to the target from inside the runtime, and exits. */
    static final class Relay extends Actor<Msg> {
        /** The target's ref: set before start(). */
        ActorRef<Msg> target;
        final AtomicInteger processed = new AtomicInteger();

        @Override
        protected void process(Msg m) {
            processed.incrementAndGet();
            target.send(m);
            exit();
        }
    }

    /** Submits the probe; runs on the test thread, in the probe's finish. */
    static void submit(Probe probe, TaskRuntime rt, ProbeState s) {
        switch (probe) {
            case OUTSIDE_MESSAGE -> {
                ActorRef<Msg> target = s.target.start();
                target.send(Msg.PING);
            }
            case OUTSIDE_ASYNC -> rt.async(s::serve);
            case OUTSIDE_AWAIT -> {
                rt.asyncAwait(s.value, s::serveValue);
                s.value.put("put by the test thread");
            }
            case ACTOR_MESSAGE -> {
                s.relay.target = s.target.start();
                ActorRef<Msg> relay = s.relay.start();
                relay.send(Msg.PING);
            }
            case TASK_MESSAGE -> {
                ActorRef<Msg> target = s.target.start();
                rt.async(() -> {
                    s.hops.incrementAndGet();
                    target.send(Msg.PING);
                });
            }
            case TASK_ASYNC -> rt.async(() -> {
                s.hops.incrementAndGet();
                rt.async(s::serve);
            });
            case TASK_AWAIT -> {
                rt.asyncAwait(s.value, s::serveValue);
                rt.async(() -> {
                    s.hops.incrementAndGet();
                    s.value.put("put by a task");
                });
            }
        }
    }

    /** The exact counts a served probe leaves. */
    static void assertProbeCounts(String scenario, Probe probe, ProbeState s) {
        assertThat(s.runs.get()).as("%s: the probe ran exactly once", scenario).isEqualTo(1);
        boolean message = probe == Probe.OUTSIDE_MESSAGE || probe == Probe.ACTOR_MESSAGE
                || probe == Probe.TASK_MESSAGE;
        if (message) {
            assertThat(s.target.state()).as("%s: the target actor exited", scenario)
                    .isEqualTo(ActorState.TERMINATED);
            assertThat(s.target.processedCount()).as("%s: messages the target processed", scenario).isEqualTo(1);
            assertThat(s.target.deadLetterCount()).as("%s: the target's dead letters", scenario).isZero();
        }
        if (probe == Probe.ACTOR_MESSAGE) {
            assertThat(s.relay.processed.get()).as("%s: messages the relay processed", scenario).isEqualTo(1);
            assertThat(s.relay.state()).as("%s: the relay exited", scenario).isEqualTo(ActorState.TERMINATED);
        }
        int hops = switch (probe) {
            case TASK_MESSAGE, TASK_ASYNC, TASK_AWAIT -> 1;
            default -> 0;
        };
        assertThat(s.hops.get()).as("%s: runs of the task between the test thread and the probe", scenario)
                .isEqualTo(hops);
        if (probe == Probe.OUTSIDE_AWAIT) {
            assertThat(s.valueSeen).as("%s: the value the asyncAwait saw", scenario).isEqualTo("put by the test thread");
        } else if (probe == Probe.TASK_AWAIT) {
            assertThat(s.valueSeen).as("%s: the value the asyncAwait saw", scenario).isEqualTo("put by a task");
        }
    }

    // ------------------------------------------------------------------------------------------ one case

    static long patience() {
        return STARVATION_SEEN.get() ? PATIENCE_AFTER_STARVATION_SECONDS : PATIENCE_SECONDS;
    }

    /**
     * Runs endless chains, serves a probe amid them, stops them; asserts the probe ran and every count is exact.
     */
    static void probeIsServedAmidEndlessChains(ChainKind kind, int chainCount, int workers, Probe probe) {
        probeIsServedAmidEndlessChains(kind, chainCount, workers, probe, false);
    }

    /**
     * @param insideATask whether the chains are started in a finish that a task waits for on a worker (that
     *                    worker then runs the chains as the tasks of its finish) rather than on a plain thread
     */
    static void probeIsServedAmidEndlessChains(ChainKind kind, int chainCount, int workers, Probe probe,
                                               boolean insideATask) {
        String scenario = String.format("%s probe amid %d endless %s chain%s%s on %d worker%s", probe, chainCount,
                switch (kind) {
                    case PAIRS -> "ping-pong-pair";
                    case SELF -> "self-send";
                    case DATA_DRIVEN -> "data-driven";
                }, chainCount == 1 ? "" : "s",
                insideATask ? " started in a finish a worker waits for" : "", workers, workers == 1 ? "" : "s");
        try (TaskRuntime rt = TaskRuntime.builder().name("fairness-" + workers + "w").workers(workers).build()) {
            Chains chains = new Chains(kind, chainCount);
            CompletableFuture<Void> chainsEnded = new CompletableFuture<>();
            // The chains' finish: generous, it lasts the whole case; it only ends once the stop flag is set.
            Duration chainsGuard = Duration.ofSeconds(3 * PATIENCE_SECONDS).plus(HANG_GUARD);
            Thread.ofPlatform().daemon().name("fairness-chains").start(() -> {
                try {
                    if (insideATask) {
                        rt.finish(chainsGuard, () -> rt.async(() -> rt.finish(() -> chains.start())));
                    } else {
                        rt.finish(chainsGuard, chains::start);
                    }
                    chainsEnded.complete(null);
                } catch (Throwable t) {
                    chainsEnded.completeExceptionally(t);
                }
            });
            try {
                long patience = patience();
                if (!await(chains.going, patience)) {
                    STARVATION_SEEN.set(true);
                    fail("%s: the chains did not all get going within %d s (%d of %d chain members reached %d "
                            + "messages or links)%n%s", scenario, patience, chains.members() - chains.going.getCount(),
                            chains.members(), GOING, poolState(rt));
                }

                ProbeState state = new ProbeState();
                AtomicBoolean submitted = new AtomicBoolean();
                AtomicBoolean served = new AtomicBoolean();
                StringBuilder starved = new StringBuilder();
                // The probe's own finish: it waits for the probe's actors and tasks only, never for the chains.
                Throwable probeFinish = catchThrowable(() -> rt.finish(HANG_GUARD, () -> {
                    submit(probe, rt, state);
                    submitted.set(true);
                    served.set(await(state.served, patience));
                    if (!served.get()) {
                        starved.append(poolState(rt));
                        chains.stop = true;          // let the starved probe run, so that this finish can end
                    }
                }));
                if (!submitted.get()) {
                    throw new AssertionError(scenario + ": submitting the probe failed", probeFinish);
                }
                if (!served.get()) {
                    STARVATION_SEEN.set(true);
                    throw new AssertionError(String.format("%s: starved, the probe did not run within %d s while "
                            + "the chains ran%n%s", scenario, patience, starved), probeFinish);
                }
                assertThat(probeFinish).as("%s: the probe's finish", scenario).isNull();
                assertProbeCounts(scenario, probe, state);
            } finally {
                chains.stop = true;
                awaitEnd(chainsEnded, chainsGuard.plusSeconds(10));
            }

            // The chains stop: every chain actor exits, nothing is left behind.
            Throwable chainsFinish = catchThrowable(() -> chainsEnded.get(0, TimeUnit.SECONDS));
            assertThat(chainsFinish).as("%s: the chains' finish after the stop flag", scenario).isNull();
            for (Actor<Msg> a : chains.actors) {
                assertThat(a.state()).as("%s: chain actor %s", scenario, a).isEqualTo(ActorState.TERMINATED);
                assertThat(a.deadLetterCount()).as("%s: dead letters of chain actor %s", scenario, a).isZero();
            }
            assertThat(rt.deadLetterCount()).as("%s: dead letters in the runtime", scenario).isZero();
        }
    }

    /** The pool's state from the runtime's hang report: active workers, queued tasks, each worker's progress. */
    static String poolState(TaskRuntime rt) {
        return rt.diagnose().stream().flatMap(String::lines).map(String::strip).filter(l -> l.startsWith("pool:"))
                .findFirst().orElse("(no pool state)");
    }

    static boolean await(CountDownLatch latch, long seconds) {
        try {
            return latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Waits (bounded) for the chains' finish to end, whatever its outcome; the caller checks the outcome. */
    static void awaitEnd(CompletableFuture<Void> ended, Duration bound) {
        try {
            ended.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // reported by the caller's assertion (a timeout there means the finish's own guard did not fire)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------------ the cases

    static final int[] CHAIN_COUNTS = {1, 2, 3, 4, 8, 16};
    static final int[] WORKERS = {1, 2, 4};

    /** Every chain kind, every chain count, every worker count. */
    static Stream<Arguments> fullMatrix() {
        List<Arguments> cases = new ArrayList<>();
        for (ChainKind kind : ChainKind.values()) {
            for (int chains : CHAIN_COUNTS) {
                for (int workers : WORKERS) {
                    cases.add(Arguments.of(kind, chains, workers));
                }
            }
        }
        return cases.stream();
    }

    /** A representative subset: 1, 3 and 16 pairs, 8 self-sending actors, 3 data-driven chains; every worker count. */
    static Stream<Arguments> subset() {
        List<Arguments> cases = new ArrayList<>();
        for (int workers : WORKERS) {
            for (int chains : new int[] {1, 3, 16}) {
                cases.add(Arguments.of(ChainKind.PAIRS, chains, workers));
            }
            cases.add(Arguments.of(ChainKind.SELF, 8, workers));
            cases.add(Arguments.of(ChainKind.DATA_DRIVEN, 3, workers));
        }
        return cases.stream();
    }

    static final String NAME = "{1} {0} chains, {2} workers";

    @ParameterizedTest(name = NAME)
    @MethodSource("fullMatrix")
    void aMessageFromOutsideThePoolIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.OUTSIDE_MESSAGE);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("subset")
    void anAsyncFromOutsideThePoolIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.OUTSIDE_ASYNC);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("subset")
    void anAsyncAwaitWhoseFutureTheTestThreadPutsIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.OUTSIDE_AWAIT);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("subset")
    void aMessageFromAnActorIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.ACTOR_MESSAGE);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("subset")
    void aMessageFromATaskIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.TASK_MESSAGE);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("subset")
    void anAsyncSpawnedByATaskIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.TASK_ASYNC);
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("subset")
    void anAsyncAwaitWhoseFutureATaskPutsIsServed(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.TASK_AWAIT);
    }

    /**
     * The chains run as the tasks of a finish that a worker waits for: that worker helps its finish, and must step
     * aside for work in the shared queue rather than help the endless chains forever.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("helpedChains")
    void aProbeIsServedWhileAWorkerHelpsAFinishOfEndlessChains(ChainKind kind, int chains, int workers) {
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.OUTSIDE_MESSAGE, true);
        probeIsServedAmidEndlessChains(kind, chains, workers, Probe.TASK_ASYNC, true);
    }

    static Stream<Arguments> helpedChains() {
        return Stream.of(Arguments.of(ChainKind.PAIRS, 1, 1), Arguments.of(ChainKind.PAIRS, 3, 1),
                Arguments.of(ChainKind.PAIRS, 3, 2), Arguments.of(ChainKind.SELF, 8, 1),
                Arguments.of(ChainKind.SELF, 8, 2), Arguments.of(ChainKind.DATA_DRIVEN, 3, 1),
                Arguments.of(ChainKind.DATA_DRIVEN, 3, 2));
    }

    // ------------------------------------------------------------------------------------------ the bound in messages

    /**
     * The bound in messages, independent of machine load: on one worker with a throughput of 64, a busy actor whose
     * queue never runs dry forwards every message to a counter; the counter never lags more than two of the busy
     * actor's turns (2 × 64 + 1 messages) behind.
     *
     * <p>The lag must not depend on time. The one timed part of the scheduler is the watchdog, which takes the
     * activations out of the handoff buffer of a worker that starts nothing for a whole period (10 ms): on a loaded
     * machine that happens whenever the worker's thread is descheduled long enough, and the counter then waited in
     * the pool's submissions while the busy actor re-queued itself ahead of it (lags of 46,000 to 195,000 messages).
     * With {@code stallEvery > 0} a message of the busy actor works 30 ms every {@code stallEvery} messages, so
     * every run has such periods, loaded machine or not; the bound must hold all the same.
     */
    @ParameterizedTest(name = "a 30 ms message every {0} messages (0: none)")
    @ValueSource(ints = {0, 20_000})
    void aBusyActorDoesNotStarveTheActorItFeeds(int stallEvery) {
        final class Counter extends Actor<Integer> {
            final AtomicInteger counted = new AtomicInteger();

            @Override
            protected void process(Integer tick) {
                if (tick < 0) {
                    exit();
                } else {
                    counted.incrementAndGet();
                }
            }
        }
        final class Busy extends Actor<Integer> {
            final Counter counter;
            /** The counter's ref: set before start(). */
            ActorRef<Integer> counterRef;
            final int total;
            int seen;
            int laggingMost;
            int stalls;

            Busy(Counter counter, int total) {
                this.counter = counter;
                this.total = total;
            }

            @Override
            protected void process(Integer m) {
                laggingMost = Math.max(laggingMost, seen - counter.counted.get());
                counterRef.send(m);
                if (stallEvery > 0 && seen % stallEvery == stallEvery / 2) {
                    spin(TimeUnit.MILLISECONDS.toNanos(30));    // the watchdog moves the counter to the pool
                    stalls++;
                }
                if (++seen == total) {
                    counterRef.send(-1);
                    exit();
                }
            }
        }
        int throughput = 64;
        try (TaskRuntime rt = TaskRuntime.builder().name("fairness-lag").workers(1).throughput(throughput).build()) {
            int total = 200_000;
            Counter counter = new Counter();
            Busy busy = new Busy(counter, total);
            rt.finish(Duration.ofSeconds(60), () -> {       // a guard against a hang, not a speed limit
                busy.counterRef = counter.start();
                for (int i = 0; i < total; i++) {
                    busy.ref().send(i);                     // a deep queue: the busy actor never runs dry
                }
                busy.start();
            });
            assertThat(counter.counted.get()).isEqualTo(total);
            assertThat(busy.stalls).isEqualTo(stallEvery > 0 ? total / stallEvery : 0);
            assertThat(counter.state()).isEqualTo(ActorState.TERMINATED);
            assertThat(busy.state()).isEqualTo(ActorState.TERMINATED);
            assertThat(rt.deadLetterCount()).isZero();
            // Each turn of the busy actor is 64 messages; then the counter catches up. A counter starved in the pool
            // lags by whatever the busy actor processes meanwhile (up to its whole queue).
            assertThat(busy.laggingMost).as("largest lag of the counter behind the busy actor, in messages")
                    .isLessThanOrEqualTo(2 * throughput + 1);
        }
    }
}

package dev.switchboard.testkit;

import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.internal.ManualClock;
import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.task.TaskRuntime;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.opentest4j.AssertionFailedError;

/**
 * Runs a program under many schedules, each chosen by a seed, to find an order of events that breaks it, and replays
 * the one that did. The program runs on the test thread with no worker: at every turn (an actor's message, a
 * task, the timers firing on the run's test clock) a seeded strategy chooses what goes next, and the trace of what
 * went is hashed, so that a replay of the seed can show it ran the same interleaving.
 *
 * <pre>{@code
 * ScheduleExplorer.pct(2).seeds(0, 1_000).check(kit -> {
 *     TestProbe<Balance> balances = kit.probe();
 *     ActorRef<Command> account = kit.spawn(new Account());
 *     kit.spawn(new Depositor(account, 50));
 *     kit.spawn(new Withdrawer(account, 80));
 *     account.send(new Query(balances.ref()));
 *     balances.expectMessageClass(Balance.class);   // runs the program until the reply comes
 * });
 * // fails with: seed 17 of PCT (depth 2) failed after 23 steps (trace 5b0c9e2f4a1d7730): ...
 * //             replay it with explorer.replay(17, program) or -Dswitchboard.testkit.seed=17
 * }</pre>
 *
 * <p>A run fails if the program throws (an assertion, a probe's expectation) or if an actor's failure reached no
 * finish and the program did not {@linkplain TestKit#expectFailure expect} it. After the program returns, its
 * actors and tasks go on until nothing is ready (timers not yet due are left alone).
 *
 * <h2>Strategies</h2>
 * <ul>
 *   <li>{@link #random()}: every decision uniformly at random among what can go.</li>
 *   <li>{@link #pct(int)}: probabilistic concurrency testing, by priorities that change at a few random turns;
 *       better at bugs that need a few orderings to line up (one actor's long exchange finishing before another's
 *       single message, and that before a third exchange ends), which random choices almost never make.</li>
 * </ul>
 *
 * <h2>What it cannot run, and what it cannot find</h2>
 * <ul>
 *   <li>A node that waits for other work of the runtime: a blocking {@code get()} of a runtime future or
 *       {@code join()} of an ask, a {@code finish} inside an actor whose work has not ended when its body returns, a
 *       bounded mailbox's wait for room. They fail at once with an {@link IllegalStateException} saying so (only
 *       this thread runs the work they would wait for). A wait the runtime cannot see (a
 *       {@code CompletableFuture} of the program's own, a lock) blocks this thread for good: after 10 s a warning
 *       in the log (logger {@code dev.switchboard.testkit}) names the step and where the thread waits, and the
 *       thread is interrupted, which ends an interruptible wait.</li>
 *   <li>Parallelism inside one turn: the messages a monitor or a transactional actor runs at once, the tasks of a
 *       parallel loop, run one after the other here, so a race between them is not explored.</li>
 *   <li>Decisions the runtime takes by real time (how its workers spread work, idle spinning) and anything the
 *       program reads from outside (the system clock, a random number generator it did not seed, the identity
 *       hash codes of its objects): a run that depends on them does not replay.</li>
 * </ul>
 * The ids of the run's actor references are numbered from 1 in each run, so maps keyed by references iterate
 * alike; they are unique within the run, not in the JVM.
 */
public final class ScheduleExplorer {
    /** The system property that {@link #check} reads: run only this seed (a replay). */
    public static final String SEED_PROPERTY = "switchboard.testkit.seed";

    private final Strategy strategy;
    private long firstSeed;
    private int seeds = 100;
    private int throughput = 1;
    private int maxSteps = 100_000;

    private ScheduleExplorer(Strategy strategy) {
        this.strategy = strategy;
    }

    /** An explorer whose runs make every decision uniformly at random. */
    public static ScheduleExplorer random() {
        return new ScheduleExplorer(new Strategy.RandomWalk());
    }

    /**
     * An explorer whose runs use probabilistic concurrency testing (PCT) for bugs of {@code depth} orderings (2 or
     * 3 find most ordering bugs; see the class comment).
     *
     * @throws IllegalArgumentException if {@code depth} is below 1
     */
    public static ScheduleExplorer pct(int depth) {
        return new ScheduleExplorer(new Strategy.Pct(depth));
    }

    /** Runs the seeds {@code first}, {@code first + 1}, ... {@code count} of them (default 0 to 99). */
    public ScheduleExplorer seeds(long first, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("explore at least one seed, got " + count);
        }
        this.firstSeed = first;
        this.seeds = count;
        return this;
    }

    /**
     * Messages an actor processes per turn (default 1: a decision between any two messages, the finest
     * interleaving; more turns fewer decisions). It applies to every actor, also to one that declares a budget of
     * its own ({@code ActorCore.throughput(int)}).
     */
    public ScheduleExplorer throughput(int messages) {
        if (messages < 1) {
            throw new IllegalArgumentException("the throughput must be at least 1 message, got " + messages);
        }
        this.throughput = messages;
        return this;
    }

    /** The most decisions one run may take before it fails as a program that never quiesces (default 100,000). */
    public ScheduleExplorer maxSteps(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("maxSteps must be at least 1, got " + steps);
        }
        this.maxSteps = steps;
        return this;
    }

    /** A program to explore: it gets a {@link TestKit} whose runtime this explorer drives. */
    @FunctionalInterface
    public interface Program {
        /** Starts the actors, sends, expects; what it throws fails the run. */
        void run(TestKit kit) throws Exception;
    }

    /** Runs the seeds in order until one fails; returns how many ran and the failing run, if one did. */
    public Exploration explore(Program program) {
        Objects.requireNonNull(program, "program");
        int steps = measuredSteps(program);
        for (int i = 0; i < seeds; i++) {
            ScheduleRun run = runOne(strategy, firstSeed + i, steps, program);
            if (run.failed()) {
                return new Exploration(strategy.toString(), i + 1, Optional.of(run));
            }
        }
        return new Exploration(strategy.toString(), seeds, Optional.empty());
    }

    /** Runs {@code seed} again: the same decisions as when it was explored, so the same trace hash. */
    public ScheduleRun replay(long seed, Program program) {
        Objects.requireNonNull(program, "program");
        return runOne(strategy, seed, measuredSteps(program), program);
    }

    /**
     * Explores, and fails with an {@link ExplorationFailure} (an {@link AssertionError}) naming the seed if a run
     * fails. With the system property {@value #SEED_PROPERTY} set, runs only that seed.
     */
    public void check(Program program) {
        String replay = System.getProperty(SEED_PROPERTY);
        if (replay != null && !replay.isBlank()) {
            long seed;
            try {
                seed = Long.parseLong(replay.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(SEED_PROPERTY + " must be a seed (a long), got \"" + replay + "\"");
            }
            ScheduleRun run = replay(seed, program);
            if (run.failed()) {
                throw new ExplorationFailure(strategy.toString(), run);
            }
            return;
        }
        explore(program).failure().ifPresent(run -> {
            throw new ExplorationFailure(strategy.toString(), run);
        });
    }

    /** How many decisions a run of {@code program} takes in arrival order, for strategies that spread by it. */
    private int measuredSteps(Program program) {
        return strategy.usesSteps() ? Math.max(1, runOne(new Strategy.ArrivalOrder(), 0, 0, program).steps()) : 0;
    }

    private ScheduleRun runOne(Strategy s, long seed, int steps, Program program) {
        ManualClock clock = new ManualClock();
        DeterministicScheduler scheduler = new DeterministicScheduler(ready -> 0);   // the driver chooses itself
        ExplorerDriver driver = new ExplorerDriver(scheduler, clock, s.chooser(seed, steps), maxSteps);
        TestKit[] kit = new TestKit[1];
        TaskRuntime.Builder b = TaskRuntime.builder().name("explore-" + seed).workers(1).throughput(throughput)
                .noHangReports().noFailureLogging().onUnscopedFailure(t -> kit[0].captureUnscoped(t));
        RuntimeAccess.builderOptions().clock(b, clock);
        RuntimeAccess.builderOptions().deterministic(b, scheduler);
        TaskRuntime runtime = b.build();
        kit[0] = new TestKit(runtime, clock, driver, TestKit.DEFAULT_TIMEOUT, TestKit.DEFAULT_NO_MESSAGE_WAIT, null,
                false);
        Throwable failure = null;
        try {
            Throwable[] thrown = new Throwable[1];
            scheduler.runUnscoped(() -> {
                try {
                    program.run(kit[0]);
                } catch (Throwable t) {
                    thrown[0] = t;
                }
            });
            failure = thrown[0];
            if (failure == null) {
                driver.runUntilQuiet();
            }
        } catch (RuntimeException | AssertionError e) {
            failure = e;                                    // a program that never quiesces
        } finally {
            failure = causeFirst(failure, kit[0].unexpectedFailures());
            try {
                kit[0].close();                             // an actor's failure that reached no finish
            } catch (AssertionError e) {
                if (failure == null) {
                    failure = e;
                } else if (failure != e) {
                    failure.addSuppressed(e);              // what the kit found too: often the cause
                }
            }
        }
        return new ScheduleRun(seed, driver.steps(), hash(driver.trace()), List.copyOf(driver.trace()), failure);
    }

    /**
     * The run's failure, led by an actor's failure that the program did not expect, if one came: a program's
     * expectation that fails (a probe that waits in vain) is most often its consequence, and the message should say
     * the cause first. The program's own failure is suppressed in it.
     */
    private static Throwable causeFirst(Throwable failure, List<Throwable> unexpected) {
        if (failure == null || unexpected.isEmpty() || unexpected.contains(failure)) {
            return failure;
        }
        Throwable first = unexpected.get(0);
        AssertionFailedError led = new AssertionFailedError("an actor failed, and the test did not expect it: "
                + first + "; then the program failed: " + failure, first);
        led.addSuppressed(failure);
        return led;
    }

    /** The first 16 hex digits of the SHA-256 of the trace, one line per step. */
    private static String hash(List<String> trace) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (String step : trace) {
                d.update(step.getBytes(StandardCharsets.UTF_8));
                d.update((byte) '\n');
            }
            return HexFormat.of().formatHex(d.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "ScheduleExplorer[" + strategy + ", seeds " + firstSeed + " to " + (firstSeed + seeds - 1) + "]";
    }

    /**
     * What an exploration found.
     *
     * @param strategy how its runs chose ("PCT (depth 2)", "random")
     * @param runs     how many seeds ran: up to and including the failing one, if one failed
     * @param failure  the first run that failed, if one did
     */
    public record Exploration(String strategy, int runs, Optional<ScheduleRun> failure) {
    }
}

package dev.switchboard.testkit;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.actor.Terminated;
import dev.switchboard.internal.ActorAccess;
import dev.switchboard.internal.ManualClock;
import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.RuntimeEvents;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.opentest4j.AssertionFailedError;

/**
 * A runtime for one test, and what a test needs around it: {@linkplain #probe() probes}, {@linkplain #spawn
 * starting actors} that belong to no finish, a {@linkplain #clock() test clock}, and capture of the actors'
 * {@linkplain #failures() failures} and {@linkplain #deadLetters() dead letters}. {@link #close()} checks what the
 * test left behind: it fails if an actor is still running, if a failure reached no finish and the test did not
 * {@linkplain #expectFailure expect} it, or if a thread the test started outlives it.
 *
 * <pre>{@code
 * try (TestKit kit = TestKit.create()) {
 *     TestProbe<Pong> replies = kit.probe();
 *     ActorRef<Ping> ponger = kit.spawn(new Ponger());
 *     ponger.send(new Ping(1, replies.ref()));
 *     replies.expectMessage(new Pong(1));
 *     ponger.stop();                         // close() fails if ponger is still running
 * }
 * }</pre>
 *
 * With JUnit 5, {@link SwitchboardTest @SwitchboardTest} gives each test method a kit as a parameter and closes it
 * after the test. Under a {@link ScheduleExplorer} the program is given a kit whose runtime runs on the test
 * thread, one scheduling decision at a time: the same methods work there, and every wait runs the program instead
 * of blocking.
 *
 * <p>The durations the kit waits by default ({@link #timeout()}, 3 s; {@link #noMessageWait()}, 100 ms) are
 * multiplied by the system property {@value #TIME_FACTOR_PROPERTY} (a number, default 1), for slow CI machines.
 * A kit is meant for one test thread.
 */
public final class TestKit implements AutoCloseable {
    /** The system property that multiplies the kit's default waits: {@code -Dswitchboard.testkit.timeFactor=3}. */
    public static final String TIME_FACTOR_PROPERTY = "switchboard.testkit.timeFactor";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);
    static final Duration DEFAULT_NO_MESSAGE_WAIT = Duration.ofMillis(100);

    private final TaskRuntime runtime;
    private final Scheduler scheduler;
    private final TestClock clock;
    private final Driver driver;
    private final Duration timeout;
    private final Duration noMessageWait;
    private final LeftoverThreads threads;
    private final boolean checkActors;

    private final List<TestProbe<?>> probes = new CopyOnWriteArrayList<>();
    private final CapturedFailures failures = new CapturedFailures();
    private final Captured<DeadLetter> deadLetters = new Captured<>();
    private final AutoCloseable failureSubscription;
    private final DeadLetter.Subscription deadLetterSubscription;
    private volatile boolean closed;

    /**
     * @param runtime  built by the caller with {@link #captureUnscoped} as its unscoped-failure handler
     * @param clock    its manual clock, or null for the system clock
     * @param threads  the thread check, or null for none
     */
    TestKit(TaskRuntime runtime, ManualClock clock, Driver driver, Duration timeout, Duration noMessageWait,
            LeftoverThreads threads, boolean checkActors) {
        this.runtime = runtime;
        this.scheduler = RuntimeAccess.scheduler(runtime);
        this.clock = clock == null ? null : new TestClock(clock);
        this.driver = driver;
        this.timeout = timeout;
        this.noMessageWait = noMessageWait;
        this.threads = threads;
        this.checkActors = checkActors;
        this.failureSubscription = scheduler.events().subscribe(e -> {
            if (e.kind() == RuntimeEvents.Kind.FAILURE && e.failure() != null) {
                failures.actorFailed(new ActorFailure((ActorRef<?>) e.source(), e.failure(), e.detail()));
                driver.changed();
            }
        });
        this.deadLetterSubscription = DeadLetter.subscribe(runtime, d -> {
            deadLetters.add(d);
            driver.changed();
        });
    }

    /** A kit of two workers on the system clock, with the default settings. */
    public static TestKit create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------------------------------ the runtime

    /** The kit's runtime: for {@code finish}, {@code async} and anything else a test does with a runtime. */
    public TaskRuntime runtime() {
        return runtime;
    }

    /**
     * The runtime's clock, which only the test moves.
     *
     * @throws IllegalStateException if the kit was built without {@link Builder#manualClock()}
     */
    public TestClock clock() {
        if (clock == null) {
            throw new IllegalStateException(this + " runs on the system clock; build it with manualClock() for a"
                    + " clock the test moves");
        }
        return clock;
    }

    /**
     * Starts {@code actor} in the kit's runtime, outside every finish: it runs until it exits or is stopped, and a
     * failure that ends it reaches no finish, so the kit keeps it (see {@link #expectFailure}).
     *
     * @throws IllegalStateException if the actor was started already, or the kit is closed
     */
    public <M> ActorRef<M> spawn(ActorCore<M> actor) {
        return spawn(actor, null);
    }

    /** Starts {@code actor} under {@code name} (as {@code start(name)}); see {@link #spawn(ActorCore)}. */
    public <M> ActorRef<M> spawn(ActorCore<M> actor, String name) {
        Objects.requireNonNull(actor, "actor");
        requireOpen("spawn " + actor.getClass().getSimpleName());
        List<ActorRef<M>> ref = new ArrayList<>(1);
        List<RuntimeException> refused = new ArrayList<>(1);
        scheduler.runInGlobalScope(() -> {
            try {
                ref.add(name == null ? actor.start() : actor.start(name));
            } catch (RuntimeException e) {
                refused.add(e);
            }
        });
        if (!refused.isEmpty()) {
            throw refused.get(0);
        }
        ActorRef<M> started = ref.get(0);
        started.id();                   // taken now: a run under an explorer numbers what it spawns in spawn order
        return started;
    }

    /**
     * Starts {@code selector} as {@link #spawn(ActorCore)} does, and returns its reference as a selector's, which
     * sends to a mailbox by name: {@code kit.spawn(new Buffer()).send(Box.PUT, item)}.
     *
     * @throws IllegalStateException if the selector was started already, or the kit is closed
     */
    public <M, B extends Enum<B>> SelectorRef<M, B> spawn(Selector<M, B> selector) {
        return spawn(selector, null);
    }

    /** Starts {@code selector} under {@code name}; see {@link #spawn(Selector)}. */
    public <M, B extends Enum<B>> SelectorRef<M, B> spawn(Selector<M, B> selector, String name) {
        spawn((ActorCore<M>) selector, name);
        return selector.ref();
    }

    /** A new probe, named "probe-N". */
    public <M> TestProbe<M> probe() {
        return probe("probe-" + (probes.size() + 1));
    }

    /**
     * A new probe of {@code type}'s messages, named "probe-N": for where the type cannot be inferred
     * ({@code actor.send(new Ping(kit.probe(Pong.class).ref()))}).
     */
    public <M> TestProbe<M> probe(Class<M> type) {
        Objects.requireNonNull(type, "type");
        return probe();
    }

    /** A new probe named {@code name}: its reference's name, and the name its assertion messages give. */
    public <M> TestProbe<M> probe(String name) {
        requireOpen("make a probe");
        TestProbe<M> p = new TestProbe<>(this, Objects.requireNonNull(name, "name"));
        probes.add(p);
        return p;
    }

    // ------------------------------------------------------------------------------------------ waiting

    /** How long an expectation waits by default: 3 s times the {@value #TIME_FACTOR_PROPERTY}. */
    public Duration timeout() {
        return timeout;
    }

    /** How long {@link TestProbe#expectNoMessage()} listens: 100 ms times the {@value #TIME_FACTOR_PROPERTY}. */
    public Duration noMessageWait() {
        return noMessageWait;
    }

    /** Waits at most the {@link #timeout()} for {@code condition}; fails the test with {@code what} if it never holds. */
    public void awaitCondition(String what, BooleanSupplier condition) {
        awaitCondition(what, condition, timeout);
    }

    /**
     * Waits at most {@code max} for {@code condition} (which must be quick: it is asked often); fails the test with
     * {@code what} if it never holds.
     */
    public void awaitCondition(String what, BooleanSupplier condition, Duration max) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(condition, "condition");
        if (!waitFor(condition, max)) {
            throw new AssertionFailedError("not within " + Texts.duration(max) + ": " + what);
        }
    }

    /** Runs {@code assertion} until it passes, at most the {@link #timeout()}; see the other form. */
    public void awaitAssert(Runnable assertion) {
        awaitAssert(assertion, timeout);
    }

    /**
     * Runs {@code assertion} (AssertJ's or JUnit's assertions, which throw an {@link AssertionError}) again and again
     * until it passes, at most {@code max}; if it never does, fails the test with its last {@code AssertionError}
     * (Pekko's {@code awaitAssert}). Under a {@link ScheduleExplorer} the program runs between the tries. An
     * exception other than an {@code AssertionError} is thrown at once.
     *
     * <pre>{@code
     * kit.awaitAssert(() -> assertThat(registry.names()).containsExactly("a", "b"));
     * }</pre>
     */
    public void awaitAssert(Runnable assertion, Duration max) {
        Objects.requireNonNull(assertion, "assertion");
        AssertionError[] last = new AssertionError[1];
        boolean passed = waitFor(() -> {
            try {
                assertion.run();
                return true;
            } catch (AssertionError notYet) {
                last[0] = notYet;
                return false;
            }
        }, max);
        if (!passed) {
            AssertionFailedError e = new AssertionFailedError("not within " + Texts.duration(max) + ": "
                    + (last[0] == null ? "the assertion never ran" : last[0].getMessage()));
            if (last[0] != null) {
                e.initCause(last[0]);
            }
            throw e;
        }
    }

    /**
     * Waits at most the {@link #timeout()} until {@code actor} has an active timer under {@code key}: one it started
     * ({@code startSingleTimer} or a periodic form) and has not cancelled, a single one until its message is taken.
     * An actor sets its timer when it processes a message, on a worker, maybe after the test's next line: wait for it
     * before moving the {@linkplain #clock() test clock} past it. Fails the test if it does not come.
     *
     * <pre>{@code
     * reminder.send(new Remind("stand up", Duration.ofMinutes(30), me.ref()));
     * kit.awaitTimer(reminder, "stand up");             // it has set its timer: the clock may move
     * kit.clock().advance(Duration.ofMinutes(30));
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code actor} is not an actor of this JVM
     */
    public void awaitTimer(ActorRef<?> actor, Object key) {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(key, "key");
        if (!waitFor(() -> isTimerActive(actor, key), timeout)) {
            throw new AssertionFailedError("not within " + Texts.duration(timeout) + ": a timer '" + Texts.brief(key)
                    + "' of " + actor + (ActorAccess.get().hasTerminated(actor) ? ", which has ended" : ""));
        }
    }

    /**
     * Whether {@code actor} has an active timer under {@code key} now (see {@link #awaitTimer}), read from the test's
     * thread: a timer the actor starts or cancels meanwhile may or may not be seen.
     *
     * @throws IllegalArgumentException if {@code actor} is not an actor of this JVM
     */
    public boolean isTimerActive(ActorRef<?> actor, Object key) {
        return ActorAccess.get().hasActiveTimer(Objects.requireNonNull(actor, "actor"),
                Objects.requireNonNull(key, "key"));
    }

    /** Waits at most the {@link #timeout()} for {@code stage} to complete; see the other form. */
    public <T> T awaitResult(CompletionStage<T> stage) {
        return awaitResult(stage, timeout);
    }

    /**
     * Waits at most {@code max} for {@code stage} (an {@code ask}'s future, say) to complete, and returns its
     * result; fails the test if it does not complete in time or completes with a failure. Under a
     * {@link ScheduleExplorer} it runs the program until the stage completes.
     *
     * <pre>{@code
     * long balance = kit.awaitResult(bank.ask(r -> new Balance("alice", r), Duration.ofSeconds(1)));
     * }</pre>
     */
    public <T> T awaitResult(CompletionStage<T> stage, Duration max) {
        CompletableFuture<T> f = stage.toCompletableFuture();
        f.whenComplete((t, e) -> driver.changed());
        if (!waitFor(f::isDone, max)) {
            throw new AssertionFailedError("no result within " + Texts.duration(max) + " from " + Texts.brief(stage)
                    + whyNothingCame());
        }
        try {
            return f.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            throw new AssertionFailedError("expected a result, but it failed: " + cause, cause);
        }
    }

    /** Waits at most the {@link #timeout()} for {@code actor} to end; returns how it ended. */
    public Terminated expectTerminated(ActorRef<?> actor) {
        return expectTerminated(actor, timeout);
    }

    /** Waits at most {@code max} for {@code actor} to end; returns how it ended. */
    public Terminated expectTerminated(ActorRef<?> actor, Duration max) {
        CompletableFuture<Terminated> end = actor.whenTerminated().toCompletableFuture();
        end.whenComplete((t, e) -> driver.changed());
        if (!waitFor(end::isDone, max)) {
            throw new AssertionFailedError("expected " + actor + " to end within " + Texts.duration(max)
                    + ", but it has not" + whyNothingCame());
        }
        return end.join();
    }

    // ------------------------------------------------------------------------------------------ failures

    /**
     * Every exception that escaped an actor of the runtime so far, oldest first: the ones that ended an actor and
     * the ones its supervisor handled.
     */
    public List<ActorFailure> failures() {
        return failures.all();
    }

    /** Waits at most the {@link #timeout()} for a failure of {@code type}; see {@link #expectFailure(Class, Duration)}. */
    public ActorFailure expectFailure(Class<? extends Throwable> type) {
        return expectFailure(type, timeout);
    }

    /**
     * Waits at most {@code max} for an actor failure of {@code type} that the test has not expected yet, and
     * returns the oldest one; or for a failure of that type outside every actor that reached no finish (a task the
     * kit's runtime ran outside every finish: its {@link ActorFailure#actor()} is null). An expected failure that
     * reached no finish no longer fails {@link #close()}.
     *
     * <p>The failures a supervisor handled (a restart, a resume) are among them, oldest first: a test of a child
     * whose supervisor restarts it twice and then gives up expects three failures, and only the last one, which
     * ended the child, reached no finish.
     */
    public ActorFailure expectFailure(Class<? extends Throwable> type, Duration max) {
        Objects.requireNonNull(type, "type");
        List<ActorFailure> found = new ArrayList<>(1);
        if (!waitFor(() -> taken(found, failures.takeUnexpected(type)), max)) {
            throw new AssertionFailedError("expected a failure of a " + type.getName() + " within "
                    + Texts.duration(max) + "; " + failures.soFar());
        }
        ActorFailure f = found.get(0);
        failures.expected(f);
        return f;
    }

    /** The dead letters of the runtime so far, oldest first. */
    public List<DeadLetter> deadLetters() {
        return deadLetters.all();
    }

    /** Waits at most the {@link #timeout()} for a dead letter that {@code which} accepts; see the other form. */
    public DeadLetter expectDeadLetter(Predicate<? super DeadLetter> which) {
        return expectDeadLetter(which, timeout);
    }

    /**
     * Waits at most {@code max} for a dead letter that {@code which} accepts and the test has not expected yet;
     * returns the oldest one.
     *
     * <pre>{@code
     * server.stop();
     * server.send(new Order(7));
     * DeadLetter d = kit.expectDeadLetter(l -> l.message() instanceof Order);
     * }</pre>
     */
    public DeadLetter expectDeadLetter(Predicate<? super DeadLetter> which, Duration max) {
        Objects.requireNonNull(which, "which");
        List<DeadLetter> found = new ArrayList<>(1);
        if (!waitFor(() -> taken(found, deadLetters.takeUnexpected(which)), max)) {
            throw new AssertionFailedError("expected a dead letter within " + Texts.duration(max)
                    + "; dead letters so far: " + Texts.list(deadLetters.all()));
        }
        return found.get(0);
    }

    /** Keeps {@code item} in {@code into} if it is not null; returns whether it was not. */
    private static <T> boolean taken(List<T> into, T item) {
        if (item == null) {
            return false;
        }
        into.add(item);
        return true;
    }

    /** The unscoped-failure handler of the kit's runtime. */
    void captureUnscoped(Throwable failure) {
        failures.reachedNoFinish(failure);
        driver.changed();
    }

    // ------------------------------------------------------------------------------------------ closing

    /**
     * Stops the probes, checks what the test left behind, and closes the runtime. Fails with an
     * {@link AssertionError} that lists every problem found, after closing the runtime all the same:
     * <ul>
     *   <li>an actor of the runtime still running {@link #timeout()} after the probes were stopped (stop it with
     *       {@code ref.stop()}, or have it exit);</li>
     *   <li>a failure that reached no finish (an actor {@linkplain #spawn spawned} by the kit that failed, with no
     *       supervisor to handle it) and that the test did not {@linkplain #expectFailure expect};</li>
     *   <li>a thread started since the kit was built that is still alive {@link #timeout()} after the runtime
     *       closed (not checked under a {@link ScheduleExplorer}, nor when the kit was built with
     *       {@code checkThreads(false)}).</li>
     * </ul>
     * Closing again does nothing.
     */
    @Override
    public void close() {
        close(true);
    }

    /**
     * Closes the kit; with {@code check} false (the test failed already, as the JUnit extension knows), without
     * waiting for actors or threads and without adding to the test's failure.
     */
    void close(boolean check) {
        if (closed) {
            return;
        }
        closed = true;
        LeftBehind left = new LeftBehind();
        try {
            for (TestProbe<?> p : probes) {
                p.ref().stopNow();
            }
            if (check && checkActors) {
                left.runningActors(driver, scheduler, timeout);
            }
            if (check) {
                left.unexpectedFailures(failures.unexpectedUnscoped());
            }
        } finally {
            closeQuietly(failureSubscription);
            deadLetterSubscription.close();
            runtime.close(timeout);              // a worker stuck in user code holds it up no longer than that
        }
        if (check && threads != null) {
            left.threads(threads, timeout);
        }
        left.failIfAny(this, failures.unexpectedUnscoped());
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // a subscription's close does not throw
        }
    }

    // ------------------------------------------------------------------------------------------ for the parts

    /**
     * For a wait that came to nothing: what of the runtime's diagnosis says why, as a sentence to append ("; while
     * it waited, actor Blocker@3 ... running now on thread ..., in ..."): the actors stuck in a turn and the
     * deadlocks of awaited replies, at most five lines; empty when nothing is stuck.
     */
    String whyNothingCame() {
        try {
            List<String> stuck = runtime.diagnose().stream().flatMap(String::lines)
                    .map(l -> l.strip().replaceFirst("^- ", ""))
                    .filter(l -> l.contains("running now") || l.contains("deadlock")).limit(5).toList();
            return stuck.isEmpty() ? "" : "; while it waited: " + String.join("; ", stuck);
        } catch (RuntimeException e) {
            return "";                            // a diagnosis only adds to the failure; it never replaces it
        }
    }

    /** The failures that reached no finish and that the test has not expected, as they are now. */
    List<Throwable> unexpectedFailures() {
        return List.copyOf(failures.unexpectedUnscoped());
    }

    /** Waits with the kit's driver: blocks on real workers, runs the program under a deterministic schedule. */
    boolean waitFor(BooleanSupplier done, Duration max) {
        Objects.requireNonNull(max, "max");
        requireOpen("wait for anything");
        return driver.await(done, max);
    }

    void changed() {
        driver.changed();
    }

    /** The time waits are measured in: the run's clock under a deterministic schedule, else the system's. */
    long nanoTime() {
        return driver.deterministic() ? scheduler.clock().nanoTime() : System.nanoTime();
    }

    private void requireOpen(String what) {
        if (closed) {
            throw new IllegalStateException("cannot " + what + ": " + this + " is closed");
        }
    }

    @Override
    public String toString() {
        return "TestKit[" + runtime.name() + "]";
    }

    /** How to build a {@link TestKit}. */
    public static final class Builder {
        private String name = "testkit";
        private int workers = 2;
        private int throughput = TaskRuntime.DEFAULT_THROUGHPUT;
        private boolean manualClock;
        private Duration timeout;
        private boolean checkThreads = true;
        private final List<Pattern> ignoredThreads = new ArrayList<>();

        private Builder() {
        }

        /** Names the runtime and its threads (default "testkit"). */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Worker threads of the runtime (default 2). */
        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("a runtime needs at least one worker, got " + workers);
            }
            this.workers = workers;
            return this;
        }

        /** Messages an actor processes per activation (as {@code TaskRuntime.Builder.throughput}). */
        public Builder throughput(int messages) {
            if (messages < 1) {
                throw new IllegalArgumentException("the throughput must be at least 1 message, got " + messages);
            }
            this.throughput = messages;
            return this;
        }

        /** Runs the runtime on a {@link TestClock}, which stands still until the test moves it. */
        public Builder manualClock() {
            this.manualClock = true;
            return this;
        }

        /** How long expectations wait by default (3 s times the {@value TestKit#TIME_FACTOR_PROPERTY}). */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the timeout must be positive, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Whether {@link TestKit#close()} fails if a thread started since the kit was built is still alive (default
         * true). Turn it off when tests of the JVM run in parallel: their threads would count.
         */
        public Builder checkThreads(boolean check) {
            this.checkThreads = check;
            return this;
        }

        /**
         * Threads whose names match one of {@code regexes} (whole names, {@link Pattern} syntax) are not counted as
         * left behind: a pool the test shares with later tests, say. The JDK's own (the common pool's workers,
         * JFR's, the attach listener) never are.
         */
        public Builder ignoreThreads(String... regexes) {
            for (String r : regexes) {
                ignoredThreads.add(Pattern.compile(Objects.requireNonNull(r, "regex")));
            }
            return this;
        }

        /** Builds the kit: its runtime starts now, and the threads alive now are the ones it does not check. */
        public TestKit build() {
            LeftoverThreads threads = checkThreads ? new LeftoverThreads(ignoredThreads) : null;
            ManualClock manual = manualClock ? new ManualClock() : null;
            TestKit[] kit = new TestKit[1];
            TaskRuntime.Builder b = TaskRuntime.builder().name(name).workers(workers).throughput(throughput)
                    .onUnscopedFailure(t -> kit[0].captureUnscoped(t));
            if (manual != null) {
                RuntimeAccess.builderOptions().clock(b, manual);
            }
            TaskRuntime rt = b.build();
            Duration t = timeout != null ? timeout : TimeFactor.dilated(DEFAULT_TIMEOUT);
            Duration quiet = TimeFactor.dilated(DEFAULT_NO_MESSAGE_WAIT);
            kit[0] = new TestKit(rt, manual, new Driver.Real(), t, quiet, threads, true);
            return kit[0];
        }
    }
}

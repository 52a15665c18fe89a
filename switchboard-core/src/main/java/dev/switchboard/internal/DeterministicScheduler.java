package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

/**
 * A test scheduler that decides, one step at a time and reproducibly, which ready node of a runtime runs next:
 * the ready actor activations and tasks wait in a list, and nothing runs until the test calls {@link #runNext()}
 * or {@link #runUntilQuiet()}, which run them one at a time on the calling thread, each chosen by a
 * {@link Chooser} (a seeded {@link Random}, or the test's own). The order they ran in is recorded
 * ({@link #history()}). Given to a runtime through a package-private builder option, like {@link ManualClock}
 * (see {@code RuntimeInternals} and {@code Runtimes} in the tests); one runtime per instance. Thread-safe, though
 * only one thread runs nodes at a time.
 *
 * <h2>What it supports</h2>
 * Programs of actors, and the tasks they (or the test) start, that never wait for other work while they run:
 * <ul>
 *   <li>Work started from the test thread: inside {@link #runUnscoped} (the runtime's global scope, so that it
 *       belongs to no finish), then driven by {@link #runUntilQuiet()}; or inside a {@code finish} on the test
 *       thread, which drives the scheduler itself, as {@code runUntilQuiet} would, until the finish's work has
 *       ended.</li>
 *   <li>Messages, replies to asks, spawned tasks and data-driven tasks, as long as each runs to its end without
 *       blocking.</li>
 *   <li>Timers with a {@link ManualClock}: advancing it makes the actors they message ready here.</li>
 * </ul>
 * <h2>What it does not support</h2>
 * <ul>
 *   <li>A wait inside a node it runs: a {@code finish} whose work has not ended when its body returns, a blocking
 *       {@code get()}, a runtime's blocking wait (a bounded mailbox's wait for room). These fail at once with an
 *       {@link IllegalStateException} saying so (the wait would need another thread to run the work, and there is
 *       none), which fails the node as any exception from it would.</li>
 *   <li>A {@code finish} on the test thread whose work waits for something that only time or another thread
 *       could make ready (a timer on the system clock, a future completed elsewhere): it stops with an
 *       {@link IllegalStateException} naming what keeps it open, instead of waiting.</li>
 *   <li>A blocking {@code get()} on the test thread outside every node: it waits as on any runtime, for a thread
 *       that drives this scheduler; drive it first. (A test that {@linkplain #driveWith drives through a stepper}
 *       has its waits on its thread run the program instead.)</li>
 * </ul>
 * A runtime under this scheduler starts no worker thread (its watchdog and timer threads still exist), so what
 * reports the pool's state ({@code isQuiescent()}, worker counts) says nothing about the work here.
 *
 * <h2>Implementation notes</h2>
 * Every ready node of a runtime reaches the scheduler's one decision point, {@link Scheduler#share}, when the
 * thread that makes it ready is not a worker of the runtime; under this scheduler no thread is (no node is ever
 * given to the pool), so the whole decision is taken here (see Scheduler, "The decision point").
 */
public final class DeterministicScheduler {
    /** The most nodes {@link #runUntilQuiet()} runs before it decides the program does not quiesce. */
    public static final int DEFAULT_MAX_STEPS = 1_000_000;

    /** Chooses which ready node runs next. */
    @FunctionalInterface
    public interface Chooser {
        /** Returns the index in {@code ready} (never empty, oldest first; not to be kept) of the node to run. */
        int choose(List<Node> ready);
    }

    private final Chooser chooser;
    private final ArrayList<Node> ready = new ArrayList<>();
    private final List<Node> readyView = Collections.unmodifiableList(ready);
    private final ArrayList<String> history = new ArrayList<>();
    private Scheduler scheduler;
    /** The ids given to the runtime's actors so far ({@link #nextActorId}). */
    private long actorIds;
    /** What runs a step of the program when a wait on {@link #driver} needs one, or null ({@link #driveWith}). */
    private volatile Stepper stepper;
    private volatile Thread driver;
    /** The thread running a node now, or null: set under this object's lock, cleared by that thread. */
    private volatile Thread running;

    /** A scheduler that chooses uniformly at random from the ready nodes, with a {@link Random} of {@code seed}. */
    public DeterministicScheduler(long seed) {
        Random random = new Random(seed);
        this.chooser = r -> random.nextInt(r.size());
    }

    public DeterministicScheduler(Chooser chooser) {
        this.chooser = Objects.requireNonNull(chooser, "chooser");
    }

    /** Called once, by the runtime's scheduler as it is created. */
    synchronized void bind(Scheduler s) {
        if (scheduler != null) {
            throw new IllegalStateException("a DeterministicScheduler schedules one runtime, already " + scheduler);
        }
        scheduler = s;
    }

    /**
     * Takes a node that is ready to run ({@link Scheduler#share}).
     *
     * @throws RejectedExecutionException if the runtime is closed (the node is then refused, as by the pool)
     */
    synchronized void ready(Node node) {
        if (scheduler.isClosed()) {
            throw new RejectedExecutionException(scheduler.name() + " is closed");
        }
        ready.add(node);
    }

    /** Whether nodes are ready to run. */
    synchronized boolean hasReady() {
        return !ready.isEmpty();
    }

    /** Nodes ready to run now. */
    public synchronized int readyCount() {
        return ready.size();
    }

    /** What ran so far, oldest first, one entry per node run: its {@link Node#describe()} ("actor Foo@3"). */
    public synchronized List<String> history() {
        return List.copyOf(history);
    }

    /**
     * Runs {@code action} on this thread in the runtime's global scope ({@link Scheduler#runInGlobalScope}): what
     * it starts belongs to no finish, and waits here until the test runs it.
     */
    public void runUnscoped(Runnable action) {
        bound().runInGlobalScope(action);
    }

    /**
     * Runs one ready node, chosen by the chooser, on this thread; returns false if none was ready.
     *
     * @throws IllegalStateException if called inside a node this scheduler runs
     */
    public boolean runNext() {
        Node next;
        synchronized (this) {
            requireNotInside("runNext");
            if (ready.isEmpty()) {
                return false;
            }
            int i = chooser.choose(readyView);
            if (i < 0 || i >= ready.size()) {
                throw new IllegalStateException("the chooser chose " + i + " of " + ready.size() + " ready nodes");
            }
            next = take(ready.remove(i));
        }
        compute(next);
        return true;
    }

    /** The nodes ready to run now, oldest first (a copy): what a test that chooses for itself chooses from. */
    public synchronized List<Node> readyNodes() {
        return List.copyOf(ready);
    }

    /**
     * Runs {@code node}, one of the {@link #readyNodes()}, on this thread: a test that chooses for itself (the test
     * kit's strategies, which also choose when timers fire) instead of through the chooser.
     *
     * @throws IllegalArgumentException if {@code node} is not ready here
     * @throws IllegalStateException    if called inside a node this scheduler runs
     */
    public void run(Node node) {
        Node next;
        synchronized (this) {
            requireNotInside("run");
            int i = ready.indexOf(node);
            if (i < 0) {
                throw new IllegalArgumentException(node.describe() + " is not ready under " + this);
            }
            next = take(ready.remove(i));
        }
        compute(next);
    }

    /** The next id of an actor of the runtime: a deterministic runtime numbers its own, from 1. */
    synchronized long nextActorId() {
        return ++actorIds;
    }

    private void requireNotInside(String what) {
        if (running != null) {
            throw new IllegalStateException(what + " called inside a node that " + this + " runs, on " + running);
        }
    }

    /** With this object's lock: records {@code next} and marks this thread as running it. */
    private Node take(Node next) {
        history.add(next.describe());
        running = Thread.currentThread();
        return next;
    }

    private void compute(Node next) {
        try {
            next.compute();                       // on a thread that is not a worker: runs it with its context
        } finally {
            running = null;
        }
    }

    /** Runs ready nodes until none is ready ({@link #runUntilQuiet(int)} with {@link #DEFAULT_MAX_STEPS}). */
    public int runUntilQuiet() {
        return runUntilQuiet(DEFAULT_MAX_STEPS);
    }

    /**
     * Runs ready nodes, one at a time, until none is ready; returns how many ran.
     *
     * @throws IllegalStateException if nodes are still ready after {@code maxSteps} (a program that never
     *                               quiesces)
     */
    public int runUntilQuiet(int maxSteps) {
        int steps = 0;
        while (runNext()) {
            if (++steps >= maxSteps && hasReady()) {
                throw new IllegalStateException("still " + readyCount() + " nodes ready after " + steps + " steps");
            }
        }
        return steps;
    }

    /**
     * The wait of a finish whose work has not ended when its body returned ({@link FinishWait}): on the test
     * thread, runs ready nodes until the finish has ended (through the test's {@link Stepper}, if it drives this
     * scheduler from this thread), and stops it if nothing can run before then; inside a node this scheduler runs,
     * stops it at once (see the class comment).
     */
    void awaitFinish(Scope scope) {
        if (Thread.currentThread() == running) {
            scope.stop(unsupported("a finish whose work has not ended when its body returns"));
            return;
        }
        try {
            if (!runUntil(() -> scope.isEnded() || scope.stopped() != null)) {
                scope.stop(new IllegalStateException("the finish waits for work that nothing has made ready under "
                        + this + ", which runs only ready nodes (a timer on the system clock, or a future completed"
                        + " by another thread, is not waited for):\n" + scheduler.hangs.report(scope)));
            }
        } catch (RuntimeException notQuiet) {          // too many steps, or the chooser failed
            scope.stop(notQuiet);
        }
    }

    /**
     * A blocking wait until {@code done} ({@code get()}, a bounded mailbox's wait for room) that {@code what} would
     * make on this thread: inside a node this scheduler runs it fails at once (nothing else would run the work it
     * waits for); on the thread that drives this scheduler through a {@link Stepper} it runs the program until
     * {@code done} holds, and fails if nothing can run before then; on any other thread it returns, and the caller
     * waits as on any runtime.
     *
     * @throws IllegalStateException if the wait cannot end
     */
    void awaitOnThisThread(String what, BooleanSupplier done) {
        Thread t = Thread.currentThread();
        if (t == running) {
            throw unsupported(what);
        }
        if (t == driver && !done.getAsBoolean() && !runUntil(done)) {
            throw new IllegalStateException(what + " on " + t.getName() + " waits for work that nothing can make"
                    + " ready under " + this);
        }
    }

    /** How a test that takes the decisions itself runs one step of the program (the test kit's explorer). */
    @FunctionalInterface
    public interface Stepper {
        /** Runs one step (a ready node, or the timers that are due); returns false if nothing could run. */
        boolean step();
    }

    /**
     * From now on, the waits on this thread (a finish whose work goes on after its body, a blocking {@code get()})
     * run the program through {@code stepper}, so that every step of the program is the test's decision.
     */
    public void driveWith(Stepper stepper) {
        this.stepper = Objects.requireNonNull(stepper, "stepper");
        this.driver = Thread.currentThread();
    }

    private IllegalStateException unsupported(String what) {
        return new IllegalStateException(what + " inside an actor or task run by " + this
                + " is not supported: it would wait for work that only this thread runs");
    }

    /**
     * Runs the program until {@code done}, through the test's stepper if it drives from this thread, else ready
     * nodes as the chooser picks them; returns false if nothing could run before it held.
     */
    private boolean runUntil(BooleanSupplier done) {
        Stepper s = Thread.currentThread() == driver ? stepper : null;
        int steps = 0;
        while (!done.getAsBoolean()) {
            if (!(s != null ? s.step() : runNext())) {
                return false;
            }
            if (++steps >= DEFAULT_MAX_STEPS) {
                throw new IllegalStateException("a wait still open after " + steps + " steps under " + this);
            }
        }
        return true;
    }

    private synchronized Scheduler bound() {
        if (scheduler == null) {
            throw new IllegalStateException("this DeterministicScheduler has no runtime yet");
        }
        return scheduler;
    }

    @Override
    public synchronized String toString() {
        return "DeterministicScheduler[" + (scheduler == null ? "unbound" : scheduler.name()) + ", "
                + ready.size() + " ready, " + history.size() + " run]";
    }
}

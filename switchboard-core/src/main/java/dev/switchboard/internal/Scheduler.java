package dev.switchboard.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The machinery behind a {@code TaskRuntime}: a work-stealing pool of {@link Worker}s, the global scope, the
 * shared run queue, and the facade through which the packages above reach the runtime's parts.
 *
 * <h2>Overview</h2>
 * Tasks are {@link Node}s executed by a {@link ForkJoinPool} in FIFO ("async") mode. Tasks spawned on a worker
 * are forked so that idle workers can steal them; actor activations triggered by a send on a worker, and
 * data-driven tasks whose last input a task put, go through the worker's handoff buffer ({@link #activate});
 * everything else (work from outside the pool, work that used up its turn, activations the watchdog moved) waits
 * in the shared FIFO queue ({@link RunQueue}), which is what makes the runtime fair: the pool alone is not (see
 * RunQueue).
 *
 * <p>The rest lives beside this class, one responsibility each: waiting for a finish or a value
 * ({@link FinishWait}), the watchdog ({@link Watchdog}), hang reports ({@link HangReports}), the runtime-wide
 * spreading rule ({@link Spreading}), idle workers ({@link IdleSpin}), dead letters ({@link DeadLetters}), the
 * counts behind the runtime's metrics ({@link RuntimeCounters}), how workers come and go ({@link WorkerLifecycle}),
 * failures no finish can rethrow ({@link UnscopedFailures}), the log of actors' failures ({@link FailureLog}),
 * worker deaths ({@link WorkerDeaths}), closing ({@link Closing}), the scopes waited for and those that track open
 * work ({@link OpenScopes}) and which runtime a thread's unscoped work belongs to ({@link RuntimesOfThreads}). A
 * node forks itself into the current worker's deque, where a refusal is its failure ({@link Node#forkToDeque}).
 * This class owns the pool, the shared queue, the global scope, the sets of workers, the closed flag and the rough
 * clock, and makes the scheduling decisions (where a ready node goes) itself.
 *
 * <h2>Implementation notes</h2>
 * <b>The decision point.</b> Every node that becomes ready (a task, an actor's activation, a data-driven task)
 * enters through {@link #submit}, {@link #activate}, {@link #activateBehind}, {@link #activateNext} or
 * {@link #yieldTurn} ({@link #yieldIfOthersWaiting} yields through yieldTurn or the handoff buffer). On a worker of
 * this runtime the worker keeps it (its deque, its handoff buffer, from where it may spread: {@link Worker}); from
 * any other thread, or when it used up its turn, it goes to {@link #share}, which queues it in the shared queue,
 * or, on a runtime built with a {@link DeterministicScheduler}, hands it to that instead. Under a deterministic
 * scheduler no node is given to the pool, so no thread is a worker and every ready node reaches share: the test
 * takes the whole decision. Production pays no instruction where a worker keeps a node, and in share a null check
 * of a final field beside a queue offer ({@link #othersWaiting} adds one, evaluated only when nothing waits).
 */
public final class Scheduler {
    private static final AtomicInteger RUNTIME_IDS = new AtomicInteger();

    private final String name;
    private final int parallelism;
    private final int budget;
    private final int handoffLimit;
    final ForkJoinPool pool;
    private final Scope global;
    final RunQueue runQueue;
    /** The live workers (a worker removes itself when it ends). */
    final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    /** Workers that left the pool and whose threads may still be ending: close() waits for them. */
    final Set<Worker> endingWorkers = ConcurrentHashMap.newKeySet();
    /** The scopes a thread waits for now and those that track open actors or awaiting tasks. */
    final OpenScopes openScopes = new OpenScopes();
    private volatile boolean closed;

    final Spreading spreading = new Spreading();
    /** Which worker runs the actors while short turns are held (the shared queue's). */
    final Concentration concentration;
    final IdleSpin idleSpin;
    final Watchdog watchdog;
    final HangReports hangs;
    final FinishWait finishes = new FinishWait(this);
    final WorkerDeaths deaths = new WorkerDeaths(this);
    final DeadLetters deadLetters = new DeadLetters(this);
    final RuntimeCounters counters = new RuntimeCounters(this);
    final UnscopedFailures unscoped = new UnscopedFailures(this);
    private final FailureLog failureLog = new FailureLog(this);
    private final RuntimeEvents events = new RuntimeEvents();
    final Closing closing = new Closing(this);
    private final TimerService timers;
    private volatile Object facade;
    private final Clock clock;
    /** Takes the decision of what runs next in a test, or null ({@link #share}). */
    final DeterministicScheduler deterministic;

    public Scheduler(String name, int parallelism, int budget, int handoffLimit, long hangReportAfterNanos) {
        this(name, parallelism, budget, handoffLimit, hangReportAfterNanos, 0);
    }

    /**
     * @param idleSpinNanos how long a worker that ran out of work keeps looking for more before it returns to the
     *                      pool, which parks it ({@link Worker#spinForWork}); 0 for not at all
     */
    public Scheduler(String name, int parallelism, int budget, int handoffLimit, long hangReportAfterNanos,
                     long idleSpinNanos) {
        this(name, parallelism, budget, handoffLimit, hangReportAfterNanos, idleSpinNanos, Clock.system(), null);
    }

    /**
     * @param clock         where the runtime reads the time (see {@link Clock} for what it drives)
     * @param deterministic what runs the ready nodes when a test says so, or null: the pool does
     */
    public Scheduler(String name, int parallelism, int budget, int handoffLimit, long hangReportAfterNanos,
                     long idleSpinNanos, Clock clock, DeterministicScheduler deterministic) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        this.deterministic = deterministic;
        this.roughNanos = clock.nanoTime();
        if (parallelism < 1) {
            throw new IllegalArgumentException("a runtime needs at least one worker, got " + parallelism);
        }
        if (budget < 1) {
            throw new IllegalArgumentException("the throughput budget must be at least 1 message, got " + budget);
        }
        this.name = name != null ? name : "switchboard-" + RUNTIME_IDS.incrementAndGet();
        this.parallelism = parallelism;
        this.budget = budget;
        this.handoffLimit = Math.max(1, handoffLimit);
        this.hangs = new HangReports(this, hangReportAfterNanos);
        if (idleSpinNanos < 0) {
            throw new IllegalArgumentException("the idle spin must not be negative, got " + idleSpinNanos + " ns");
        }
        this.pool = WorkerLifecycle.newPool(this, parallelism);
        this.idleSpin = new IdleSpin(this, pool, parallelism, idleSpinNanos);
        this.watchdog = new Watchdog(this);
        this.runQueue = new RunQueue(this);
        this.concentration = runQueue.concentration();
        this.global = new Scope(null, this, null, true, 0);
        openScopes.tracking.add(global);
        if (clock instanceof ManualClock manual) {
            manual.register(openScopes);
        }
        this.timers = new TimerService(this.name, clock, this::reportUnscopedFailure);
        if (deterministic != null) {
            deterministic.bind(this);
        }
        watchdog.start();
        RuntimesOfThreads.createdOnThisThread(this);
        JfrHook.register(this);                          // JFR events while a recording runs, where jdk.jfr is
    }

    /**
     * How deep finishes may nest (a finish inside a task inside a finish, and so on). Deep nesting is served by
     * more threads, {@link WorkerWaits#MAX_HELPING_DEPTH} levels each; this bound keeps a runaway recursion from
     * creating thousands of them before it fails.
     */
    public static final int MAX_FINISH_DEPTH = 100_000;

    /** The runtime's clock at the watchdog's last look: see {@link #roughNanoTime()}. */
    private volatile long roughNanos;

    /**
     * The runtime's {@link #clock()} as of the watchdog's last look: with the system clock at most a watchdog
     * period ({@value Watchdog#WATCHDOG_PERIOD_NANOS} ns) behind, never ahead. For the timestamps of diagnostics
     * ("created 3.2 s ago") taken on hot paths, where reading the clock would cost as much as the work itself: one
     * task or one data-driven registration does about as much as a {@code System.nanoTime()} call (tens of
     * nanoseconds on a virtual machine).
     */
    public long roughNanoTime() {
        return roughNanos;
    }

    /** Written by the watchdog only, at each look. */
    void roughNanos(long now) {
        roughNanos = now;
    }

    /** Worker threads that ended with a failure ({@link WorkerDeaths}). */
    public long workerDeaths() {
        return deaths.count();
    }

    /** Where this runtime reads the time ({@link Clock}: what it drives and what it does not). */
    public Clock clock() {
        return clock;
    }

    public String name() {
        return name;
    }

    /** The default runtime's scheduler, or null until {@code TaskRuntime.defaultRuntime()} first ran. */
    public static Scheduler defaultScheduler() {
        return RuntimesOfThreads.defaultScheduler();
    }

    /** Set once, by {@code TaskRuntime.defaultRuntime()}. */
    public static void defaultScheduler(Scheduler s) {
        RuntimesOfThreads.defaultScheduler(s);
    }

    /**
     * Work started outside every task and finish ({@code what}: "start Foo@3", say) goes to the default runtime;
     * but if this thread created a runtime that is still open, it almost certainly meant that one (it is inside
     * {@code try (var rt = ...)}, outside rt's finishes), so this throws, saying how to do it.
     *
     * @throws IllegalStateException if this thread created a runtime that is not closed
     */
    public static void requireNoRuntimeOpenedHere(String what) {
        RuntimesOfThreads.requireNoRuntimeOpenedHere(what);
    }

    /** The public object that fronts this scheduler (a {@code TaskRuntime}). */
    public Object facade() {
        return facade;
    }

    public void facade(Object facade) {
        this.facade = facade;
    }

    public int parallelism() {
        return parallelism;
    }

    /**
     * Work that takes less than this, on average, is not worth waking another worker for: the threshold of the
     * workers' spreading rule ({@link SpreadRule}), also used for the messages a dispatch policy starts.
     */
    public static final long SPREAD_WORTH_NANOS = SpreadRule.SPREAD_TURN_NANOS;

    /** Messages an actor processes per activation before it yields its worker. */
    public int budget() {
        return budget;
    }

    /**
     * The budget of an actor that declared {@code declared} messages (0: none): its own, except under a
     * deterministic scheduler, where the runtime's applies to every actor, since there it is the granularity at
     * which the test decides what runs next, not a matter of speed.
     */
    public int budget(int declared) {
        return declared != 0 && deterministic == null ? declared : budget;
    }

    /** Activations one worker runs through its handoff buffer before it forks the continuation. */
    public int handoffLimit() {
        return handoffLimit;
    }

    public ForkJoinPool pool() {
        return pool;
    }

    /**
     * The next id of an actor of this runtime if the runtime numbers its actors itself, else 0 (the JVM numbers
     * them): a runtime under a {@link DeterministicScheduler} does, from 1, so that a run's ids, and the order of
     * maps keyed by them, are the same each time it runs.
     */
    public long nextOwnActorId() {
        return deterministic == null ? 0 : deterministic.nextActorId();
    }

    /** The scope of work started outside every finish. */
    public Scope globalScope() {
        return global;
    }

    /**
     * The actors and awaiting tasks not ended in every finish of this runtime that tracks some (the global scope's
     * too), each in words, with the finish it counts toward: what a test left running, wherever it started it.
     */
    public List<String> openItemsEverywhere() {
        return openScopes.openItems(global, roughNanoTime());        // the clock of their stamps (HangReports)
    }

    /** The actors and tasks of the global scope that have not ended (a snapshot). */
    public int openUnscoped() {
        return global.getPendingCount();          // the global scope's body never ends (Scope.openItems)
    }

    // ---------------------------------------------------------------- scheduling

    /** The node new work attaches to on this thread: the current node, or this runtime's global scope. */
    public Node spawnContext() {
        Node n = Context.current();
        return n != null ? n : global;
    }

    /**
     * Schedules a task: on a worker of this runtime, into the worker's deque, where idle workers can steal it;
     * from any other thread, into the shared queue.
     */
    public void submit(Node task) {
        if (onWorker()) {
            task.forkToDeque(null);
        } else {
            share(task, false);
        }
    }

    /** Whether the calling thread is a worker of this runtime. */
    public boolean onWorker() {
        return Thread.currentThread() instanceof Worker w && w.scheduler == this;
    }

    /**
     * Schedules an actor activation through the current worker's handoff buffer when there is one: it runs after
     * what the buffer holds, on this warm core. From any other thread, in the shared queue.
     */
    public void activate(Node activation) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.handoff(activation);
        } else {
            share(activation, false);
        }
    }

    /**
     * Like {@link #activate}, for work that waits behind something this thread runs first and that may turn out
     * long (the message a monitor's turn continues with): while another worker is idle, the watchdog is told to
     * look every {@value Watchdog#HOLDING_WATCHDOG_PERIOD_NANOS} ns ({@link SpreadRule#sawShortTurnChance}), and takes
     * the work to the shared queue if this worker makes no progress meanwhile.
     */
    public void activateBehind(Node activation) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.handoff(activation);
            w.spreadRule.sawWorkBehind();
        } else {
            share(activation, false);
        }
    }

    /**
     * Schedules a data-driven task that has just become ready: on a worker of this runtime, to run next there,
     * before what its handoff buffer holds ({@link Worker#handoffNext}); from any other thread, in the shared queue.
     */
    public void activateNext(Node task) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.handoffNext(task);
        } else {
            share(task, false);
        }
    }

    /**
     * Re-queues work that has used up its turn (an actor after its throughput budget, a handoff chain after its
     * limit) behind everything else that waits in the shared queue ({@link RunQueue}). Called on a worker.
     */
    public void yieldTurn(Node task) {
        share(task, onWorker());
    }

    /**
     * Queues {@code node} in the shared queue, or gives it to the deterministic scheduler if there is one (see
     * "The decision point"); a refusal (closed, out of memory) is the node's failure.
     */
    void share(Node node, boolean onWorker) {
        try {
            if (deterministic == null) {
                if (onWorker && node.concentrates() && concentration.keeps(Thread.currentThread())) {
                    concentration.giveAway(node, true);   // the owner keeps its actors (Concentration, R3)
                    return;
                }
                runQueue.offer(node, onWorker);
                if (closed && (pool.isTerminating() || pool.isTerminated())) {
                    refuseQueued();                       // the pool runs nothing now, its pumps neither
                }
            } else {
                deterministic.ready(node);
            }
        } catch (Throwable t) {
            node.refused(t);
        }
    }

    /**
     * Ends the turn of {@code task}, which used up its budget, if other work waits for this thread, and re-queues
     * it behind that work: behind the shared queue ({@link #yieldTurn}) or, when what waits is activations handed
     * off to this worker, behind them in the handoff buffer, so they run now, on this warm core, instead of
     * waiting for the task's queue to empty or for the watchdog. Returns false, re-queueing nothing, when nothing
     * waits: the caller goes on ({@link #turnGoesOn}).
     */
    public boolean yieldIfOthersWaiting(Node task) {
        if (othersWaiting()) {
            yieldTurn(task);
            return true;
        }
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this && w.hasHandoffs()) {
            w.handoff(task);
            return true;
        }
        return false;
    }

    /**
     * The turn of {@code task}, which has used up its budget of {@code units} messages, goes on (nothing waits for
     * this thread, or the task has nothing left that another turn would run sooner): its work so far counts as a
     * turn's ({@link Worker#turnGoesOn}).
     */
    public void turnGoesOn(Node task, int units) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.turnGoesOn(task, units);
        }
    }

    /**
     * Whether other work waits for the current worker: tasks in its own deque, entries in the shared queue; under
     * a deterministic scheduler, always (a turn that used up its budget ends there, so that the test decides what
     * goes next, even when nothing else is ready: a timer may be due, and an actor that keeps itself busy would
     * otherwise never give the test a decision).
     * When nothing does, work that used up its turn may simply go on; yielding would only cost a queue round
     * trip and wake an idle worker for nothing.
     */
    public boolean othersWaiting() {
        return ForkJoinTask.getQueuedTaskCount() > 0 || !runQueue.isEmpty() || deterministic != null;
    }

    // ---------------------------------------------------------------- spreading and idle workers

    /**
     * Whether workers that run out of work spin for more before they park ({@code TaskRuntime.Builder.idleSpin}):
     * work made stealable then is taken within microseconds, without a wake-up.
     */
    public boolean spinsWhenIdle() {
        return idleSpin.nanos != 0;
    }

    /**
     * Whether work forked now would be taken by an idle worker within microseconds, without a wake-up: idle workers
     * spin ({@link #spinsWhenIdle}), or one spins for work now (for expected parallel work, say).
     */
    public boolean forksTakenAtOnce() {
        return idleSpin.nanos != 0 || idleSpin.spinningWorkers() > 0;
    }

    /**
     * Parallel work is on its way (a dispatch policy made a message a task while another was running): for up to
     * 50 µs, a worker that runs out of work spins for it rather than park (see {@code IdleSpin}). Nothing on a
     * runtime of one worker.
     */
    public void expectParallelWork() {
        if (parallelism() > 1) {
            idleSpin.expectWork();
        }
    }

    /**
     * Whether some worker is idle now (parked, about to park, or spinning for work under a configured idle spin):
     * a hint.
     */
    public boolean hasIdleWorkers() {
        return idleSpin.idleWorkers();
    }

    /** How long an idle worker spins for work before it parks, in nanoseconds (0: not at all). */
    public long idleSpinNanos() {
        return idleSpin.nanos;
    }

    // ---------------------------------------------------------------- waiting ({@link FinishWait})

    /** Waiting for work to end: a finish, a future's value, any blocking wait of the runtime's ({@link FinishWait}). */
    public FinishWait finishes() {
        return finishes;
    }

    /**
     * Runs {@code action} on the current thread with this runtime's global scope as the current node, so any work
     * it starts belongs to no actor and no finish; a failure goes to the unscoped-failure handler.
     */
    public void runInGlobalScope(Runnable action) {
        Thread t = Thread.currentThread();
        Node previous = Context.enter(t, global);
        try {
            action.run();
        } catch (Throwable failure) {
            reportUnscopedFailure(failure);
        } finally {
            Context.restore(t, previous);
        }
    }

    // ---------------------------------------------------------------- diagnostics and dead letters

    /** Hang reports and what they show: threads blocked in {@code get()}, open scopes ({@link HangReports}). */
    public HangReports hangReports() {
        return hangs;
    }

    /**
     * A blocking wait until {@code done} that {@code what} is about to make on this thread: under a deterministic
     * scheduler, fails at once inside a node it runs, and runs the program until {@code done} on the thread that
     * drives it ({@link DeterministicScheduler#awaitOnThisThread}); otherwise nothing.
     */
    public void awaitIfDeterministic(String what, BooleanSupplier done) {
        if (deterministic != null) {
            deterministic.awaitOnThisThread(what, done);
        }
    }

    /** The logger of hang reports, failures outside every finish and dead letters. */
    static final System.Logger LOG = System.getLogger("dev.switchboard");

    /** The runtime's dead letters: their counts and listeners ({@link DeadLetters}). */
    public DeadLetters deadLetters() {
        return deadLetters;
    }

    /** The counts and the snapshot behind a runtime's metrics ({@link RuntimeCounters}). */
    public RuntimeCounters counters() {
        return counters;
    }

    /** The runtime's event hook: failures, restarts, dead letters, overflows ({@link RuntimeEvents}). */
    public RuntimeEvents events() {
        return events;
    }

    /** The log of the failures that end actors, as they happen. */
    public FailureLog failureLog() {
        return failureLog;
    }

    public void unscopedFailureHandler(Consumer<Throwable> handler) {
        unscoped.handler(handler);
    }

    /** Passes a failure that no finish can rethrow to the runtime's handler. */
    public void reportUnscopedFailure(Throwable failure) {
        unscoped.report(failure);
    }

    // ---------------------------------------------------------------- life cycle ({@link Closing})

    /**
     * Throws a {@code RuntimeClosedException} naming this runtime if it has been closed: new work ({@code what})
     * is refused.
     */
    public void requireOpen(String what) {
        if (closed) {
            throw closing.refused(what);
        }
    }

    /**
     * Whether {@code failure} is a consequence of this runtime's close (a refusal, an interrupt, after the close):
     * logged as such, at INFO and without its stack trace, not as an error of the program.
     */
    public boolean isCloseConsequence(Throwable failure) {
        return closing.isConsequence(failure);
    }

    /**
     * The {@code RuntimeClosedException} for a thread of this closed runtime that was waiting in {@code what} (a
     * {@code get()} of a future nobody will put now), naming the runtime, who closed it, the thread and the wait.
     */
    public RuntimeException closedWhileBlocked(String what) {
        return closing.closedWhileBlocked(what);
    }

    /** This runtime's timer (its thread starts with the first timed action). */
    public TimerService timers() {
        return timers;
    }

    /**
     * Refuses every entry of the shared queue: called once the pool runs nothing more (its close has stopped it).
     * A pump cannot be relied on then: the JDK's {@code ForkJoinPool.externalSubmit} (25) takes a task from a thread
     * that submitted to the pool before even after the pool has terminated, and never runs it, so an offer can see
     * a pump pending that never comes; an entry it left would keep its actor's token, and the messages queued
     * behind it, for good. Each entry is taken once (the queue's poll), by whichever thread comes: the closing one,
     * or one that offered after it.
     */
    void refuseQueued() {
        Node n;
        while ((n = runQueue.poll()) != null) {
            n.refused(closing.queuedAtClose(n));
        }
    }

    /**
     * Where {@code node} waits to run, in words, for a stress test's report: the shared queue, a worker's handoff
     * buffer (a live or an ending worker's), and the pool's state. A racy snapshot; O(n) in what waits.
     */
    public String whereIs(Node node) {
        StringBuilder sb = new StringBuilder();
        if (runQueue.contains(node)) {
            sb.append("in the shared queue (pump pending ").append(runQueue.pumpPending()).append("); ");
        }
        for (Set<Worker> set : List.of(workers, endingWorkers)) {
            for (Worker w : set) {
                if (w.buffers(node)) {
                    sb.append("in the handoff buffer of ").append(w.getName()).append(w.isAlive() ? "" : " (ended)")
                            .append("; ");
                }
            }
        }
        return sb.append("pool ").append(pool.isTerminated() ? "terminated" : pool.isShutdown() ? "shut down"
                : "running").append(", ").append(pool.getQueuedTaskCount()).append(" queued in it, shared queue ")
                .append(runQueue.size()).append(closed ? ", closed" : "").toString();
    }

    /** Whether {@link #close} has been called. */
    public boolean isClosed() {
        return closed;
    }

    /** Set once, by {@link Closing#close}, under its lock. */
    void markClosed() {
        closed = true;
    }

    /** Closes the runtime; returns whether the pool ended. Idempotent. See {@link Closing#close}. */
    public boolean close(long timeout, TimeUnit unit) {
        return closing.close(timeout, unit);
    }

    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public String toString() {
        return "Scheduler[" + name + ", " + parallelism + " workers, budget " + budget + "]";
    }
}

package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The machinery behind a {@code TaskRuntime}: a work-stealing pool of {@link Worker}s, the global scope, the
 * finish protocol, dead-letter accounting, the hang diagnostic and the runtime's life cycle (close, worker deaths).
 *
 * <h2>Overview</h2>
 * Tasks are {@link Node}s executed by a {@link ForkJoinPool} in FIFO ("async") mode. Tasks spawned on a worker
 * are forked so that idle workers can steal them; actor activations triggered by a send on a worker, and
 * data-driven tasks whose last input a task put, go through the worker's handoff buffer ({@link #activate});
 * everything else (work from outside the pool, work that used up its turn, activations the watchdog moved) waits
 * in the shared FIFO queue ({@link RunQueue}), which is what makes the runtime fair: the pool alone is not (see
 * RunQueue).
 *
 * <p>{@link #runFinish} runs a finish body with a fresh {@link Scope} as the current node, then waits for the
 * scope. A waiting worker first helps, never with unrelated work: it runs the queued tasks of this finish from its
 * own deque ({@link Node#helpComplete(int)}), then those in any worker's deque, the tasks of finishes nested in it
 * included (a nested scope is a child of the node that opened it), by joining the scope in slices
 * ({@link #JOIN_SLICE_NANOS}). Only when it has found nothing to run for {@link #STEP_ASIDE_NANOS} does it block,
 * through {@link ForkJoinPool#managedBlock}, which lets the pool add a compensating worker, so nested finishes
 * cannot deadlock the pool even with one worker.
 */
public final class Scheduler {
    private static final AtomicInteger RUNTIME_IDS = new AtomicInteger();

    private final String name;
    private final int parallelism;
    private final int budget;
    private final int handoffLimit;
    private final ForkJoinPool pool;
    private final Scope global;
    private final RunQueue runQueue;

    private final LongAdder deadLetters = new LongAdder();
    private final java.util.concurrent.atomic.AtomicLong workerDeaths = new java.util.concurrent.atomic.AtomicLong();
    private volatile Throwable lastDeath;
    /** What every dead letter is given to: the subscribed listeners, or the default logging while there are none. */
    private final Consumer<Object> deadLetterListener = this::dispatchDeadLetter;
    /** The listeners subscribed to dead letters, oldest first; replaced (never changed) while holding the lock. */
    private volatile Consumer<Object>[] deadLetterListeners = NO_LISTENERS;
    private final Object deadLetterListenersLock = new Object();
    private volatile Consumer<Throwable> unscopedFailureHandler;

    private final long hangReportAfterNanos;
    /** How long a worker out of work looks for more before it parks (0: not at all); see {@link Worker#spinForWork}. */
    final long idleSpinNanos;
    /** Workers in {@link Worker#spinForWork} now: idle for the spreading rules, active for the pool. */
    private final AtomicInteger spinning = new AtomicInteger();
    /** Times a spinning worker found work, for tests and diagnostics. */
    private final LongAdder spinFinds = new LongAdder();
    private volatile Consumer<String> hangReporter;
    private final Set<Scope> waitingScopes = ConcurrentHashMap.newKeySet();
    private final Set<Scope> trackingScopes = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile String closedBy;
    /** Held by close() while it closes: a concurrent close() waits for it. */
    private final Object closing = new Object();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final Thread watchdog;
    /**
     * The watchdog's looks so far (written by the watchdog only): a worker closes its window of votes
     * ({@link Worker#vote}) at its first vote after this changes, and publishes it only if it is of the look
     * before, so that the windows the watchdog sums cover about one look each.
     * Volatile so that a worker sees a new look within a vote or two; a vote reads it once per
     * {@value Worker#VOTE_PERIOD} turns, and on x86 a volatile read costs what a plain one does.
     */
    private volatile int lookEpoch;

    /** Whether short turns are spread at all, decided by the watchdog ({@link SpreadingTrials}). */
    private final SpreadingTrials spreadingTrials = new SpreadingTrials();
    private volatile Object facade;
    private final TimerService timers;

    public Scheduler(String name, int parallelism, int budget, int handoffLimit, long hangReportAfterNanos) {
        this(name, parallelism, budget, handoffLimit, hangReportAfterNanos, 0);
    }

    /**
     * @param idleSpinNanos how long a worker that ran out of work keeps looking for more before it returns to the
     *                      pool, which parks it ({@link Worker#spinForWork}); 0 for not at all
     */
    public Scheduler(String name, int parallelism, int budget, int handoffLimit, long hangReportAfterNanos,
                     long idleSpinNanos) {
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
        this.hangReportAfterNanos = hangReportAfterNanos;
        if (idleSpinNanos < 0) {
            throw new IllegalArgumentException("the idle spin must not be negative, got " + idleSpinNanos + " ns");
        }
        this.idleSpinNanos = idleSpinNanos;
        AtomicInteger workerIds = new AtomicInteger();
        this.pool = new ForkJoinPool(parallelism, p -> {
            // Never throws: the pool rethrows a factory's exception into whichever thread asked for a worker,
            // which can be a worker between tasks (it would die, and the pool would cancel its queued tasks).
            // Without memory for a thread, the pool simply runs with the workers it has.
            try {
                Worker w = new Worker(p, this);
                w.setName(this.name + "-worker-" + workerIds.incrementAndGet());
                workers.add(w);
                return w;
            } catch (Throwable noMemory) {
                return null;
            }
        }, (thread, failure) -> workerDied(failure), true);
        this.watchdog = Thread.ofPlatform().daemon().name(this.name + "-watchdog").unstarted(this::watch);
        this.runQueue = new RunQueue(this);
        this.global = new Scope(null, this, null, true, 0);
        trackingScopes.add(global);
        this.unscopedFailureHandler = this::logUnscopedFailure;
        this.hangReporter = Scheduler::logHangReport;
        this.timers = new TimerService(this.name, this::reportUnscopedFailure);
        watchdog.start();
        createdOnThisThread();
    }

    /** Tasks a worker waiting in a finish runs for it before it looks at the shared queue again. */
    static final int HELP_BITE = 64;
    /**
     * How long a worker waiting in a finish steps aside (blocks, so the pool activates or adds a worker) when work
     * waits in the shared queue, before it helps its finish again; and how long it looks for the finish's tasks in
     * other workers' deques, finding none, before it blocks.
     */
    static final long STEP_ASIDE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * How deep finishes may nest (a finish inside a task inside a finish, and so on). Deep nesting is served by
     * more threads, {@link Worker#MAX_HELPING_DEPTH} levels each; this bound keeps a runaway recursion from
     * creating thousands of them before it fails.
     */
    public static final int MAX_FINISH_DEPTH = 100_000;

    /**
     * How long a worker waiting for a future's value, or in a finish whose tasks run elsewhere, waits in one go for
     * the producer (the finish) to end before it looks again for tasks of its subtree to help with
     * ({@link #helpProduce}, {@link #runFinish}).
     */
    static final long JOIN_SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /** How often the watchdog looks for workers holding hidden handoffs while making no progress. */
    static final long WATCHDOG_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * How often it looks while some worker has short turns it could spread to an idle worker
     * ({@link Worker#sawShortTurnChance}): activations held back wait for it if the turn running now is a long one,
     * and its looks time {@link SpreadingTrials}.
     */
    static final long HOLDING_WATCHDOG_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** {@link System#nanoTime()} at the watchdog's last look: see {@link #roughNanoTime()}. */
    private volatile long roughNanos = System.nanoTime();

    /**
     * {@link System#nanoTime()} as of the watchdog's last look, at most a watchdog period
     * ({@value #WATCHDOG_PERIOD_NANOS} ns) behind, never ahead. For the timestamps of diagnostics ("created 3.2 s
     * ago") taken on hot paths, where reading the clock would cost as much as the work itself: one task or one
     * data-driven registration does about as much as a {@code System.nanoTime()} call (tens of nanoseconds on a
     * virtual machine).
     */
    public long roughNanoTime() {
        return roughNanos;
    }

    /**
     * The watchdog: every period ({@value #WATCHDOG_PERIOD_NANOS} ns; {@value #HOLDING_WATCHDOG_PERIOD_NANOS} ns
     * while a worker has short turns it could spread to an idle worker, see {@link Worker#sawShortTurnChance}), it
     * advances {@link #roughNanoTime()}, and any worker that has activations in its handoff buffer and has
     * started no node since the previous look (it is blocked in user code, or running one long message) loses them
     * to the shared queue, where the other workers pick them up. Each look also tells {@link SpreadingTrials} how
     * much work the workers have done, which decides whether short turns are spread. Bounds how long a handed-off
     * message can wait behind a busy or blocked worker, and rules out deadlock when a worker blocks waiting for
     * work it handed to itself. With one worker, and no thread the pool added while another waits, there is nobody
     * else to run them, so it leaves the buffers alone. It also submits a pump for the shared queue when entries
     * wait and none is pending (the pool refused the last one). It allocates nothing per look unless it submits a
     * pump, and survives any failure of its own (an OutOfMemoryError, say): it must outlive the program's troubles
     * to be of use.
     */
    private void watch() {
        boolean chances = false;
        while (!pool.isShutdown()) {
            LockSupport.parkNanos(this, chances ? HOLDING_WATCHDOG_PERIOD_NANOS : WATCHDOG_PERIOD_NANOS);
            long now = System.nanoTime();
            roughNanos = now;
            lookEpoch++;                          // the only writer: the workers' windows of votes close
            chances = false;
            try {
                if (!runQueue.isEmpty()) {
                    runQueue.signal(false);       // a pump the pool refused (out of memory) is submitted again
                }
            } catch (Throwable t) {
                // refused again: retried at the next look
            }
            if (parallelism == 1 && workers.size() < 2) {
                continue;                         // nobody else to run them (the pool may add threads later)
            }
            try {
                long work = 0;
                long voted = 0;
                long leading = 0;
                for (Worker w : workers) {
                    long p = w.progress();
                    if (w.watchdogSeen == p && w.hasBuffered()) {
                        w.stealBuffered();
                    }
                    w.watchdogSeen = p;
                    work += w.work();
                    leading += w.leadingWork();   // first: see Worker#votedWork
                    voted += w.votedWork();
                    if (w.sawShortTurnChance) {
                        w.sawShortTurnChance = false;
                        chances = true;
                    }
                }
                spreadingTrials.look(now, work, chances, voted, leading);
            } catch (Throwable t) {
                // keep watching; what failed (an allocation, most likely) is retried at the next look
            }
        }
    }

    void workerEnded(Worker w) {
        workers.remove(w);
    }

    /**
     * A worker thread ended with {@code failure}: something escaped the pool's own loop (Switchboard's code never
     * lets anything escape a task, but the pool itself rethrows, into whichever thread asked for a new worker, an
     * OutOfMemoryError from starting one). The pool starts a replacement when it next has work, and cancels the
     * tasks left in the dead worker's deque; the worker moved them to the shared queue first if it could
     * ({@link Worker#onTermination}). Since work may still have been lost, every finish opened before this moment
     * stops waiting with the failure ({@link Scope#isReleasable}): a finish must fail, never hang. Nothing here may
     * need memory to take effect (the failure is most likely an OutOfMemoryError): the death is two field writes,
     * and the waiting finishes are woken if possible and otherwise notice within
     * {@link Scope#DEATH_CHECK_PERIOD_NANOS}. The death is counted and reported; this method never throws.
     */
    private void workerDied(Throwable failure) {
        lastDeath = failure;                      // before the count: a scope that sees the count sees the cause
        workerDeaths.incrementAndGet();
        try {
            for (Scope s : waitingScopes) {
                s.wakeWaiter();                   // prompt; without memory the waiters see it at their next check
            }
        } catch (Throwable ignored) {
            // Scope.block checks every DEATH_CHECK_PERIOD_NANOS anyway
        }
        try {
            reportUnscopedFailure(failure);
        } catch (Throwable ignored) {
            // reportUnscopedFailure already falls back to printing; nothing more to do without memory
        }
    }

    /** What killed the last worker that died, or null. */
    Throwable lastDeath() {
        return lastDeath;
    }

    /** Worker threads that ended with a failure (see {@link #workerDied}). */
    public long workerDeaths() {
        return workerDeaths.get();
    }

    public String name() {
        return name;
    }

    private static volatile Scheduler defaultScheduler;

    /** The default runtime's scheduler, or null until {@code TaskRuntime.defaultRuntime()} first ran. */
    public static Scheduler defaultScheduler() {
        return defaultScheduler;
    }

    /** Set once, by {@code TaskRuntime.defaultRuntime()}. */
    public static void defaultScheduler(Scheduler s) {
        defaultScheduler = s;
        List<Scheduler> here = CREATED_HERE.get();
        if (here != null) {
            here.remove(s);                // the default runtime is never the surprise
        }
    }

    /** The runtimes each thread created, while they may be open (pruned of closed ones as they are looked at). */
    private static final ThreadLocal<List<Scheduler>> CREATED_HERE = new ThreadLocal<>();

    private void createdOnThisThread() {
        List<Scheduler> here = CREATED_HERE.get();
        if (here == null) {
            CREATED_HERE.set(here = new java.util.ArrayList<>(2));
        }
        here.removeIf(Scheduler::isClosed);
        here.add(this);
    }

    /**
     * Work started outside every task and finish ({@code what}: "start Foo@3", say) goes to the default runtime;
     * but if this thread created a runtime that is still open, it almost certainly meant that one (it is inside
     * {@code try (var rt = ...)}, outside rt's finishes), so this throws, saying how to do it.
     *
     * @throws IllegalStateException if this thread created a runtime that is not closed
     */
    public static void requireNoRuntimeOpenedHere(String what) {
        List<Scheduler> here = CREATED_HERE.get();
        if (here == null) {
            return;
        }
        here.removeIf(Scheduler::isClosed);
        if (here.isEmpty()) {
            CREATED_HERE.remove();         // nothing kept for a thread whose runtimes are all closed
        } else {
            Scheduler open = here.get(here.size() - 1);
            throw new IllegalStateException(what + " was called outside every finish, on thread '"
                    + Thread.currentThread().getName() + "', which created runtime '" + open.name + "' and has not"
                    + " closed it: it would run on the default runtime, not on '" + open.name + "'. Call it inside"
                    + " that runtime's finish (rt.finish(() -> ...)); to use the default runtime on purpose, call it"
                    + " inside TaskRuntime.defaultRuntime().finish(() -> ...)");
        }
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
     * workers' spreading rule ({@link Worker}), also used for the messages a dispatch policy starts.
     */
    public static final long SPREAD_WORTH_NANOS = Worker.SPREAD_TURN_NANOS;

    /** Messages an actor processes per activation before it yields its worker. */
    public int budget() {
        return budget;
    }

    /** Activations one worker runs through its handoff buffer before it forks the continuation. */
    public int handoffLimit() {
        return handoffLimit;
    }

    public ForkJoinPool pool() {
        return pool;
    }

    /** The scope of work started outside every finish. */
    public Scope globalScope() {
        return global;
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
            fork(task);
        } else {
            share(task, false);
        }
    }

    /** Whether entries wait in the shared queue. */
    boolean sharedWorkWaits() {
        return !runQueue.isEmpty();
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
     * look every {@value #HOLDING_WATCHDOG_PERIOD_NANOS} ns ({@link Worker#sawShortTurnChance}), and takes the work
     * to the shared queue if this worker makes no progress meanwhile.
     */
    public void activateBehind(Node activation) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.handoff(activation);
            if (!w.sawShortTurnChance && idleWorkers()) {
                w.sawShortTurnChance = true;
            }
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

    /** Forks {@code task} into the current worker's deque; a refusal (out of memory) is the task's failure. */
    void fork(Node task) {
        fork(task, null);
    }

    /**
     * Forks {@code task}; when {@code spreader} is not null, as a {@link Node.Spread} that reports to
     * {@link #spreadChainEnded} how far the chain it starts on another worker gets.
     */
    void fork(Node task, Worker spreader) {
        ForkJoinTask<?> pushed = spreader == null ? task.poolTask() : new Node.Spread(task, spreader);
        try {
            pushed.fork();
        } catch (Throwable t) {
            // The pool throws either before storing the task (a full deque it could not grow) or after (it failed
            // to start a worker it then wanted): only a task it does not hold is refused; one it holds will run.
            if (t instanceof java.util.concurrent.RejectedExecutionException || pushed.tryUnfork()) {
                task.refused(t);
            } else {
                Failures.lastResort(task.scope(), t);
            }
        }
    }

    /**
     * How many turns a chain that starts with a spread activation runs on the worker that took it: a moving
     * average (weight 1/8) in eighths of a turn, written by the thieves without synchronisation (a hint; a lost
     * update only delays it). Starts at {@link #SPREAD_CHAIN_TURNS}, so spreading is tried.
     */
    private int spreadChainEighths = 8 * SPREAD_CHAIN_TURNS;
    /** Chains of fewer turns than this, on average, do not pay for the spreading that started them. */
    static final int SPREAD_CHAIN_TURNS = 3;

    /** A chain started by a spread activation ran {@code turns} turns on the worker that stole it. */
    void spreadChainEnded(int turns) {
        int e = spreadChainEighths;
        spreadChainEighths = e + ((Math.min(turns, 64) * 8 - e) >> 3);
    }

    /** Whether chains started by spread activations get far enough on their new worker to pay for the move. */
    boolean spreadingPays() {
        return spreadChainEighths >= 8 * SPREAD_CHAIN_TURNS;
    }

    /** Queues {@code node} in the shared queue; a refusal (closed, out of memory) is the node's failure. */
    void share(Node node, boolean onWorker) {
        try {
            runQueue.offer(node, onWorker);
        } catch (Throwable t) {
            node.refused(t);
        }
    }

    /** Submits a pump of the shared queue in place of one taken out of a deque (see {@link RunQueue#replacePump}). */
    void replacePump() {
        try {
            runQueue.replacePump();
        } catch (Throwable t) {
            // refused (closed, or no memory): the watchdog signals again while entries wait
        }
    }

    /** For a busy worker: the oldest entry of the shared queue, or null. */
    Node pollShared() {
        return runQueue.poll();
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
     * The turn of {@code task}, which has used up its budget, goes on (nothing waits for this thread, or the task
     * has nothing left that another turn would run sooner): its work so far counts as a turn's
     * ({@link Worker#turnGoesOn}).
     */
    public void turnGoesOn(Node task) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.turnGoesOn(task, budget);
        }
    }

    /**
     * Whether other work waits for the current worker: tasks in its own deque, or entries in the shared queue.
     * When nothing does, work that used up its turn may simply go on; yielding would only cost a queue round
     * trip and wake an idle worker for nothing.
     */
    public boolean othersWaiting() {
        return ForkJoinTask.getQueuedTaskCount() > 0 || !runQueue.isEmpty();
    }

    /**
     * For tests: the work the workers have counted so far ({@link Worker#work}), the work of their votes in the
     * windows they closed ({@link Worker#vote}), and the part of it that each window's leading node did.
     */
    long[] workCounts() {
        long work = 0;
        long voted = 0;
        long leading = 0;
        for (Worker w : workers) {
            work += w.work();
            leading += w.leadingWork();
            voted += w.votedWork();
        }
        return new long[] {work, voted, leading};
    }

    /** The watchdog's looks so far (see {@link #lookEpoch}). */
    int lookEpoch() {
        return lookEpoch;
    }

    /** The trials that decide whether short turns are spread (for tests). */
    SpreadingTrials spreadingTrials() {
        return spreadingTrials;
    }

    /** Whether short turns stay on their worker now instead of going to idle workers ({@link SpreadingTrials}). */
    boolean holdsShortTurns() {
        return spreadingTrials.holdsShortTurns();
    }

    /**
     * Whether some worker is idle (parked, about to park, or spinning for work), so that work made stealable now
     * would run sooner.
     */
    boolean idleWorkers() {
        int active = pool.getActiveThreadCount();
        return active < parallelism || (idleSpinNanos != 0 && active - spinning.get() < parallelism);
    }

    /**
     * Whether workers that run out of work spin for more before they park ({@code TaskRuntime.Builder.idleSpin}):
     * work made stealable then is taken within microseconds, without a wake-up.
     */
    public boolean spinsWhenIdle() {
        return idleSpinNanos != 0;
    }

    /** How long an idle worker spins for work before it parks, in nanoseconds (0: not at all). */
    public long idleSpinNanos() {
        return idleSpinNanos;
    }

    void spinStarted() {
        spinning.incrementAndGet();
    }

    void spinEnded() {
        spinning.decrementAndGet();
    }

    void spinFound() {
        spinFinds.increment();
    }

    /** Workers spinning for work now (for tests and diagnostics). */
    public int spinningWorkers() {
        return spinning.get();
    }

    /** Times a spinning worker found work so far (for tests and diagnostics). */
    public long spinFinds() {
        return spinFinds.sum();
    }

    /**
     * Called on a worker of this runtime by a {@code get()} whose value {@code producer} computes, before it blocks:
     * if no thread has started the producer, runs it here; otherwise helps with the queued tasks the producer
     * spawned, in any worker's deque (its subtree: what its value may depend on, never unrelated work), as
     * {@code ForkJoinTask.join} helps, and, while there are none, waits for up to {@link #STEP_ASIDE_NANOS}.
     * Returns when the value (or failure) is there or when that time has passed without work to help; the caller
     * then blocks, and the pool may add a thread for the wait. A divide-and-conquer recursion on futures therefore
     * runs on the workers it has, as it does on a {@code ForkJoinPool}; only a wait with nothing to help and no
     * quick end costs a thread.
     * Past {@link Worker#MAX_HELPING_DEPTH} nested waits this thread does not help (its stack is deep enough).
     */
    public void helpProduce(ProducingTask producer) {
        Worker w = (Worker) Thread.currentThread();
        if (w.nestedWaits() >= Worker.MAX_HELPING_DEPTH) {
            return;
        }
        w.enterBlocking();
        try {
            if (!producer.isClaimed()) {
                producer.tryUnfork();              // usually the newest task of this deque: leave no stale entry
                w.runChain(producer);              // runs it unless another thread claims it first (run())
            }
            long idleSince = 0;
            while (!producer.valueReady()) {
                long before = w.progress();
                // Runs queued tasks of the producer's subtree from any worker's deque, then waits, for one slice at
                // most, for the producer to mark itself done, which it does once its value is there.
                producer.quietlyJoinUninterruptibly(JOIN_SLICE_NANOS, TimeUnit.NANOSECONDS);
                if (w.progress() != before) {
                    idleSince = 0;
                    continue;
                }
                long now = System.nanoTime();
                if (idleSince == 0) {
                    idleSince = now;
                } else if (now - idleSince >= STEP_ASIDE_NANOS) {
                    return;
                }
            }
        } finally {
            w.exitBlocking();
        }
    }

    // ---------------------------------------------------------------- finish

    /**
     * How {@link #runFinish} runs a body whose type belongs to the calling package (this one sits below it): a
     * method reference such as {@code TaskBody::run}, which captures nothing, so that a finish allocates nothing
     * for it.
     */
    @FunctionalInterface
    public interface BodyRunner<B> {
        /** Runs {@code body}; whatever it throws, checked or not, is a failure of the finish. */
        void run(B body) throws Exception;
    }

    /**
     * Runs {@code body} (with {@code runner}) as a finish and waits until it and everything it spawned have ended,
     * until {@code timeoutNanos} (if positive) has passed, or until a fatal failure ({@link Failures#isFatal})
     * arrives. Returns the scope; the caller checks {@link Scope#isEnded()} and rethrows {@link Scope#failures()}.
     * If the finish stopped waiting early, the scope's outstanding work is adopted by the enclosing context (or the
     * global scope), so the enclosing finish still waits for it and later failures reach it.
     */
    public <B> Scope runFinish(B body, BodyRunner<? super B> runner, long timeoutNanos) {
        requireOpen("finish");
        Thread thread = Thread.currentThread();
        Node outer = Context.current();
        int depth = outer == null ? 1 : outer.scope().depth() + 1;
        if (depth > MAX_FINISH_DEPTH) {
            throw new IllegalStateException("finish nested " + depth + " deep: more than the " + MAX_FINISH_DEPTH
                    + " levels a runtime supports (each level beyond " + Worker.MAX_HELPING_DEPTH
                    + " on one thread makes the pool add a thread); is a recursion missing its base case?");
        }
        // A nested finish is a child of the node that opens it: one spawn tree, so a worker waiting for the outer
        // finish can help with the tasks of finishes nested below it (on another worker, say).
        Scope scope;
        if (outer == null) {
            scope = new Scope(null, this, null, false, depth);
        } else {
            Node parent = outer.attachChild();
            try {
                scope = new Scope(parent, this, outer.owner(), false, depth);
            } catch (Throwable t) {          // no memory, no stack: the child never existed
                parent.addToPendingCount(-1);
                throw t;
            }
        }
        try {
            Node previous = Context.enter(thread, scope);
            try {
                runner.run(body);
            } catch (Throwable t) {
                scope.addFailure(t);
            } finally {
                scope.sealSpawns();
                Context.restore(thread, previous);
            }
        } finally {
            // the body has ended, even if something above threw (a StackOverflowError, say): a nested scope is
            // counted in its parent, which would otherwise wait for it forever
            scope.tryComplete();
        }
        if (!scope.isEnded() && !helpedToEnd(scope, thread)) {
            await(scope, thread, timeoutNanos);
            if (!scope.isEnded()) {
                scope.adoptInto(outer != null ? outer : global.attachChild());
            }
        }
        return scope;
    }

    /**
     * The common case of a finish on a worker, before any bookkeeping of a wait: its tasks are still in this
     * worker's deque (nobody stole them), and running them here ends it. Returns whether the scope has ended.
     */
    private static boolean helpedToEnd(Scope scope, Thread thread) {
        if (!(thread instanceof Worker w) || w.nestedWaits() >= Worker.MAX_HELPING_DEPTH) {
            return false;
        }
        w.enterBlocking();
        try {
            scope.helpComplete(HELP_BITE);
        } finally {
            w.exitBlocking();
        }
        return scope.isEnded();
    }

    private void await(Scope scope, Thread thread, long timeoutNanos) {
        Worker w = thread instanceof Worker ww ? ww : null;
        long start = System.nanoTime();
        // Helping runs the finish's tasks on this thread's stack, and a task may open a finish of its own: deep
        // nesting would overflow the stack. Past a depth, this thread only blocks and another runs the tasks.
        boolean help = w != null && w.nestedWaits() < Worker.MAX_HELPING_DEPTH;
        long failAt = timeoutNanos > 0 ? start + timeoutNanos : 0;
        long reportAt = hangReportAfterNanos > 0 ? start + hangReportAfterNanos : 0;
        long reportProgress = reportAt != 0 ? workersProgress() : 0;
        waitingScopes.add(scope);
        if (w != null) {
            w.enterBlocking();
        }
        try {
            long idleSince = 0;
            while (!scope.isEnded() && scope.stopped() == null) {
                if (closed) {                    // after add: close() either sees this scope or we see closed
                    scope.stop(closedWhileWaiting(scope));
                    break;
                }
                long deadline = earliest(failAt, reportAt);
                if (help) {
                    // Help in bites, so that deadlines and other work are looked at in between: this thread runs
                    // only the finish's own tasks, so while work waits in the shared queue it blocks for a moment
                    // and the pool lets another worker run it (the finish's tasks may never end: endless chains).
                    long before = w.progress();
                    scope.helpComplete(deadline == 0 ? HELP_BITE : 8);          // this deque's
                    if (scope.isEnded() || scope.stopped() != null) {
                        break;
                    }
                    if (!runQueue.isEmpty()) {
                        long soon = System.nanoTime() + STEP_ASIDE_NANOS;
                        deadline = deadline == 0 ? soon : earliest(deadline, soon);
                    } else if (deadline == 0 || System.nanoTime() - deadline < 0) {
                        if (w.progress() != before) {
                            idleSince = 0;
                            continue;               // it ran tasks, and may find more: keep helping
                        }
                        // Nothing of this finish here: its tasks (and those of the finishes nested in it) may wait
                        // in other workers' deques. Run those, as a join of a stolen task helps its thief, waiting
                        // one slice at most for the finish to end; block only after a while of finding none. The
                        // pool's join runs every task of the finish it finds before it returns: the worker stops
                        // it when the finish stops or times out, or other work waits (Worker#helpThrough).
                        w.helpThrough(scope, failAt);
                        long now = System.nanoTime();
                        if (w.progress() != before) {
                            idleSince = 0;
                        } else if (idleSince == 0) {
                            idleSince = now;
                        }
                        if ((idleSince == 0 || now - idleSince < STEP_ASIDE_NANOS)
                                && (deadline == 0 || now - deadline < 0)) {
                            continue;
                        }
                        idleSince = 0;
                    }
                }
                scope.deadline(deadline);
                if (w != null) {
                    w.beforeBlocking();
                }
                try {
                    ForkJoinPool.managedBlock(scope);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();   // not thrown by Scope.block; kept for the contract
                }
                if (scope.isEnded()) {
                    break;
                }
                if (scope.outlivedAWorker()) {
                    scope.stop(lastDeath);
                    break;
                }
                long now = System.nanoTime();
                if (reportAt != 0 && now - reportAt >= 0) {
                    long progress = workersProgress();
                    if (progress != reportProgress) {
                        // the runtime's workers started work in the last period: not stuck, look again later
                        reportProgress = progress;
                        reportAt = now + hangReportAfterNanos;
                    } else {
                        reportAt = 0;
                        Consumer<String> reporter = hangReporter;
                        if (reporter != null) {
                            try {
                                reporter.accept("Switchboard hang diagnostic: " + report(scope));
                            } catch (Throwable reporterFailed) {
                                // the reporter is the program's: its failure must not end the wait it reports on
                                reportUnscopedFailure(reporterFailed);
                            }
                        }
                    }
                }
                if (failAt != 0 && now - failAt >= 0) {
                    return;                       // timed out; the caller reports it
                }
            }
        } finally {
            scope.deadline(0);
            if (w != null) {
                w.exitBlocking();
            }
            waitingScopes.remove(scope);
        }
    }

    private static long earliest(long a, long b) {
        if (a == 0) {
            return b;
        }
        if (b == 0) {
            return a;
        }
        return a - b <= 0 ? a : b;
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

    /** Blocks the current thread (helping the pool stay live) until {@code blocker} is releasable. */
    public void block(ForkJoinPool.ManagedBlocker blocker) {
        Worker w = Thread.currentThread() instanceof Worker ww && ww.scheduler == this ? ww : null;
        if (w != null) {
            w.enterBlocking();
            w.beforeBlocking();
        }
        try {
            ForkJoinPool.managedBlock(blocker);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (w != null) {
                w.exitBlocking();
            }
        }
    }

    // ---------------------------------------------------------------- diagnostics

    /** A thread blocked in a future's {@code get()} while running {@code node}: shown by hang reports. */
    public record BlockedGet(Thread thread, Node node, Object future, long sinceNanos, StackTraceElement site) {
    }

    private final Set<BlockedGet> blockedGets = ConcurrentHashMap.newKeySet();

    /**
     * Records that the current thread, running {@code node}, blocks in {@code get()} of {@code future}, so a hang
     * report can name both (the future's {@code toString} says where it was created); the caller removes it with
     * {@link #unblocked}. The code that called {@code get()} is found by walking the stack past
     * {@code getterClass} (cheap next to blocking); there is none to name when the task's body is a method
     * reference to {@code get} itself.
     */
    public BlockedGet blockedInGet(Node node, Object future, Class<?> getterClass) {
        StackTraceElement site = StackWalker.getInstance().walk(frames -> frames
                .dropWhile(f -> !f.getClassName().equals(getterClass.getName()))
                .dropWhile(f -> f.getClassName().equals(getterClass.getName()))
                .findFirst()
                .filter(f -> !f.getClassName().startsWith(Scheduler.class.getPackageName() + "."))
                .map(StackWalker.StackFrame::toStackTraceElement).orElse(null));
        BlockedGet b = new BlockedGet(Thread.currentThread(), node, future, System.nanoTime(), site);
        blockedGets.add(b);
        return b;
    }

    public void unblocked(BlockedGet b) {
        blockedGets.remove(b);
    }

    /**
     * What keeps {@code scope} open, as a multi-line report. Never throws: a report is made while something waits
     * (a finish, a close), and describing the program's objects runs the program's code ({@code toString}).
     */
    public String report(Scope scope) {
        try {
            return buildReport(scope);
        } catch (Throwable t) {
            try {
                return scope + " (the report of what keeps it open failed: " + t + ")";
            } catch (Throwable again) {
                return "a finish (its report failed)";
            }
        }
    }

    private String buildReport(Scope scope) {
        long now = System.nanoTime();
        StringBuilder sb = new StringBuilder(scope.describe(now));
        List<String> items = scope.openItems(now);
        for (BlockedGet b : blockedGets) {
            if (b.node().scope() == scope) {
                items.add(b.node().describe() + " on thread '" + b.thread().getName() + "' has been blocked for "
                        + Durations.of(TimeUnit.NANOSECONDS.toMillis(now - b.sinceNanos())) + " in get() of "
                        + b.future() + (b.site() != null ? ", called at " + b.site() : ""));
            }
        }
        if (items.isEmpty()) {
            sb.append("\n  - no actor, awaiting task or blocked get() is open; ")
              .append("the remaining children are tasks still running or queued");
        }
        for (String item : items) {
            sb.append("\n  - ").append(item);
        }
        if (scope.anyFailure() && !scope.isGlobal()) {   // the global scope's go to the unscoped-failure handler
            appendFailuresSoFar(sb, scope.failed());
        }
        return sb.append("\n  ").append(poolState()).toString();
    }

    /**
     * If a worker is running {@code node} now (an actor's turn, a task's body): which, in what thread state, and
     * where in the program's own code, from its stack; otherwise null. A hang report then shows where an actor or
     * task waits inside its own code (a blocking call, a lock) instead of only that it has not ended.
     */
    String runningNow(Node node) {
        for (Worker w : workers) {
            if (w.current() == node) {
                Thread.State state = w.getState();
                StackTraceElement[] frames = w.getStackTrace();
                if (w.current() != node) {
                    return null;                  // it moved on meanwhile: the stack may be another node's
                }
                return "running now on thread '" + w.getName() + "' (" + state + ")" + programSite(frames);
            }
        }
        return null;
    }

    /** {@code ", in Demo.process(Demo.java:12), calling java.util.concurrent.CountDownLatch.await(...)"}, or "". */
    private static String programSite(StackTraceElement[] frames) {
        for (int i = 0; i < frames.length; i++) {
            if (isProgramFrame(frames[i])) {
                return ", in " + site(frames[i]) + (i > 0 ? ", calling " + site(frames[i - 1]) : "");
            }
        }
        return "";
    }

    /** {@code Demo.process(Demo.java:12)}: a frame without its module and class loader. */
    private static String site(StackTraceElement f) {
        String where = f.isNativeMethod() ? "native" : f.getFileName() == null ? "unknown source"
                : f.getLineNumber() >= 0 ? f.getFileName() + ":" + f.getLineNumber() : f.getFileName();
        return f.getClassName() + "." + f.getMethodName() + "(" + where + ")";
    }

    /** The packages of this library and of its modules: their frames are not the program's. */
    private static final Set<String> LIBRARY_PACKAGES = Set.of("dev.switchboard", "dev.switchboard.actor",
            "dev.switchboard.internal", "dev.switchboard.monitor", "dev.switchboard.spi", "dev.switchboard.task",
            "dev.switchboard.stm", "dev.switchboard.place");

    /**
     * Whether a frame is the program's: neither the JDK's nor this library's, told from the class name alone (a
     * report loads no class: it may run while a stuck thread holds a class loader's lock).
     */
    private static boolean isProgramFrame(StackTraceElement frame) {
        String c = frame.getClassName();
        if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("com.sun.")) {
            return false;
        }
        int dot = c.lastIndexOf('.');
        return !LIBRARY_PACKAGES.contains(dot < 0 ? "" : c.substring(0, dot));
    }

    /** Failures a report shows by name; the rest are counted. */
    private static final int REPORTED_FAILURES = 3;

    /**
     * The failures a waiting finish has collected so far (the body's own, or its tasks' and actors'): it rethrows
     * them only once all of its work has ended, and they often explain why it still waits.
     */
    private static void appendFailuresSoFar(StringBuilder sb, Scope.Failed failed) {
        if (failed.count() == 0) {
            return;                       // forwarded to the finish that adopted this one's work
        }
        sb.append("\n  ").append(failed.count()).append(failed.count() == 1 ? " failure" : " failures")
          .append(" so far:");
        int shown = Math.min(REPORTED_FAILURES, failed.kept().size());
        for (int i = 0; i < shown; i++) {
            sb.append("\n  - ").append(failed.kept().get(i));
        }
        if (failed.count() > shown) {
            sb.append("\n  - and ").append(failed.count() - shown).append(" more");
        }
    }

    /**
     * The pool as the JDK sees it, for hang reports: queued work that no worker takes while workers are idle, or a
     * worker that stays runnable without starting anything, points at the pool rather than at the program.
     */
    String poolState() {
        StringBuilder sb = new StringBuilder("pool: ").append(pool.getActiveThreadCount()).append(" of ")
                .append(parallelism).append(" workers active, ").append(pool.getQueuedTaskCount())
                .append(" tasks queued in worker deques, ").append(pool.getQueuedSubmissionCount())
                .append(" submissions queued, ").append(runQueue.size()).append(" in the shared queue");
        for (Worker w : workers) {
            sb.append("; ").append(w.getName()).append(' ').append(w.getState()).append(", ")
              .append(w.progress()).append(" nodes started");
        }
        return sb.toString();
    }

    /** Reports for every finish currently waited on, and for the global scope if anything is open there. */
    public List<String> reportOpenScopes() {
        List<String> reports = new ArrayList<>();
        for (Scope s : waitingScopes) {
            reports.add(report(s));
        }
        if (global.getPendingCount() > 0) {
            reports.add(report(global));
        }
        return reports;
    }

    /** Nodes the workers have started so far (a sum of racy reads: it changes while any worker works). */
    private long workersProgress() {
        long sum = 0;
        for (Worker w : workers) {
            sum += w.progress();
        }
        return sum;
    }

    /** The logger of hang reports, failures outside every finish and dead letters. */
    static final System.Logger LOG = System.getLogger("dev.switchboard");

    private static void logHangReport(String report) {
        LOG.log(System.Logger.Level.WARNING, report);
    }

    public void hangReporter(Consumer<String> reporter) {
        this.hangReporter = reporter;
    }

    public long hangReportAfterNanos() {
        return hangReportAfterNanos;
    }

    // ---------------------------------------------------------------- dead letters and unscoped failures

    public void countDeadLetter() {
        deadLetters.increment();
    }

    /** Adds dead letters counted before this runtime knew of them (an actor's, from before its start). */
    public void countDeadLetters(long n) {
        if (n != 0) {
            deadLetters.add(n);
        }
    }

    public long deadLetterCount() {
        return deadLetters.sum();
    }

    /**
     * What to call with each dead letter (a {@code DeadLetter}, made by the actor package), in the runtime's global
     * scope (a failure there goes to the unscoped-failure handler): every subscribed listener, or, while none is,
     * the default logging. Null would mean that nobody listens (the caller then makes no letter); it is never null
     * here, since the logging listens while nothing else does.
     */
    public Consumer<Object> deadLetterListener() {
        return deadLetterListener;
    }

    @SuppressWarnings("unchecked")
    private static final Consumer<Object>[] NO_LISTENERS = new Consumer[0];

    /** Subscribes {@code listener} to this runtime's dead letters, after those subscribed before it. */
    public void subscribeDeadLetters(Consumer<Object> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (deadLetterListenersLock) {
            Consumer<Object>[] old = deadLetterListeners;
            Consumer<Object>[] now = Arrays.copyOf(old, old.length + 1);
            now[old.length] = listener;
            deadLetterListeners = now;
        }
    }

    /**
     * Ends the subscription of {@code listener} (the latest, if the same object was subscribed more than once);
     * returns whether there was one. A letter being delivered at this moment may still reach it; none produced
     * after this returns does.
     */
    public boolean unsubscribeDeadLetters(Consumer<Object> listener) {
        synchronized (deadLetterListenersLock) {
            Consumer<Object>[] old = deadLetterListeners;
            for (int i = old.length - 1; i >= 0; i--) {
                if (old[i] == listener) {
                    Consumer<Object>[] now = old.length == 1 ? NO_LISTENERS : Arrays.copyOf(old, old.length - 1);
                    System.arraycopy(old, i + 1, now, i, old.length - 1 - i);
                    deadLetterListeners = now;
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Gives {@code letter} to every subscribed listener, in the order they subscribed; one that throws is reported
     * to the unscoped-failure handler (as a failure of the global scope the letter is delivered in) and the others
     * still hear the letter. With no listener, logs it.
     */
    private void dispatchDeadLetter(Object letter) {
        Consumer<Object>[] listeners = deadLetterListeners;
        if (listeners.length == 0) {
            logDeadLetter(letter);
            return;
        }
        for (Consumer<Object> l : listeners) {
            try {
                l.accept(letter);
            } catch (Throwable failure) {
                reportUnscopedFailure(failure);
            }
        }
    }

    /** Whether {@code n} (positive) is 10, 100, 1000, ... */
    private static boolean isPowerOfTen(long n) {
        while (n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }

    /** Dead letters the default listener logs one by one; after these it logs a count now and then. */
    private static final int LOGGED_DEAD_LETTERS = 10;
    private final java.util.concurrent.atomic.AtomicLong loggedDeadLetters = new java.util.concurrent.atomic.AtomicLong();

    /**
     * The default dead-letter listener: logs the first {@value #LOGGED_DEAD_LETTERS} ({@code System.Logger}
     * "dev.switchboard", level INFO), then one line whenever the count reaches a power of ten.
     */
    private void logDeadLetter(Object letter) {
        long n = loggedDeadLetters.incrementAndGet();
        if (n <= LOGGED_DEAD_LETTERS) {
            String text = String.valueOf(letter);
            LOG.log(System.Logger.Level.INFO, "Switchboard: dead letter in runtime '" + name + "': "
                    + (text.length() <= 300 ? text : text.substring(0, 297) + "...")
                    + (n == LOGGED_DEAD_LETTERS ? " (the last one logged; later ones are counted, and logged as"
                    + " a count at every power of ten; a listener subscribed with DeadLetter.subscribe sees each one)"
                    : ""));
        } else if (isPowerOfTen(n)) {
            LOG.log(System.Logger.Level.INFO, "Switchboard: " + n + " dead letters in runtime '" + name
                    + "' so far");
        }
    }

    public void unscopedFailureHandler(Consumer<Throwable> handler) {
        this.unscopedFailureHandler = handler != null ? handler : this::logUnscopedFailure;
    }

    /** Passes a failure that no finish can rethrow to the runtime's handler. */
    public void reportUnscopedFailure(Throwable failure) {
        try {
            unscopedFailureHandler.accept(failure);
        } catch (Throwable handlerFailed) {
            try {
                logUnscopedFailure(failure);
            } catch (Throwable ignored) {
                // no memory even to print: the failure is still counted where it was recorded
            }
        }
    }

    /** Failures the default handler logs in full; after these it logs a count now and then. */
    private static final int PRINTED_UNSCOPED_FAILURES = 20;
    private final java.util.concurrent.atomic.AtomicLong unscopedFailures = new java.util.concurrent.atomic.AtomicLong();

    /**
     * The default handler: logs the first {@value #PRINTED_UNSCOPED_FAILURES} failures ({@code System.Logger}
     * "dev.switchboard", level ERROR), then one line whenever the count reaches a power of ten, so a loop that
     * keeps failing after its finish gave up (out of memory, say) cannot flood the log.
     */
    private void logUnscopedFailure(Throwable failure) {
        long n = unscopedFailures.incrementAndGet();
        if (n <= PRINTED_UNSCOPED_FAILURES) {
            LOG.log(System.Logger.Level.ERROR, "Switchboard: failure outside every finish of runtime '" + name
                    + "' (no finish can rethrow it)", failure);
        } else if (isPowerOfTen(n)) {
            LOG.log(System.Logger.Level.ERROR, "Switchboard: " + n + " failures outside every finish of runtime '"
                    + name + "' so far; the first " + PRINTED_UNSCOPED_FAILURES + " were logged (latest: " + failure
                    + "). Set TaskRuntime.Builder.onUnscopedFailure to handle them.");
        }
    }

    // ---------------------------------------------------------------- life cycle

    /** Scopes with tracked actors or awaiting tasks that have not ended; the global scope is always here. */
    void scopeTracks(Scope scope) {
        trackingScopes.add(scope);
    }

    void scopeEnded(Scope scope) {
        trackingScopes.remove(scope);
    }

    /**
     * Throws a {@code RuntimeClosedException} naming this runtime if it has been closed: new work ({@code what})
     * is refused.
     */
    public void requireOpen(String what) {
        if (closed) {
            throw new dev.switchboard.task.RuntimeClosedException("runtime '" + name + "' is closed (" + closedBy
                    + "): cannot " + what);
        }
    }

    /** This runtime's timer (its thread starts with the first timed action). */
    public TimerService timers() {
        return timers;
    }

    /** Whether {@link #close} has been called. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the runtime. In this order: from now on new work is refused ({@link #requireOpen}); every finish
     * waiting for this runtime's work, or about to wait for actors still alive, ends with a
     * {@code RuntimeClosedException} that says what was still open
     * (the report is taken before anything is terminated); every actor still alive is terminated, its queued
     * messages and every later send becoming dead letters ({@code RUNTIME_CLOSED}); then the pool stops taking
     * tasks and the tasks already queued or running are given {@code timeout} to end, after which the workers are
     * interrupted and given one more second. Returns whether the pool ended. Idempotent. Called on a worker of
     * this runtime it does not wait (the pool cannot end while the caller runs). A concurrent call waits until the
     * first has done all of this, then returns whether the pool ended.
     */
    public boolean close(long timeout, TimeUnit unit) {
        synchronized (closing) {                  // a second close() returns once the first has done its work
            if (closed) {
                return pool.isTerminated();
            }
            closedBy = "closed by thread '" + Thread.currentThread().getName() + "'";
            closed = true;
            return closeNow(timeout, unit);
        }
    }

    private boolean closeNow(long timeout, TimeUnit unit) {
        for (Scope s : waitingScopes) {
            s.stop(closedWhileWaiting(s));
        }
        for (Scope s : trackingScopes) {
            if (!s.isGlobal() && !s.handedToNoFinish()) {
                // a finish whose body has ended but whose thread has not begun to wait yet: told the same way,
                // before its actors are terminated (which could otherwise end it as if its work had succeeded);
                // a nested finish that timed out tells the finish that took its work over. A finish that timed
                // out with no finish around it has thrown already: nobody waits to be told, and what it left
                // running ends below with its messages counted as dead letters.
                s.stop(closedWhileWaiting(s));
            }
        }
        for (Scope s : trackingScopes) {
            s.closeTracked();
        }
        pool.shutdown();
        timers.close();
        if (onWorker()) {
            return false;                 // the pool cannot end while this task runs
        }
        boolean ended = awaitPool(timeout, unit);
        if (!ended) {
            for (Worker w : workers) {    // not shutdownNow(): it would drop queued activations holding tokens
                w.interrupt();
            }
            ended = awaitPool(1, TimeUnit.SECONDS);
        }
        Node n;
        while ((n = runQueue.poll()) != null) {   // entries whose pump the pool refused
            n.refused(new dev.switchboard.task.RuntimeClosedException("runtime '" + name + "' was closed"));
        }
        return ended;
    }

    private boolean awaitPool(long timeout, TimeUnit unit) {
        try {
            return pool.awaitTermination(timeout, unit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Throwable closedWhileWaiting(Scope scope) {
        String report;
        try {
            report = report(scope);
        } catch (Throwable t) {
            report = scope.toString();
        }
        return new dev.switchboard.task.RuntimeClosedException("runtime '" + name + "' was " + closedBy
                + " while this finish waited for its work: " + report);
    }

    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public String toString() {
        return "Scheduler[" + name + ", " + parallelism + " workers, budget " + budget + "]";
    }
}

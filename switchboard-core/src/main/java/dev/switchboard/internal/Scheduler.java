package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.List;
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
 * finish protocol, dead-letter accounting and the hang diagnostic.
 *
 * <h2>Overview</h2>
 * Tasks are {@link Node}s executed by a {@link ForkJoinPool} in FIFO ("async") mode, which is fair to actors
 * that re-queue themselves after a throughput budget. Ordinary tasks are forked so that idle workers can steal
 * them; actor activations triggered by a send prefer the worker's handoff slot ({@link #activate}).
 *
 * <p>{@link #runFinish} runs a finish body with a fresh {@link Scope} as the current node, then waits for the
 * scope. A waiting worker first helps: it runs queued tasks of this finish from its own deque
 * ({@link Node#helpComplete(int)}), never unrelated ones. Only then does it block, through
 * {@link ForkJoinPool#managedBlock}, which lets the pool add a compensating worker, so nested finishes cannot
 * deadlock the pool even with one worker.
 */
public final class Scheduler {
    private static final AtomicInteger RUNTIME_IDS = new AtomicInteger();

    private final String name;
    private final int parallelism;
    private final int budget;
    private final int handoffLimit;
    private final ForkJoinPool pool;
    private final Scope global;

    private final LongAdder deadLetters = new LongAdder();
    private volatile Consumer<Object> deadLetterListener;
    private volatile Consumer<Throwable> unscopedFailureHandler;

    private final long hangReportAfterNanos;
    private volatile Consumer<String> hangReporter;
    private final Set<Scope> waitingScopes = ConcurrentHashMap.newKeySet();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final Thread watchdog;
    private volatile Object facade;

    public Scheduler(String name, int parallelism, int budget, int handoffLimit, long hangReportAfterNanos) {
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
        AtomicInteger workerIds = new AtomicInteger();
        this.pool = new ForkJoinPool(parallelism, p -> {
            Worker w = new Worker(p, this);
            w.setName(this.name + "-worker-" + workerIds.incrementAndGet());
            workers.add(w);
            return w;
        }, (thread, failure) -> reportUnscopedFailure(failure), true);
        this.watchdog = Thread.ofPlatform().daemon().name(this.name + "-watchdog").unstarted(this::watch);
        this.global = new Scope(this, null, true);
        this.unscopedFailureHandler = Scheduler::printUnscopedFailure;
        this.hangReporter = System.err::println;
        watchdog.start();
    }

    /** How often the watchdog looks for workers holding hidden handoffs while making no progress. */
    static final long WATCHDOG_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * The watchdog: every period, any worker that has activations in its handoff buffer and has started no
     * node since the previous look (it is blocked in user code, or running one long message) loses them to
     * the pool, where idle workers pick them up. Bounds how long a handed-off message can wait behind a busy
     * or blocked worker, and rules out deadlock when a worker blocks waiting for work it handed to itself.
     */
    private void watch() {
        java.util.Map<Worker, Long> lastProgress = new java.util.HashMap<>();
        while (!pool.isShutdown()) {
            LockSupport.parkNanos(this, WATCHDOG_PERIOD_NANOS);
            for (Worker w : workers) {
                long p = w.progress();
                Long before = lastProgress.put(w, p);
                if (before != null && before == p && w.hasBuffered()) {
                    w.stealBuffered();
                }
            }
            lastProgress.keySet().retainAll(workers);
        }
    }

    void workerEnded(Worker w) {
        workers.remove(w);
    }

    public String name() {
        return name;
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

    /** Messages an actor processes per activation before it yields its worker. */
    public int budget() {
        return budget;
    }

    /** Activations one worker runs through its handoff slot before it forks the continuation. */
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

    // ---------------------------------------------------------------- scheduling

    /** The node new work attaches to on this thread: the current node, or this runtime's global scope. */
    public Node spawnContext() {
        Node n = Context.current();
        return n != null ? n : global;
    }

    /** Schedules a task where idle workers can steal it. */
    public void submit(Node task) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            task.poolTask().fork();
        } else {
            pool.execute(task.poolTask());
        }
    }

    /** Whether the calling thread is a worker of this runtime. */
    public boolean onWorker() {
        return Thread.currentThread() instanceof Worker w && w.scheduler == this;
    }

    /** Schedules an actor activation, through the current worker's handoff slot when there is one. */
    public void activate(Node activation) {
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            w.handoff(activation);
        } else {
            pool.execute(activation.poolTask());
        }
    }

    /**
     * Re-queues work that has used up its turn (an actor after its throughput budget, a handoff chain after its
     * limit) behind everything else: in the pool's shared submission queue, not the worker's own deque. A
     * ForkJoinPool worker drains its own deque before it looks anywhere else, so work that re-queued itself
     * locally would starve tasks submitted from outside and tasks waiting in busy workers' deques.
     */
    public void yieldTurn(Node task) {
        pool.externalSubmit(task.poolTask());
    }

    /**
     * Ends the turn of {@code task}, which used up its budget, if other work waits for this thread, and re-queues
     * it behind that work: behind the deque and the submissions ({@link #yieldTurn}) or, when what waits is
     * activations handed off to this worker, behind them in the handoff buffer, so they run now, on this warm
     * core, instead of waiting for the task's queue to empty or for the watchdog. Returns false, re-queueing
     * nothing, when nothing waits: the caller goes on.
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
     * Whether work that only the current worker would pick up soon is waiting: tasks in its own deque, or
     * submissions from outside the pool. When nothing is, work that used up its turn may simply go on; yielding
     * would only cost a queue round trip and wake an idle worker for nothing.
     */
    public boolean othersWaiting() {
        return ForkJoinTask.getQueuedTaskCount() > 0 || pool.hasQueuedSubmissions();
    }

    /** Whether some worker is idle (parked or about to park), so that work made stealable now would run sooner. */
    boolean idleWorkers() {
        return pool.getActiveThreadCount() < parallelism;
    }

    /** Spawns {@code body} as a child of the current node. */
    public void async(Runnable body) {
        AsyncTask task = new AsyncTask(spawnContext().attachChild(), this, body);
        submit(task);
    }

    // ---------------------------------------------------------------- finish

    /**
     * Runs {@code body} as a finish and waits until it and everything it spawned have ended, or until
     * {@code timeoutNanos} (if positive) has passed. Returns the scope; the caller checks
     * {@link Scope#isEnded()} and rethrows {@link Scope#failures()}. On a timeout the scope's outstanding work
     * is adopted by the enclosing context (or the global scope), so the enclosing finish still waits for it and
     * later failures reach it.
     */
    public Scope runFinish(Runnable body, long timeoutNanos) {
        Thread thread = Thread.currentThread();
        Node outer = Context.current();
        Scope scope = new Scope(this, outer != null ? outer.owner() : null, false);
        Node previous = Context.enter(thread, scope);
        try {
            body.run();
        } catch (Throwable t) {
            scope.addFailure(t);
        } finally {
            scope.sealSpawns();
            Context.restore(thread, previous);
        }
        scope.tryComplete();                 // the body has ended
        if (!scope.isEnded()) {
            await(scope, thread, timeoutNanos);
            if (!scope.isEnded()) {
                Node adopter = outer != null ? outer : global;
                scope.adoptInto(adopter.attachChild());
            }
        }
        return scope;
    }

    private void await(Scope scope, Thread thread, long timeoutNanos) {
        Worker w = thread instanceof Worker ww ? ww : null;
        long start = System.nanoTime();
        long failAt = timeoutNanos > 0 ? start + timeoutNanos : 0;
        long reportAt = hangReportAfterNanos > 0 ? start + hangReportAfterNanos : 0;
        waitingScopes.add(scope);
        if (w != null) {
            w.enterBlocking();
        }
        try {
            while (!scope.isEnded()) {
                long deadline = earliest(failAt, reportAt);
                if (w != null) {
                    // with a deadline, help in small bites so the deadline is checked between them
                    scope.helpComplete(deadline == 0 ? Integer.MAX_VALUE : 8);
                    if (scope.isEnded()) {
                        break;
                    }
                }
                scope.deadline(deadline);
                try {
                    ForkJoinPool.managedBlock(scope);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();   // not thrown by Scope.block; kept for the contract
                }
                if (scope.isEnded()) {
                    break;
                }
                long now = System.nanoTime();
                if (reportAt != 0 && now - reportAt >= 0) {
                    reportAt = 0;
                    Consumer<String> reporter = hangReporter;
                    if (reporter != null) {
                        reporter.accept("Switchboard hang diagnostic: " + report(scope));
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

    /** What keeps {@code scope} open, as a multi-line report. */
    public String report(Scope scope) {
        long now = System.nanoTime();
        StringBuilder sb = new StringBuilder(scope.describe(now));
        List<String> items = scope.openItems(now);
        if (items.isEmpty()) {
            sb.append("\n  - no actor or awaiting task is open; ")
              .append("the remaining children are tasks still running or queued");
        }
        for (String item : items) {
            sb.append("\n  - ").append(item);
        }
        return sb.append("\n  ").append(poolState()).toString();
    }

    /**
     * The pool as the JDK sees it, for hang reports: queued work that no worker takes while workers are idle, or a
     * worker that stays runnable without starting anything, points at the pool rather than at the program.
     */
    String poolState() {
        StringBuilder sb = new StringBuilder("pool: ").append(pool.getActiveThreadCount()).append(" of ")
                .append(parallelism).append(" workers active, ").append(pool.getQueuedTaskCount())
                .append(" tasks queued in worker deques, ").append(pool.getQueuedSubmissionCount())
                .append(" submissions queued");
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

    public long deadLetterCount() {
        return deadLetters.sum();
    }

    public Consumer<Object> deadLetterListener() {
        return deadLetterListener;
    }

    public void deadLetterListener(Consumer<Object> listener) {
        this.deadLetterListener = listener;
    }

    public void unscopedFailureHandler(Consumer<Throwable> handler) {
        this.unscopedFailureHandler = handler != null ? handler : Scheduler::printUnscopedFailure;
    }

    /** Passes a failure that no finish can rethrow to the runtime's handler. */
    public void reportUnscopedFailure(Throwable failure) {
        try {
            unscopedFailureHandler.accept(failure);
        } catch (Throwable ignored) {
            printUnscopedFailure(failure);
        }
    }

    private static void printUnscopedFailure(Throwable failure) {
        System.err.println("Switchboard: failure outside every finish (no finish can rethrow it):");
        failure.printStackTrace();
    }

    // ---------------------------------------------------------------- life cycle

    /** Stops accepting work and waits up to {@code timeout} for running tasks to end. */
    public boolean shutdown(long timeout, TimeUnit unit) {
        pool.shutdown();
        try {
            if (pool.awaitTermination(timeout, unit)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pool.shutdownNow();
        return false;
    }

    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public String toString() {
        return "Scheduler[" + name + ", " + parallelism + " workers, budget " + budget + "]";
    }
}

package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Hang reports: what keeps a finish open (its open actors and tasks, the threads blocked in a future's
 * {@code get()}, what a worker is running now and where in the program's code, the pool's state), and to whom a
 * report goes when a finish waits past {@link #hangReportAfterNanos()} without the workers making progress. Owns
 * the record of blocked {@code get()} calls and the reporter. May touch: the workers (their current node, state,
 * stack and progress, read only), the scopes being waited on (read only) and the unscoped-failure handler (a
 * reporter's own failure goes there).
 */
public final class HangReports {
    private final Scheduler scheduler;
    private final long hangReportAfterNanos;
    private volatile Consumer<String> hangReporter = HangReports::logHangReport;

    HangReports(Scheduler scheduler, long hangReportAfterNanos) {
        this.scheduler = scheduler;
        this.hangReportAfterNanos = hangReportAfterNanos;
    }

    /** The words by which a report names a cycle of actors awaiting each other's replies. */
    private static final String DEADLOCK = "; a deadlock: ";

    /**
     * Gives the reporter a report of {@code scope}, which has waited past {@link #hangReportAfterNanos()} while the
     * workers made no progress; with {@code onlyIfDeadlocked}, only if the report names a deadlock (a finish
     * reported once already, which a deadlock formed in since: an idle service is not reported again, a deadlock
     * is). Returns whether the report named a deadlock (false if nobody hears reports).
     */
    boolean reportHang(Scope scope, boolean onlyIfDeadlocked) {
        Consumer<String> reporter = hangReporter;
        RuntimeEvents events = scheduler.events();
        if (reporter == null && !events.heard()) {
            return false;
        }
        try {
            String text = "Switchboard hang diagnostic: " + report(scope);
            boolean deadlock = text.contains(DEADLOCK);
            if (!onlyIfDeadlocked || deadlock) {
                deliver(text);
            }
            return deadlock;
        } catch (Throwable noMemory) {
            return false;
        }
    }

    /** Gives the reporter a report made as {@code report} says, if anybody hears. */
    private void deliver(java.util.function.Supplier<String> report) {
        Consumer<String> reporter = hangReporter;
        if (reporter != null || scheduler.events().heard()) {
            try {
                deliver(report.get());
            } catch (Throwable noMemory) {
                // no report this time
            }
        }
    }

    /** Gives the reporter (and the runtime's events) {@code text}. */
    private void deliver(String text) {
        Consumer<String> reporter = hangReporter;
        try {
            scheduler.events().publish(RuntimeEvents.Kind.HANG_REPORT, null, null, null, text);
            if (reporter != null) {
                reporter.accept(text);
            }
        } catch (Throwable reporterFailed) {
            // the reporter is the program's: its failure must not end the wait it reports on
            scheduler.reportUnscopedFailure(reporterFailed);
        }
    }

    /**
     * The watchdog's look for task failures of open finishes that no log has told of, at {@code now} (the runtime's
     * clock): a finish that has had them for {@link #hangReportAfterNanos()} and has not ended logs them
     * ({@link FailureLog#tasksFailed}), whether its thread waits for it or still runs its body (a service's body,
     * blocked until the service is told to stop). A finish that ends meanwhile throws them itself.
     */
    void logFailuresOfOpenFinishes(long now) {
        long after = hangReportAfterNanos;
        Map<Scope, Long> pending = scheduler.openScopes.failedUnlogged;
        if (after <= 0 || pending.isEmpty()) {
            return;
        }
        for (Map.Entry<Scope, Long> e : pending.entrySet()) {
            Scope scope = e.getKey();
            if (scope.isEnded()) {
                pending.remove(scope, e.getValue());
            } else if (now - e.getValue() >= after) {
                Scope.TaskFailures failed = scope.takeTaskFailuresToLog();     // takes it off the map too
                if (failed != null) {
                    scheduler.failureLog().tasksFailed(scope.name(), failed.count(), failed.first());
                }
            }
        }
    }

    /**
     * The watchdog's look for stalls, at {@code now} (real time, {@link Clock#system()}: a stall is of the machine's
     * time, whatever clock the runtime reads): a worker that has run one message of an actor, or one task, for
     * {@link #hangReportAfterNanos()} (it started no node, and the actor it runs processed nothing, since) is
     * reported once, whatever else progresses and whether or not a finish waits: which actor or task, and where in
     * the program's code the worker is. A worker waiting in the runtime (a finish, a task future's {@code get()})
     * is not stalled here; what keeps its wait open is a hang report's. Reported again only after the worker moves
     * on and stalls anew. A finish's body blocked in a {@code get()} for that long is reported too, once: no hang
     * report covers it, since its finish waits for nothing until the body returns. The report is made here (the
     * worker's stack is read now) and handed to a thread of its own: the program's reporter may take its time, and
     * the watchdog must not wait for it.
     */
    void lookForStalls(long now) {
        long after = hangReportAfterNanos;
        if (after <= 0) {
            return;
        }
        for (Worker w : scheduler.workers) {
            Node n = w.current();
            long progress = w.progress();
            long turn = n == null ? 0 : n.turnProgress();
            if (n == null || n instanceof Scope || w.blocking > 0 || progress != w.stallProgress
                    || turn != w.stallTurn) {
                w.stallProgress = progress;
                w.stallTurn = turn;
                w.stallSince = now;
                w.stallReported = false;
            } else if (!w.stallReported && now - w.stallSince >= after) {
                w.stallReported = true;
                long since = w.stallSince;
                String running = runningNow(n);
                if (running != null) {
                    String text = "Switchboard stall: " + n.describe() + " has made no progress for "
                            + Durations.of((now - since) / 1_000_000) + " (no message processed, no other work"
                            + " started on its thread); " + running;
                    reportStall(text);
                }
            }
        }
        for (BlockedGet b : blockedGets) {
            if (b.inFinishBody() && now - b.sinceRealNanos() >= after && stalledBodies.add(b)) {
                String text = "Switchboard stall: " + b.describe(scheduler.clock().nanoTime())
                        + " (the finish waits for nothing yet: its body has not returned)";
                reportStall(text);
            }
        }
    }

    /** Hands a stall report to a thread of its own: a slow reporter must not hold the watchdog. */
    private void reportStall(String text) {
        Thread.ofPlatform().daemon().name(scheduler.name() + "-stall-report").start(() -> deliver(() -> text));
    }

    /** A thread blocked in a future's {@code get()} while running {@code node}: shown by hang reports. */
    public record BlockedGet(Thread thread, Node node, Object future, long sinceNanos, long sinceRealNanos,
                             StackTraceElement site) {
        /** "the body of a finish opened by thread 'main' on thread 'main' has been blocked for 2.0 s in get() ...". */
        String describe(long now) {
            return node.describe() + " on thread '" + Threads.name(thread) + "' has been blocked for "
                    + Durations.of(TimeUnit.NANOSECONDS.toMillis(now - sinceNanos)) + " in get() of " + future
                    + (site != null ? ", called at " + site : "");
        }

        /** A finish's body, on the thread that opened it: no hang report covers it (its finish does not wait). */
        boolean inFinishBody() {
            return node instanceof Scope;
        }
    }

    private final Set<BlockedGet> blockedGets = ConcurrentHashMap.newKeySet();
    /** The finish bodies blocked in a get() that a stall report has told of, each once. */
    private final Set<BlockedGet> stalledBodies = ConcurrentHashMap.newKeySet();

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
        BlockedGet b = new BlockedGet(Thread.currentThread(), node, future, scheduler.clock().nanoTime(),
                System.nanoTime(), site);
        blockedGets.add(b);
        return b;
    }

    public void unblocked(BlockedGet b) {
        blockedGets.remove(b);
        stalledBodies.remove(b);
    }

    /**
     * Wakes every thread blocked in a {@code get()} within this runtime, at its close (after the closed flag is
     * set): a get that registers after this sees the flag once registered, so none is missed.
     */
    void wakeBlockedGets() {
        for (BlockedGet b : blockedGets) {
            LockSupport.unpark(b.thread());
        }
    }

    /**
     * What keeps {@code scope} open, as a multi-line report. Never throws: a report is made while something waits
     * (a finish, a close), and describing the program's objects runs the program's code ({@code toString}).
     */
    public String report(Scope scope) {
        return report(scope, null);
    }

    /**
     * {@link #report(Scope)}, adding to {@code ownItems} (if not null) the items of {@code scope}'s own open work it
     * lists, so that a caller that needs both describes the program's objects once.
     */
    public String report(Scope scope, List<String> ownItems) {
        try {
            return buildReport(scope, ownItems);
        } catch (Throwable t) {
            try {
                return scope + " (the report of what keeps it open failed: " + SafeText.of(t) + ")";
            } catch (Throwable again) {
                return "a finish (its report failed)";
            }
        }
    }

    private String buildReport(Scope scope, List<String> ownItems) {
        long now = scheduler.clock().nanoTime();
        // A finish, an actor, an awaiting task and an awaited reply are stamped by the rough clock (on hot paths):
        // measured against it too, their ages keep the order of the events (an await is never older than its
        // actor, an actor never older than its finish), however far the watchdog's looks fell behind.
        long rough = scheduler.roughNanoTime();
        StringBuilder sb = new StringBuilder(scope.describe(rough));
        List<String> items = scope.openItems(rough);
        if (ownItems != null) {
            ownItems.addAll(items);
        }
        for (Scope handed : scheduler.openScopes.tracking) {
            if (handed != scope && handed.handedTo(scope)) {     // a finish that stopped waiting left it this work
                for (String item : handed.openItems(rough)) {
                    items.add(item + " (left by " + handed.name() + ", which stopped waiting)");
                }
            }
        }
        for (BlockedGet b : blockedGets) {
            Scope bs = b.node().scope();
            if (bs == scope || bs.handedTo(scope)) {
                items.add(b.describe(now));
            }
        }
        runningTasks(scope, items);
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
     * Adds to {@code items} the plain tasks of {@code scope} (or of finishes nested in it) that a worker runs now,
     * each with its thread's state and where in the program's code it is: a task blocked in the program's own code
     * (a latch, a lock, a sleep) is named, as an actor blocked in {@code process} is. Actors and awaiting tasks are
     * in the scope's open items already, and a task blocked in {@code get()} among the blocked gets.
     */
    private void runningTasks(Scope scope, List<String> items) {
        for (Worker w : scheduler.workers) {
            Node n = w.current();
            if (n == null || n instanceof Scope || n.isOpen() || !within(n, scope) || blockedInGet(n)) {
                continue;
            }
            String running = runningNow(n);
            if (running != null) {
                items.add(n.describe() + "; " + running);
            }
        }
    }

    /** Whether {@code n} counts toward {@code scope}: its own finish is that one or one nested in it. */
    private static boolean within(Node n, Scope scope) {
        for (Scope s = n.scope(); s != null; ) {
            if (s == scope) {
                return true;
            }
            Node parent = (Node) s.getCompleter();
            s = parent == null ? null : parent.scope();
        }
        return false;
    }

    private boolean blockedInGet(Node n) {
        for (BlockedGet b : blockedGets) {
            if (b.node() == n) {
                return true;
            }
        }
        return false;
    }

    /**
     * If a worker is running {@code node} now (an actor's turn, a task's body): which, in what thread state, and
     * where in the program's own code, from its stack; otherwise null. A hang report then shows where an actor or
     * task waits inside its own code (a blocking call, a lock) instead of only that it has not ended.
     */
    String runningNow(Node node) {
        for (Worker w : scheduler.workers) {
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
            sb.append("\n  - ").append(SafeText.of(failed.kept().get(i)));
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
        ForkJoinPool pool = scheduler.pool;
        StringBuilder sb = new StringBuilder("pool: ").append(pool.getActiveThreadCount()).append(" of ")
                .append(scheduler.parallelism()).append(" workers active, ").append(pool.getQueuedTaskCount())
                .append(" tasks queued in worker deques, ").append(pool.getQueuedSubmissionCount())
                .append(" submissions queued, ").append(scheduler.runQueue.size()).append(" in the shared queue");
        for (Worker w : scheduler.workers) {
            sb.append("; ").append(w.getName()).append(' ').append(w.getState()).append(", ")
              .append(w.progress()).append(" nodes started");
        }
        return sb.toString();
    }

    /** Reports for every finish currently waited on, and for the global scope if anything is open there. */
    public List<String> reportOpenScopes() {
        List<String> reports = new ArrayList<>();
        for (Scope s : scheduler.openScopes.waiting) {
            reports.add(report(s));
        }
        long now = scheduler.clock().nanoTime();
        for (BlockedGet b : blockedGets) {
            if (b.inFinishBody()) {
                reports.add(b.describe(now));
            }
        }
        if (scheduler.globalScope().getPendingCount() > 0) {
            reports.add(report(scheduler.globalScope()));
        }
        return reports;
    }

    /** Nodes the workers have started so far (a sum of racy reads: it changes while any worker works). */
    long workersProgress() {
        long sum = 0;
        for (Worker w : scheduler.workers) {
            sum += w.progress();
        }
        return sum;
    }

    private static void logHangReport(String report) {
        Scheduler.LOG.log(System.Logger.Level.WARNING, report);
    }

    public void hangReporter(Consumer<String> reporter) {
        this.hangReporter = reporter;
    }

    public long hangReportAfterNanos() {
        return hangReportAfterNanos;
    }
}

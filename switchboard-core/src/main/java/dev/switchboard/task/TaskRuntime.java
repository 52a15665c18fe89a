package dev.switchboard.task;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.ClosedRuntimes;
import dev.switchboard.internal.Context;
import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.internal.FailureLog;
import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * A Switchboard runtime: a pool of work-stealing workers that runs tasks and actors, with the async-finish
 * constructs of [Unified] as methods.
 *
 * <p>Most programs use the {@linkplain #defaultRuntime() default runtime} (one worker per core) through the
 * static methods of {@link dev.switchboard.Switchboard}. Embedding code and tests create their own, with a
 * chosen number of workers, and close it:
 *
 * <pre>{@code
 * try (TaskRuntime rt = TaskRuntime.create(2)) {
 *     rt.finish(() -> {
 *         rt.async(() -> System.out.println("Task A"));
 *         rt.async(() -> System.out.println("Task B"));
 *     });                                  // both tasks have ended here
 * }
 * }</pre>
 *
 * <p>Code running inside a runtime (a task, an actor, a finish body) can use the static methods of
 * {@code Switchboard}; they act on the runtime the code runs in.
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>{@link #finish} returns when its body and every task it spawned transitively (asyncs, futures,
 *       asyncAwait tasks, every actor started inside it) have ended. Failures are collected and rethrown:
 *       one as itself, several as a {@link MultiException}.</li>
 *   <li>A finish on a worker never deadlocks the pool: the worker runs queued tasks of that finish, then blocks
 *       in a way that lets the pool add a compensating worker.</li>
 *   <li>Work started outside every finish belongs to the runtime's global scope; its failures go to the
 *       handler set with {@link Builder#onUnscopedFailure} (by default logged through {@code System.Logger}
 *       "dev.switchboard", level ERROR).</li>
 * </ul>
 */
public final class TaskRuntime implements AutoCloseable {
    /*
     * The facade checks what it is given and hands the work to the scheduler, through the classes beside it:
     * BodyTask.spawn (an async), ChunkedLoop (the loops' chunks), AsyncAwait (an asyncAwait's inputs and task),
     * FinishOutcome (what a finish throws), BuilderChecks and RuntimeProperties (the builder's settings).
     */

    /** Default number of messages an actor processes per activation before it yields its worker. */
    public static final int DEFAULT_THROUGHPUT = 64;
    /** Default number of activations a worker runs through its handoff slot before it yields. */
    public static final int DEFAULT_HANDOFF_LIMIT = 64;
    /** How long a finish waits with nothing progressing before it reports what keeps it open. */
    public static final Duration DEFAULT_HANG_REPORT_AFTER = Duration.ofSeconds(10);
    /** The longest timeout a wait keeps (about 73 years); a longer one is cut to it rather than overflow. */
    private static final Duration LONGEST_TIMEOUT = Duration.ofNanos(Long.MAX_VALUE / 4);

    private static volatile TaskRuntime defaultRuntime;

    static {
        // The actor package reaches a runtime's machinery through RuntimeAccess (DeadLetter.subscribe, say).
        RuntimeAccess.register(runtime -> ((TaskRuntime) runtime).scheduler);
        // The test kit sets the options that are not public API (a manual clock, a deterministic scheduler).
        RuntimeAccess.registerBuilderOptions(new NonPublicBuilderOptions());
        // The machinery below makes the exception that a closed runtime throws through this factory.
        ClosedRuntimes.install(RuntimeClosedException::new);
        // What reports a failure is loaded now, not first when the heap may be exhausted.
        FailurePathClasses.load();
    }

    private final Scheduler scheduler;

    private TaskRuntime(Builder b) {
        this.scheduler = new Scheduler(b.name, b.workers, b.throughput, b.handoffLimit,
                b.hangReportAfter == null ? 0 : clampedNanos(b.hangReportAfter), b.idleSpin.toNanos(), b.clock,
                b.deterministic);
        scheduler.facade(this);
        if (b.hangReporter != null) {
            scheduler.hangReports().hangReporter(b.hangReporter);
        }
        if (b.unscopedFailureHandler != null) {
            scheduler.unscopedFailureHandler(b.unscopedFailureHandler);
        }
        scheduler.failureLog().perMinute(b.failuresLoggedPerMinute);
    }

    /**
     * The process-wide runtime (daemon threads, never closed): one worker per available processor and the
     * defaults of {@link Builder}, unless the system properties of {@link Builder#systemProperties} say otherwise
     * ({@code -Dswitchboard.workers=4 -Dswitchboard.hangReportAfter=30s}, say), read when it is first used.
     */
    public static TaskRuntime defaultRuntime() {
        TaskRuntime rt = defaultRuntime;
        if (rt == null) {
            synchronized (TaskRuntime.class) {
                rt = defaultRuntime;
                if (rt == null) {
                    defaultRuntime = rt = builder().name("switchboard").systemProperties(System.getProperties())
                            .build();
                    Scheduler.defaultScheduler(rt.scheduler);
                }
            }
        }
        return rt;
    }

    /** A new runtime with {@code workers} workers and default settings; close it when done. */
    public static TaskRuntime create(int workers) {
        return builder().workers(workers).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The runtime the calling code runs in (its task, actor or finish); outside every one, the default runtime.
     * The static methods of {@link dev.switchboard.Switchboard} act on it.
     *
     * @throws IllegalStateException outside every finish, on a thread that created a runtime it has not closed:
     *         work started there would run on the default runtime, not on that one, which is never what was meant
     *         (call it inside that runtime's finish, or inside {@code defaultRuntime().finish(...)})
     */
    public static TaskRuntime current() {
        return current("TaskRuntime.current() (which the static methods of Switchboard use)");
    }

    /** {@link #current()} for {@code caller}, which a refusal names as what was called. */
    static TaskRuntime current(String caller) {
        Node n = Context.current();
        if (n != null) {
            return (TaskRuntime) n.scheduler().facade();
        }
        Scheduler.requireNoRuntimeOpenedHere(caller);
        return defaultRuntime();
    }

    // ------------------------------------------------------------------------------------------ finish

    /*
     * Bodies are TaskBody and Computation, which may throw checked exceptions. The machinery catches Throwable
     * wherever it runs user code, so a checked exception travels as itself, unwrapped, on every path; nothing is
     * added to the path of a body that ends normally. The internal package sits below this one and does not know
     * these types: a task holds its body in a subclass made here (BodyTask, AwaitBodyTask, FutureTask), which
     * costs no field and no allocation beyond the task itself, and a finish hands its body to
     * FinishWait.runFinish with TaskBody::run, a method reference that captures nothing and so is one object for
     * the life of the JVM.
     */

    /**
     * Runs {@code body} on the calling thread and waits until it and every task and actor it started have
     * ended. The body and the tasks may throw checked exceptions ({@link TaskBody}): they are rethrown like
     * unchecked ones.
     *
     * <pre>{@code
     * runtime.finish(() -> {
     *     runtime.async(() -> Files.writeString(a, "A"));    // an IOException is rethrown by the finish
     *     runtime.async(() -> Files.writeString(b, "B"));
     * });
     * }</pre>
     *
     * @throws MultiException if more than one of them failed; a single failure is rethrown as itself
     */
    public void finish(TaskBody body) {
        Objects.requireNonNull(body, "body");
        SendInterception.requireMayBlock("finish");
        FinishOutcome.rethrow(scheduler.finishes().runFinish(body, TaskBody::run, 0));
    }

    /**
     * Runs {@code body} on the calling thread, waits as {@link #finish(TaskBody)} does, and returns what the body
     * returned. The body may throw a checked exception: it reaches the finish like any failure and is rethrown as
     * itself (with the others, if several failed, in a {@link MultiException}).
     *
     * <pre>{@code
     * long total = runtime.finish(() -> {
     *     TaskFuture<Long> left = runtime.future(() -> sum(a, 0, mid));
     *     return sum(a, mid, n) + left.get();
     * });
     * }</pre>
     *
     * <p>A lambda whose body is a block without {@code return value} is a {@link #finish(TaskBody)}; one that
     * returns a value, or is an expression with a value ({@code finish(() -> actor.start())}), is this form. A method
     * reference to an overloaded method ({@code finish(actor::start)}: {@code start} has a form with a name) fits
     * both, and javac reports the call as ambiguous; write the lambda instead.
     */
    @SuppressWarnings("unchecked")
    public <T> T finish(Callable<? extends T> body) {
        Objects.requireNonNull(body, "body");
        SendInterception.requireMayBlock("finish");
        Object[] result = new Object[1];
        TaskBody store = () -> result[0] = body.call();
        FinishOutcome.rethrow(scheduler.finishes().runFinish(store, TaskBody::run, 0));
        return (T) result[0];
    }

    /**
     * Like {@link #finish(TaskBody)}, but gives up waiting once {@code timeout} has passed since the call and throws
     * a {@link FinishTimeoutException} whose message says which actors and tasks keep the finish open (failures
     * collected so far are attached as suppressed exceptions). The body's own time counts: the body runs to its
     * end on the calling thread (it is not interrupted), and if it took longer than {@code timeout} the finish
     * waits no more for what it spawned. The work keeps running: it is handed to the enclosing finish (or, outside
     * every finish, the runtime's global scope), which waits for it and receives its later failures.
     *
     * <pre>{@code
     * runtime.finish(Duration.ofSeconds(5), () -> {
     *     ActorRef<Job> worker = new JobWorker().start();
     *     jobs.forEach(worker::send);
     *     worker.stop();
     * });                           // a FinishTimeoutException after 5 s names the worker and what it waits for
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public void finish(Duration timeout, TaskBody body) {
        Objects.requireNonNull(body, "body");
        SendInterception.requireMayBlock("finish");
        long nanos = timeoutNanos(timeout);
        FinishOutcome.rethrow(scheduler.finishes().runFinish(body, TaskBody::run, nanos), timeout, scheduler);
    }

    /** A finish's timeout in nanoseconds; one of more than a lifetime (~73 years) counts as that long. */
    private static long timeoutNanos(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("finish timeout must be positive, got " + timeout);
        }
        return clampedNanos(timeout);
    }

    /** {@code timeout} in nanoseconds, a longer one than about 73 years cut to that (no overflow). */
    static long clampedNanos(Duration timeout) {
        return timeout.compareTo(LONGEST_TIMEOUT) >= 0 ? LONGEST_TIMEOUT.toNanos() : timeout.toNanos();
    }

    // ------------------------------------------------------------------------------------------ tasks

    /**
     * Spawns {@code body} as a task of the current finish ([Unified] §3.1). What it throws, checked or not, is
     * rethrown by that finish.
     *
     * <pre>{@code
     * runtime.async(() -> Files.delete(tmp));   // a failed delete's IOException reaches the finish
     * }</pre>
     */
    public void async(TaskBody body) {
        Objects.requireNonNull(body, "body");
        Interceptor held = SendInterception.interceptor();
        if (held != null && held.interceptSpawn(() -> BodyTask.spawn(scheduler, body))) {
            return;                                // held (a transaction spawns when it commits)
        }
        BodyTask.spawn(scheduler, body);
    }

    /**
     * Spawns a task that computes a value; the returned future is done when it has. A failure of the task, checked
     * exception or not, fails the future ({@link TaskFuture#get()} throws a
     * {@link java.util.concurrent.CompletionException} with it as the cause) and is also reported to the
     * enclosing finish. A task the runtime never runs (it was closed before the task started) fails the future
     * with the reason. The future is a {@link DataDrivenFuture}: code that completes it before the task does
     * ({@code tryFail} with a cancellation, say) wins, and the task's value is dropped (a failure of the task is
     * still reported to the finish); the task itself runs on.
     *
     * <pre>{@code
     * TaskFuture<String> config = runtime.future(() -> Files.readString(path));
     * }</pre>
     */
    public <T> TaskFuture<T> future(Computation<? extends T> computation) {
        SendInterception.requireMayBlock("future() (its value is taken by waiting for it)");
        Objects.requireNonNull(computation, "computation");
        scheduler.requireOpen("future");
        // the future first: once the task is made it counts in the finish, and an allocation that fails after
        // that would leave the finish waiting for a task nobody holds
        DataDrivenFuture<T> result = DataDrivenFuture.computed();
        scheduler.submit(new FutureTask<>(scheduler, computation, result));
        return result;
    }

    /**
     * Runs {@code body} as a task once {@code input} is done; it counts toward the current finish at once. What the
     * body throws, checked or not, is rethrown by that finish.
     */
    public void asyncAwait(TaskFuture<?> input, TaskBody body) {
        AsyncAwait.spawn(scheduler, 1, input, null, null, body);
    }

    /** Runs {@code body} as a task once both inputs are done. */
    public void asyncAwait(TaskFuture<?> first, TaskFuture<?> second, TaskBody body) {
        AsyncAwait.spawn(scheduler, 2, first, second, null, body);
    }

    /** Runs {@code body} as a task once all three inputs are done. */
    public void asyncAwait(TaskFuture<?> first, TaskFuture<?> second, TaskFuture<?> third, TaskBody body) {
        AsyncAwait.spawn(scheduler, 3, first, second, new TaskFuture<?>[] {third}, body);
    }

    /** Runs {@code body} as a task once every input is done (immediately if there are none). */
    public void asyncAwait(Collection<? extends TaskFuture<?>> inputs, TaskBody body) {
        AsyncAwait.spawn(scheduler, inputs, body);
    }

    // ------------------------------------------------------------------------------------------ loops

    /**
     * Spawns tasks that run {@code body} for every index in {@code [from, to)}, in chunks sized for this
     * runtime's workers, as children of the current finish. Use {@link #forall} to also wait for them.
     *
     * <p>Every iteration runs, whatever the others do: an iteration that throws is reported to the enclosing
     * finish and the loop goes on with the next index. The finish rethrows one failure as itself and several as
     * a {@link MultiException}, which keeps the first {@value dev.switchboard.internal.Scope#MAX_KEPT_FAILURES}
     * and counts the rest. The exceptions are a fatal error (an {@link OutOfMemoryError} or another
     * {@link VirtualMachineError} other than {@link StackOverflowError}) and the runtime's close: the finish ends
     * at once, and the iterations not yet started are skipped.
     */
    public void forasync(int from, int to, IntConsumer body) {
        forasync(from, to, ChunkedLoop.defaultChunk(scheduler, from, to), body);
    }

    /** Like {@link #forasync(int, int, IntConsumer)} with an explicit chunk size (indices per task). */
    public void forasync(int from, int to, int chunk, IntConsumer body) {
        Objects.requireNonNull(body, "body");
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be at least 1, got " + chunk);
        }
        scheduler.requireOpen("forasync");         // an empty range too: a closed runtime refuses every loop
        if (from >= to) {
            return;
        }
        ChunkedLoop.spawn(scheduler, from, to, chunk, body);
    }

    /** Runs {@code body} for every index in {@code [from, to)} in parallel and waits for all of them. */
    public void forall(int from, int to, IntConsumer body) {
        finish(() -> forasync(from, to, body));
    }

    /** Like {@link #forall(int, int, IntConsumer)} with an explicit chunk size. */
    public void forall(int from, int to, int chunk, IntConsumer body) {
        finish(() -> forasync(from, to, chunk, body));
    }

    // ------------------------------------------------------------------------------------------ observation

    /** The number of workers (the target parallelism; the pool may add compensating workers while some block). */
    public int workers() {
        return scheduler.parallelism();
    }

    /**
     * Messages an actor processes per activation before it yields its worker, unless the actor declares its own
     * budget ({@code ActorCore.throughput(int)}).
     */
    public int throughput() {
        return scheduler.budget();
    }

    /** How long an idle worker spins for work before it parks ({@link Builder#idleSpin}); zero by default. */
    public Duration idleSpin() {
        return Duration.ofNanos(scheduler.idleSpinNanos());
    }

    public String name() {
        return scheduler.name();
    }

    /**
     * Messages this runtime turned into dead letters so far (sent to terminated actors, or left behind), whether or
     * not a listener hears of them ({@code DeadLetter.subscribe}).
     */
    public long deadLetterCount() {
        return scheduler.deadLetters().counted();
    }

    /**
     * The hang diagnostic, on demand: for every finish currently waited on (and the global scope, if anything
     * is open there), what keeps it open, e.g. {@code actor PongActor@3 started by thread 'main' 2.0 s ago:
     * never exited}; and every finish body blocked in a {@code get()} ({@code the body of a finish opened by
     * thread 'main' on thread 'main' has been blocked for 2.0 s in get() of DataDrivenFuture@1b6d3586 (not put;
     * ...)}).
     */
    public List<String> diagnose() {
        return scheduler.hangReports().reportOpenScopes();
    }

    /** The machinery behind this runtime (this package and its tests). */
    Scheduler scheduler() {
        return scheduler;
    }

    /**
     * Whether no worker is running a task and none is queued: a snapshot, as {@link
     * java.util.concurrent.ForkJoinPool#isQuiescent()} gives it (a benchmark waits for it between runs, say).
     */
    public boolean isQuiescent() {
        return scheduler.pool().isQuiescent();
    }

    /**
     * Closes this runtime, waiting up to 10 seconds for the tasks already queued or running to end; see
     * {@link #close(Duration)}.
     */
    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    /**
     * Closes this runtime. What a user can rely on, in order:
     * <ul>
     *   <li>new work is refused: {@code async}, {@code future}, {@code asyncAwait}, the loops, {@code finish} and
     *       an actor's {@code start()} throw a {@link RuntimeClosedException} naming this runtime;</li>
     *   <li>every {@code finish} waiting for this runtime's work ends with a {@code RuntimeClosedException} that
     *       lists what was still open when the runtime was closed;</li>
     *   <li>every actor still alive is terminated: the messages in its mailbox, and every message sent to it from
     *       now on, become dead letters ({@link dev.switchboard.actor.DeadLetter.Reason#RUNTIME_CLOSED}), counted
     *       like any other; {@code send} does not throw;</li>
     *   <li>every {@code ask} still waiting for its answer fails, before this method returns, with a
     *       {@link dev.switchboard.actor.NoReplyException} naming this runtime; the runtime's timers are dropped;</li>
     *   <li>every {@link DataDrivenFuture#get() get()} that a task or a finish body of this runtime waits in
     *       fails now with a {@code RuntimeClosedException} naming this runtime, the thread and the future;</li>
     *   <li>tasks already queued or running may run to their end, for up to {@code timeout}; what they spawn is
     *       refused; after that no queued task starts (what was queued from outside the workers is refused), the
     *       workers are interrupted and given one more second (and up to one more for the runtime's threads to
     *       end). If the calling thread is interrupted (before the
     *       call or during its wait), it stops waiting for the tasks at once and goes on to that step, as
     *       {@code ExecutorService.close()} does; it still waits the second, and its interrupt status is kept;</li>
     *   <li>when this method returns true, no thread of the runtime (its workers, its watchdog, its timer) is
     *       alive any more. Code that ignores interrupts can keep a worker busy: then it returns false.</li>
     * </ul>
     * Closing twice does nothing more. The {@linkplain #defaultRuntime() default runtime} cannot be closed.
     *
     * <p>Called on a worker of this runtime (from an actor's {@code process}, a task), it does all of the above but
     * the wait: the caller's own turn keeps its worker alive, so it returns false at once, and the workers end once
     * the caller's turn and the others have ended. A later call from a thread of your own (the {@code main} that
     * started the service, at the end of its try-with-resources block) does that wait, interrupts the workers if
     * they outlast its timeout, and returns as above.
     *
     * @return whether every task had ended within {@code timeout} (false at once on a worker of this runtime)
     * @throws IllegalArgumentException if {@code timeout} is negative (zero does not wait for the tasks)
     */
    public boolean close(Duration timeout) {
        if (this == defaultRuntime) {
            throw new IllegalStateException("the default runtime cannot be closed");
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("close timeout must not be negative, got " + timeout);
        }
        return scheduler.close(clampedNanos(timeout), TimeUnit.NANOSECONDS);
    }

    /** How long a finish waits with nothing progressing before it reports what keeps it open; empty if off. */
    public java.util.Optional<Duration> hangReportAfter() {
        long nanos = scheduler.hangReports().hangReportAfterNanos();
        return nanos > 0 ? java.util.Optional.of(Duration.ofNanos(nanos)) : java.util.Optional.empty();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return scheduler.isClosed();
    }

    @Override
    public String toString() {
        long spin = scheduler.idleSpinNanos();
        return "TaskRuntime[" + name() + ", " + workers() + " workers, throughput " + throughput()
                + (spin == 0 ? "" : ", idle spin " + Duration.ofNanos(spin)) + "]";
    }

    /** Settings for a new runtime. */
    public static final class Builder {
        /** The largest number of workers a runtime can have: the limit of {@code java.util.concurrent.ForkJoinPool}. */
        public static final int MAX_WORKERS = 0x7fff;
        /** The longest {@linkplain #idleSpin idle spin}: longer is a core busy for nothing. */
        public static final Duration MAX_IDLE_SPIN = Duration.ofMillis(10);

        private String name;
        private int workers = Runtime.getRuntime().availableProcessors();
        private int throughput = DEFAULT_THROUGHPUT;
        private int handoffLimit = DEFAULT_HANDOFF_LIMIT;
        private Duration hangReportAfter = DEFAULT_HANG_REPORT_AFTER;
        private Duration idleSpin = Duration.ZERO;
        private Consumer<String> hangReporter;
        private Consumer<Throwable> unscopedFailureHandler;
        private int failuresLoggedPerMinute = FailureLog.DEFAULT_PER_MINUTE;
        /**
         * Where the runtime reads the time: not public API (the test kit's {@code TestClock} sets a
         * {@code ManualClock} through {@code RuntimeAccess}, the core's tests through {@code RuntimeInternals}).
         */
        Clock clock = Clock.system();
        /**
         * What decides which ready actor or task runs next, in a test: not public API (the test kit's
         * {@code ScheduleExplorer} and the core's tests set a {@code DeterministicScheduler}); null, the default,
         * for the pool.
         */
        DeterministicScheduler deterministic;

        private Builder() {
        }

        /**
         * Names the runtime (and its worker threads).
         *
         * @throws IllegalArgumentException if {@code name} is blank: the runtime's messages would name nothing
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a runtime's name must not be blank, got '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /**
         * Number of workers, between 1 and {@value #MAX_WORKERS} (the most a {@code ForkJoinPool} runs); defaults
         * to the number of available processors.
         */
        public Builder workers(int workers) {
            this.workers = BuilderChecks.workers(workers);
            return this;
        }

        /**
         * Messages an actor processes per activation before yielding its worker (default
         * {@value #DEFAULT_THROUGHPUT}); an actor may declare its own ({@code ActorCore.throughput(int)}).
         */
        public Builder throughput(int messages) {
            this.throughput = BuilderChecks.throughput(messages);
            return this;
        }

        /** Activations a worker runs back to back through its handoff slot before yielding. */
        public Builder handoffLimit(int activations) {
            this.handoffLimit = BuilderChecks.handoffLimit(activations);
            return this;
        }

        /**
         * A finish that has waited this long while the runtime's workers started nothing reports, once, what keeps
         * it open (to the {@linkplain #hangReporter reporter}: by default {@code System.Logger}
         * "dev.switchboard", level WARNING). While the workers keep working it looks again one period later.
         * Default {@link #DEFAULT_HANG_REPORT_AFTER}.
         *
         * <p>A worker that has run one message of an actor, or one task, this long without progress (no message
         * processed, no other work started on its thread) is reported too, whatever else progresses and whether or
         * not a finish waits: a report that starts with "Switchboard stall:", names the actor or task, its
         * thread's state and where in the program's code it is. Once per stall: again only after it moved on.
         */
        public Builder hangReportAfter(Duration after) {
            this.hangReportAfter = BuilderChecks.hangReportAfter(after);
            return this;
        }

        /**
         * How long a worker that has run out of work keeps looking for more (spinning on its core) before it parks;
         * default zero: it parks after the pool's own spin of a few microseconds. The longest is
         * {@link #MAX_IDLE_SPIN}.
         *
         * <p>Waking a parked worker takes tens of microseconds (about 40 µs on the virtual machines the benchmarks
         * ran on); a spinning worker takes work made stealable for it within a few, and its waker makes no system
         * call. That pays for programs that go from one busy worker to several many thousand times a second and
         * whose parallel stretches are short. The price is CPU: after every stretch of work each idle worker keeps
         * a core busy for this long, which other processes on the machine do not get. An actor that runs its
         * messages in parallel (a readers-writer monitor's reads, cut by writes) needs no setting: on a runtime of
         * several workers, while it starts them as tasks, up to two idle workers spin for up to 50 µs after each start
         * whatever this says (docs/guide.md, "Where a readers-writer monitor pays").
         *
         * <pre>{@code
         * TaskRuntime rt = TaskRuntime.builder().workers(2).idleSpin(Duration.of(50, ChronoUnit.MICROS)).build();
         * }</pre>
         */
        public Builder idleSpin(Duration spin) {
            this.idleSpin = BuilderChecks.idleSpin(spin);
            return this;
        }

        /** No hang reports: a finish waits silently for as long as its work takes. */
        public Builder noHangReports() {
            this.hangReportAfter = null;
            return this;
        }

        /**
         * Applies the settings given as system properties (the default runtime is built with them):
         * {@code switchboard.workers}, {@code switchboard.throughput}, {@code switchboard.handoffLimit} (numbers),
         * {@code switchboard.hangReportAfter} and {@code switchboard.idleSpin} (durations such as {@code 10s},
         * {@code 500ms}, {@code 50us}, {@code 2m}, or {@code off}) and {@code switchboard.logFailures} (failures
         * logged a minute, or {@code off}). Properties that are not set leave the builder's values as they are.
         *
         * @throws IllegalArgumentException naming the property, if a value is not valid
         */
        public Builder systemProperties(java.util.Properties properties) {
            RuntimeProperties.apply(this, properties);
            return this;
        }

        /**
         * Logs at most {@code perMinute} failures a minute, as they happen (default
         * {@value FailureLog#DEFAULT_PER_MINUTE}): every failure that ends an actor is logged through
         * {@code System.Logger} "dev.switchboard" at level ERROR when it happens, with the actor, where it failed
         * (the message's type, never its contents), what happens next and the cause with its stack trace, besides
         * reaching the actor's finish. Beyond the limit failures are counted, and the next line logged says how
         * many were not. 0 logs none (as {@link #noFailureLogging()}).
         */
        public Builder logFailures(int perMinute) {
            this.failuresLoggedPerMinute = BuilderChecks.failuresLoggedPerMinute(perMinute);
            return this;
        }

        /** Failures are not logged as they happen; they still reach their finish (see {@link #logFailures}). */
        public Builder noFailureLogging() {
            return logFailures(0);
        }

        /** Where hang reports (and stall reports, see {@link #hangReportAfter}) go. */
        public Builder hangReporter(Consumer<String> reporter) {
            this.hangReporter = Objects.requireNonNull(reporter, "reporter");
            return this;
        }

        /**
         * Receives failures of work started outside every finish (default: logged to {@code System.Logger}
         * "dev.switchboard", level ERROR, the first 20 in full, then a count at every power of ten).
         */
        public Builder onUnscopedFailure(Consumer<Throwable> handler) {
            this.unscopedFailureHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        public TaskRuntime build() {
            return new TaskRuntime(this);
        }
    }
}

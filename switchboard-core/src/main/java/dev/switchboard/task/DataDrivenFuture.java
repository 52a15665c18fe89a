package dev.switchboard.task;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Clock;
import dev.switchboard.internal.Context;
import dev.switchboard.internal.HangReports;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.ProducingTask;
import dev.switchboard.internal.SafeText;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import dev.switchboard.internal.Threads;
import dev.switchboard.internal.Worker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A data-driven future (DDF): a single-assignment slot that tasks can wait on without blocking a thread
 * ([Unified] §3.2).
 *
 * <p>{@link #put} assigns the value once (a second {@code put} is an error); {@code asyncAwait(ddf, body)} runs
 * {@code body} as a task once the value is there; {@link #get()} returns it (and waits if it is not there yet).
 * A DDF can also be {@linkplain #fail failed}; {@code get} then throws.
 *
 * <pre>{@code
 * DataDrivenFuture<List<Integer>> sorted = new DataDrivenFuture<>();
 * finish(() -> {
 *     asyncAwait(sorted, () -> System.out.println(sorted.get()));
 *     quicksort(input, sorted);              // some task eventually calls sorted.put(...)
 * });
 * }</pre>
 *
 * <h2>Implementation notes</h2>
 * The value is published with a CAS from null (unset: a new future writes no field, so creating one costs no
 * store fence; a put of null stores {@code NULL}); the waiters form a Treiber stack that the producer
 * closes with one {@code getAndSet} after publishing the value. A waiter that finds the stack closed knows the
 * value is visible, so no waiter is lost and none fires twice. An entry of the stack is a {@link Waiter} record
 * (a blocked thread, a copy, an awaiting task's third input), or the awaiting task itself for its first two
 * inputs: it carries one link per input ({@link AwaitTask#nextWaiter}), so an {@code asyncAwait} of one or two
 * futures registers without allocating. A waiting task is scheduled when its last input
 * is there (as a sent message schedules an actor), never run on the producer's stack.
 *
 * @param <T> the type of the value
 */
public final class DataDrivenFuture<T> implements TaskFuture<T> {
    /** The value of a future not yet put: the field's default, so that the constructor stores nothing. */
    private static final Object UNSET = null;
    private static final Object NULL = new Object();
    private static final Waiter CLOSED = new Waiter(null);
    private static final VarHandle VALUE;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            VALUE = l.findVarHandle(DataDrivenFuture.class, "value", Object.class);
            WAITERS = l.findVarHandle(DataDrivenFuture.class, "waiters", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Object value;           // UNSET (null) until put
    /** The top entry of the waiter stack: a {@link Waiter} or an {@link AwaitTask}; {@link #CLOSED} once done. */
    private volatile Object waiters;
    /**
     * Who created this future, for hang reports, in a form that keeps nothing alive (not the task, whose spawn
     * tree a long-lived future would otherwise hold): see {@link Node#origin()}, or the creating thread's name
     * outside every task and finish; null for a future that a {@linkplain #producer producer} computes, which
     * names that task instead.
     */
    private final Object creator;
    /**
     * The task that computes this future's value ({@link TaskRuntime#future}), until the value is there; null for a
     * future that code puts. A worker that waits for the value helps this task instead of blocking.
     */
    private ProducingTask producer;

    /** Creates an empty data-driven future. */
    public DataDrivenFuture() {
        Node n = Context.current();
        this.creator = n != null ? n.origin() : new OutsideEveryFinish(Threads.name(Thread.currentThread()));
    }

    private DataDrivenFuture(Void computed) {
        this.creator = null;
    }

    /** An empty future whose value a task will compute ({@link TaskRuntime#future}): see {@link #producedBy}. */
    static <T> DataDrivenFuture<T> computed() {
        return new DataDrivenFuture<>((Void) null);
    }

    /** Names the task that will put this future's value; before the future is handed to anyone. */
    void producedBy(ProducingTask task) {
        this.producer = task;
    }

    /**
     * A data-driven future completed by {@code stage}: with its value, or failed with its failure (unwrapped from a
     * {@link java.util.concurrent.CompletionException}). With {@code asyncAwait}, a task awaits a
     * {@code CompletableFuture}, an actor's {@code ask} say, without blocking a thread, and its finish waits for the
     * awaiting task:
     *
     * <pre>{@code
     * DataDrivenFuture<Long> balance = DataDrivenFuture.of(bank.ask(r -> new Balance("alice", r), timeout));
     * asyncAwait(balance, () -> report(balance.get()));
     * }</pre>
     */
    public static <T> DataDrivenFuture<T> of(java.util.concurrent.CompletionStage<? extends T> stage) {
        Objects.requireNonNull(stage, "stage");
        DataDrivenFuture<T> f = new DataDrivenFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure == null) {
                f.tryPut(value);
            } else {
                f.tryFail(failure instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : failure);
            }
        });
        return f;
    }

    /** A future created by a thread in no finish: its name (not the thread, which must not be kept alive). */
    private record OutsideEveryFinish(String thread) {
    }

    /** Who created this future, for diagnostics: "created by task running Main (lambda)", say. */
    private String origin() {
        if (creator == null) {
            ProducingTask p = producer;
            return "computed by " + (p != null ? p.describe() : "a task");
        }
        return creator instanceof OutsideEveryFinish o ? "created by thread '" + o.thread() + "' outside every finish"
                : "created by " + Node.describeOrigin(creator);
    }

    /**
     * Assigns the value and schedules every task awaiting it.
     *
     * @throws IllegalStateException if a value (or failure) was already assigned
     */
    public void put(T value) {
        complete(value == null ? NULL : value);
    }

    /**
     * Completes this future with a failure: {@link #get()} will throw a {@link CompletionException} with it as
     * the cause, and awaiting tasks run (and see that failure when they call {@code get}).
     *
     * @throws IllegalStateException if a value (or failure) was already assigned
     */
    public void fail(Throwable cause) {
        complete(new Failure(java.util.Objects.requireNonNull(cause, "cause")));
    }

    /**
     * Cancels this future unless it is done: it fails with a {@link CancellationException}, which {@link #get()}
     * throws as itself, and awaiting tasks run (their {@code get()} throws it too). The task computing a
     * {@link TaskRuntime#future future}'s value, if no thread has started it, never runs, and its finish does not
     * wait for it; one already running is not interrupted: it runs to its end, and its value is dropped (a failure
     * of it still reaches its finish). Cancelling is not a failure: no finish hears of it.
     *
     * <pre>{@code
     * TaskFuture<Quote> slow = future(() -> pricing.quote(order));
     * if (!slow.isDone()) slow.cancel();     // get() now throws CancellationException
     * }</pre>
     *
     * @return whether this call cancelled it (false if it was done already)
     */
    @Override
    public boolean cancel() {
        ProducingTask p = producer;           // read before the completion clears it
        boolean cancelled = tryComplete(new Failure(new CancellationException(this + " was cancelled")));
        if (cancelled && p != null) {
            p.withdraw();
        }
        return cancelled;
    }

    /** Assigns the value unless one (or a failure) is already there; returns whether this call assigned it. */
    public boolean tryPut(T value) {
        return tryComplete(value == null ? NULL : value);
    }

    /** Fails this future unless it is already done; returns whether this call completed it. */
    public boolean tryFail(Throwable cause) {
        return tryComplete(new Failure(java.util.Objects.requireNonNull(cause, "cause")));
    }

    private void complete(Object v) {
        if (!tryComplete(v)) {
            throw new IllegalStateException(this + " was assigned twice: a data-driven future takes exactly one put"
                    + " (existing " + describe(value) + ", new " + describe(v) + ")");
        }
    }

    private boolean tryComplete(Object v) {
        if (!VALUE.compareAndSet(this, UNSET, v)) {
            return false;
        }
        if (producer != null) {
            producer = null;                  // a kept future must not keep the task's spawn tree alive
        }
        Object w = WAITERS.getAndSet(this, CLOSED);
        while (w != null) {
            Object next = next(w);
            unlink(w);
            fire(w);
            w = next;
        }
        return true;
    }

    @Override
    public boolean isDone() {
        return value != UNSET;
    }

    /** Whether this future was completed with {@link #fail}. */
    public boolean isFailed() {
        return value instanceof Failure;
    }

    @Override
    public T get() {
        Object v = value;
        if (v == UNSET) {
            requireMayBlock("get()");
            v = waitForValue();
        }
        return valueOf(v);
    }

    /** The value a completed future holds as {@code v}, or its failure thrown. */
    @SuppressWarnings("unchecked")
    private T valueOf(Object v) {
        if (v == NULL) {
            return null;
        }
        if (v instanceof Failure f) {      // wrapped once; a cancellation as itself, as CompletableFuture.join does
            throw f.cause instanceof CompletionException || f.cause instanceof CancellationException
                    ? (RuntimeException) f.cause : new CompletionException(SafeText.of(f.cause), f.cause);
        }
        return (T) v;
    }

    @Override
    public T get(Duration timeout) throws TimeoutException {
        Objects.requireNonNull(timeout, "timeout");
        long nanos = TaskRuntime.clampedNanos(timeout);
        if (nanos < 0) {
            throw new IllegalArgumentException("negative timeout " + timeout + " for " + this);
        }
        Object v = value;
        if (v == UNSET && nanos > 0) {
            requireMayBlock("get(Duration)");
            Clock clock = callersClock();
            v = block(clock.nanoTime() + nanos, clock);
        }
        if (v == UNSET) {
            throw new TimeoutException(this + " was not put within " + timeout.toMillis() + " ms");
        }
        return valueOf(v);
    }

    /** Fails if the calling thread may not block here (a transaction forbids it). */
    private void requireMayBlock(String op) {
        SendInterception.requireMayBlock(op, this);
    }

    @Override
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> copy = new CompletableFuture<>();
        register(new Waiter(copy));
        return copy;
    }

    /** Completes {@code copy} as this future was completed (called once this future is done). */
    @SuppressWarnings("unchecked")
    private void copyTo(CompletableFuture<Object> copy) {
        Object v = value;
        if (v instanceof Failure f) {
            copy.completeExceptionally(f.cause);
        } else {
            copy.complete(v == NULL ? null : v);
        }
    }

    /**
     * Registers {@code task} to be told (once) when this future is done: as its own entry of the stack when
     * {@code asItsOwnEntry} (this future is its first input, or its second and not also its first), otherwise
     * through a record.
     */
    void whenDone(AwaitTask task, boolean asItsOwnEntry) {
        register(asItsOwnEntry ? task : new Waiter(task));
    }

    private void register(Object entry) {
        for (;;) {
            Object h = waiters;
            if (h == CLOSED) {
                unlink(entry);                // a failed CAS may have linked it to an earlier head
                fire(entry);
                return;
            }
            if (entry instanceof AwaitTask t) {
                t.linkWaiter(this, h);
            } else {
                ((Waiter) entry).next = h;
            }
            if (WAITERS.compareAndSet(this, h, entry)) {
                return;
            }
        }
    }

    /**
     * Clears {@code entry}'s link in this future's stack once the entry is off it (only the thread that took it
     * touches the link then): a task outlives its registration (a hang report's list holds it until pruned), and
     * its link would keep the entries below it, with their futures and values, reachable.
     */
    private void unlink(Object entry) {
        if (entry instanceof AwaitTask t) {
            t.linkWaiter(this, null);
        } else {
            ((Waiter) entry).next = null;
        }
    }

    /** How many entries the waiter stack holds (0 once put): for tests. */
    int waiting() {
        int n = 0;
        for (Object e = waiters; e != null && e != CLOSED; e = next(e)) {
            n++;
        }
        return n;
    }

    /** The entry below {@code entry} in the waiter stack. */
    private Object next(Object entry) {
        return entry instanceof AwaitTask t ? t.nextWaiter(this) : ((Waiter) entry).next;
    }

    private void fire(Object entry) {
        if (entry instanceof AwaitTask t) {
            t.inputReady();
        } else {
            ((Waiter) entry).fire(this);
        }
    }

    private Object waitForValue() {
        ProducingTask p = producer;           // a stale read is harmless: a finished task is no longer helped
        if (p != null && Thread.currentThread() instanceof Worker w && w.scheduler() == p.scheduler()) {
            w.scheduler().finishes().helpProduce(p);
            if (value != UNSET) {
                return value;
            }
        }
        return block(0, Clock.system());
    }

    /**
     * Blocks (managed: the pool may add a thread) until the value is there or, when {@code deadline} is not 0,
     * until {@code clock} passes it. Returns the value, or {@code UNSET} at the deadline. Within a runtime (a task,
     * a finish body), throws its {@code RuntimeClosedException} if it is closed first: its close wakes the
     * blocked gets it has registered ({@code HangReports.blockedInGet}), and one registered after that wake-up
     * sees the closed flag in its first {@code isReleasable}.
     */
    private Object block(long deadline, Clock clock) {
        Node node = Context.current();
        Scheduler runtime = node != null ? node.scheduler() : null;
        Waiter self = new Waiter(Thread.currentThread());
        register(self);
        ForkJoinPool.ManagedBlocker blocker = new ForkJoinPool.ManagedBlocker() {
            @Override
            public boolean isReleasable() {
                return value != UNSET || deadline != 0 && clock.nanoTime() - deadline >= 0
                        || runtime != null && runtime.isClosed();
            }

            @Override
            public boolean block() {
                boolean interrupted = false;
                while (!isReleasable()) {
                    if (deadline == 0) {
                        LockSupport.park(DataDrivenFuture.this);
                    } else {
                        LockSupport.parkNanos(DataDrivenFuture.this, clock.parkNanos(deadline - clock.nanoTime()));
                    }
                    if (Thread.interrupted()) {      // get() is not interruptible; keep the status
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
        };
        HangReports.BlockedGet blocked = null;
        if (runtime != null) {
            runtime.awaitIfDeterministic("a blocking get()", this::isDone);
            blocked = runtime.hangReports().blockedInGet(node, this, DataDrivenFuture.class);
        }
        try {
            if (Thread.currentThread() instanceof Worker w) {
                Scheduler s = w.scheduler();
                s.finishes().block(blocker, this, producer);
            } else {
                try {
                    ForkJoinPool.managedBlock(blocker);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            if (blocked != null) {
                runtime.hangReports().unblocked(blocked);
            }
        }
        Object v = value;
        if (v == UNSET) {
            self.gaveUp = true;
            removeGaveUp();                   // a future polled with timeouts keeps none of its pollers
            if (runtime != null && runtime.isClosed()) {
                throw runtime.closedWhileBlocked("get() of " + this);
            }
        }
        return v;
    }

    /**
     * Takes the waiters whose get gave up (timed out, or its runtime closed) off the stack, as
     * {@code CompletableFuture}'s {@code cleanStack} does: a waiter at the top with a CAS, one below a
     * {@link Waiter} by a write of that waiter's link. Entries are pushed only at the top and a give-up is final,
     * so no entry that still waits is skipped: a link is set past given-up entries only, and a removed entry keeps
     * its own link, so a reader that holds it still reaches the rest. A racing removal may leave an entry in (its
     * write went to an entry already taken off): the put fires it, which wakes nobody. An entry below an awaiting
     * task stays until the put (the task's link is its own, and a task outlives the stack).
     */
    private void removeGaveUp() {
        retry:
        for (;;) {
            Object above = null;              // the last entry kept, or null at the top
            Object e = waiters;
            while (e != null && e != CLOSED) {
                Object below = next(e);
                if (e instanceof Waiter w && w.gaveUp && !(above instanceof AwaitTask)) {
                    if (above == null) {
                        if (!WAITERS.compareAndSet(this, e, below)) {
                            continue retry;   // pushed onto, put or cleaned meanwhile: look again from the top
                        }
                    } else {
                        ((Waiter) above).next = below;
                    }
                } else {
                    above = e;
                }
                e = below;
            }
            return;
        }
    }

    /** The clock of the runtime the calling thread works in, or the system's outside every runtime. */
    private static Clock callersClock() {
        Node node = Context.current();
        return node != null ? node.scheduler().clock() : Clock.system();
    }

    private static String describe(Object v) {
        if (v == NULL) {
            return "null";
        }
        if (v instanceof Failure f) {
            return "failure " + SafeText.of(f.cause);
        }
        return SafeText.of(v);
    }

    /** {@code DataDrivenFuture@1b6d3586 (not put; created by task running Main (lambda))}, or "(put)", "(failed: ...)". */
    @Override
    public String toString() {
        Object v = value;
        String state = v == UNSET ? "not put; " + origin()
                : v instanceof Failure f ? "failed: " + SafeText.of(f.cause) : "put";
        return "DataDrivenFuture@" + Integer.toHexString(System.identityHashCode(this)) + " (" + state + ")";
    }

    private record Failure(Throwable cause) {
    }

    /** A registration: an awaiting task to notify, a thread to unpark, or a CompletableFuture to complete. */
    private static final class Waiter {
        final Object target;
        Object next;
        /** The thread's get gave up waiting (written by that thread only, before {@link #removeGaveUp}). */
        boolean gaveUp;

        Waiter(Object target) {
            this.target = target;
        }

        void fire(DataDrivenFuture<?> done) {
            if (target instanceof AwaitTask task) {
                task.inputReady();
            } else if (target instanceof Thread thread) {
                LockSupport.unpark(thread);
            } else if (target instanceof CompletableFuture<?> copy) {
                @SuppressWarnings("unchecked")
                CompletableFuture<Object> c = (CompletableFuture<Object>) copy;
                done.copyTo(c);
            }
        }
    }
}

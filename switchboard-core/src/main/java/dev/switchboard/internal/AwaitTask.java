package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * The task of an {@code asyncAwait}: counted by its finish from the moment it is created, scheduled once all of
 * its inputs are available.
 *
 * <p>Each input calls {@link #inputReady()} once. The last one schedules the task ({@link Scheduler#activateNext}):
 * on a worker, at the front of its handoff buffer, so the task runs as soon as the producer's turn ends, on the
 * same warm core, before what was buffered earlier (newest first, as a work-stealing pool runs its newest fork),
 * or on an idle worker when spreading pays; from any other thread, in the shared queue. It never runs inline on
 * the producer's stack, so a chain of data-driven tasks cannot grow a thread's stack.
 *
 * <p>As for every {@link AsyncTask}, a subclass in the spawning package holds the body and runs it.
 *
 * <h2>Implementation notes</h2>
 * The first two inputs are kept in fields and the rest in an array, so that the common one- and two-input
 * awaits allocate no array. The task is itself the entry of the waiter stacks of its first two (distinct) inputs:
 * {@link #nextWaiter} and {@link #linkWaiter} are its links in those stacks, one per input, so registering with
 * them allocates nothing (a data-driven future's stack holds such tasks and its own waiter records, see
 * {@code DataDrivenFuture}). A link is written before the registering CAS publishes the task and read after the
 * producer's {@code getAndSet} took the stack, as any Treiber stack's next field is.
 */
public abstract class AwaitTask extends AsyncTask {
    private static final VarHandle REMAINING;

    static {
        try {
            REMAINING = MethodHandles.lookup().findVarHandle(AwaitTask.class, "remaining", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The first input; the second, or null; the third and later ones, or null: described in a hang report. */
    private final Object input0;
    private final Object input1;
    private final Object[] more;
    /** Links in the waiter stacks of {@link #input0} and {@link #input1}, see the implementation notes. */
    private Object next0;
    private Object next1;
    /** Who created this task, see {@link Node#origin()}. */
    private final Object createdBy;
    private final long createdAtNanos;
    private volatile int remaining;

    /**
     * @param creator the node that creates this task (a finish body, a task, an actor's activation)
     * @param input0 the first awaited object, {@code input1} the second (null if there is one), {@code more} the
     *        others (null if there are at most two); each calls {@link #inputReady()} once, and they and
     *        {@code creator} are kept only to describe this task in a hang report
     */
    protected AwaitTask(Node completer, Scheduler scheduler, Node creator, Object input0, Object input1,
            Object[] more) {
        super(completer, scheduler);
        this.input0 = input0;
        this.input1 = input1;
        this.more = more;
        // a plain store: the task reaches other threads only through a CAS (its inputs' waiter stacks, a queue),
        // which publishes it; a volatile store here would be a full fence per task
        REMAINING.set(this, inputCount());
        this.createdBy = creator.origin();
        this.createdAtNanos = scheduler.roughNanoTime();
    }

    /** Called once by each input when it becomes available; the last call schedules this task. */
    public final void inputReady() {
        // getAndAdd is a full fence: the producers' writes of the values happen-before the task runs.
        if ((int) REMAINING.getAndAdd(this, -1) == 1) {
            scheduler.activateNext(this);
        }
    }

    private int inputCount() {
        return input1 == null ? 1 : more == null ? 2 : 2 + more.length;
    }

    /**
     * This task's link in the waiter stack of {@code waiters}: its first input, or its second one when that is not
     * also its first (a registration with any other input, or a second one with the first, needs a record of its
     * own).
     */
    public final Object nextWaiter(Object waiters) {
        return waiters == input0 ? next0 : next1;
    }

    /** Sets this task's link in the waiter stack of {@code waiters} (see {@link #nextWaiter}). */
    public final void linkWaiter(Object waiters, Object next) {
        if (waiters == input0) {
            next0 = next;
        } else {
            next1 = next;
        }
    }

    @Override
    public final boolean isOpen() {
        return remaining > 0;
    }

    @Override
    public final String describeIfOpen(long nowNanos) {
        int r = remaining;
        if (r <= 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder("asyncAwait task created by ").append(describeOrigin(createdBy))
                .append(' ')
                .append(Durations.ago(TimeUnit.NANOSECONDS.toMillis(nowNanos - createdAtNanos)))
                .append(", still waiting for ").append(r).append(" of ")
                .append(inputCount()).append(':')
                .append(' ').append(input0).append(';');
        if (input1 != null) {
            sb.append(' ').append(input1).append(';');
        }
        if (more != null) {
            for (Object in : more) {
                sb.append(' ').append(in).append(';');
            }
        }
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }
}

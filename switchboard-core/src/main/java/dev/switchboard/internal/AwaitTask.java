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

    private final Object[] inputs;
    /** Who created this task, see {@link Node#origin()}. */
    private final Object createdBy;
    private final long createdAtNanos;
    private volatile int remaining;

    /**
     * @param creator the node that creates this task (a finish body, a task, an actor's activation)
     * @param inputs the awaited objects; they and {@code creator} are kept only to describe this task in a hang
     *        report
     */
    protected AwaitTask(Node completer, Scheduler scheduler, Node creator, Object[] inputs) {
        super(completer, scheduler);
        this.inputs = inputs;
        this.remaining = inputs.length;
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
                .append(", still waiting for ").append(r).append(" of ").append(inputs.length).append(':');
        for (Object in : inputs) {
            sb.append(' ').append(in).append(';');
        }
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }
}

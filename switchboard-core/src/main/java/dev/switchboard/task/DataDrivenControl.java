package dev.switchboard.task;

import dev.switchboard.internal.AwaitTask;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A data-driven control (DDC, [Unified] §6.2.1): a value and an execution body, each assigned once and in either
 * order; when both are there the body runs with the value.
 *
 * <p>Unlike a {@link DataDrivenFuture}, a DDC has exactly one consumer. In {@link Mode#ASYNCHRONOUS} mode (the
 * default) the body runs as a task that belongs to the finish (and actor) of the code that attached it, and it
 * counts toward that finish from the moment it is attached. In {@link Mode#SYNCHRONOUS} mode the body runs on
 * the thread that completes the pair, inside the caller of {@link #addValue} or {@link #addResumable}.
 *
 * <p>The reader-writer selector of [Selectors] (Fig. 16) uses one to run a pending write once the last in-flight
 * reader is done:
 * <pre>{@code
 * if (readersDone.valueAvailable()) {
 *     processWrite(msg);
 * } else {
 *     disableAll();
 *     readersDone.addResumable(ignored -> { processWrite(msg); enableAll(); });
 * }
 * }</pre>
 *
 * <h2>Implementation notes</h2>
 * The value and the body are each installed by a CAS on their own field; each installer then sets its bit in
 * {@code state} with one atomic OR. The OR that finds the other bit already set fires the body, so it fires
 * exactly once, and both fields are visible to it (they were written before the ORs).
 *
 * @param <T> the type of the value
 */
public final class DataDrivenControl<T> {
    /** Where the body runs. */
    public enum Mode {
        /** As a task of the finish that attached the body (the default). */
        ASYNCHRONOUS,
        /** Inline, on the thread that supplies the second of value and body. */
        SYNCHRONOUS
    }

    private static final Object UNSET = new Object();
    private static final int HAS_VALUE = 1;
    private static final int HAS_BODY = 2;
    private static final VarHandle VALUE;
    private static final VarHandle BODY;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            VALUE = l.findVarHandle(DataDrivenControl.class, "value", Object.class);
            BODY = l.findVarHandle(DataDrivenControl.class, "body", Consumer.class);
            STATE = l.findVarHandle(DataDrivenControl.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Mode mode;
    private volatile Object value = UNSET;
    private volatile Consumer<? super T> body;
    private volatile int state;
    /** The task that runs the body in asynchronous mode; created by addResumable. */
    private volatile AwaitTask task;

    /** An asynchronous DDC. */
    public DataDrivenControl() {
        this(Mode.ASYNCHRONOUS);
    }

    public DataDrivenControl(Mode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    /** Whether a value has been added. */
    public boolean valueAvailable() {
        return (state & HAS_VALUE) != 0;
    }

    /**
     * Supplies the value; runs (or schedules) the body if it is already attached.
     *
     * @throws IllegalStateException if a value was already added
     */
    public void addValue(T v) {
        if (!VALUE.compareAndSet(this, UNSET, v)) {
            throw new IllegalStateException(this + ": addValue called twice (a DDC takes one value)");
        }
        if (((int) STATE.getAndBitwiseOr(this, HAS_VALUE) & HAS_BODY) != 0) {
            fire();
        }
    }

    /**
     * Attaches the body; runs (or schedules) it at once if the value is already there.
     *
     * @throws IllegalStateException if a body was already attached
     */
    public void addResumable(Consumer<? super T> resumable) {
        Objects.requireNonNull(resumable, "resumable");
        // the runtime first: a call refused for where it is made leaves the control as it was, to be called again
        Scheduler s = mode != Mode.ASYNCHRONOUS ? null : TaskRuntime.current("DataDrivenControl.addResumable (of an"
                + " asynchronous control, whose body runs as a task of the caller's runtime)").scheduler();
        if (!BODY.compareAndSet(this, null, resumable)) {
            throw new IllegalStateException(this + ": addResumable called twice (a DDC takes one body)");
        }
        if (s != null) {
            Node context = s.spawnContext();
            AwaitTask t = new AwaitBodyTask(context.attachChild(), s, context, this::runBody, this, null, null);
            context.scope().track(t);
            task = t;
        }
        if (((int) STATE.getAndBitwiseOr(this, HAS_BODY) & HAS_VALUE) != 0) {
            fire();
        }
    }

    private void fire() {
        if (mode == Mode.ASYNCHRONOUS) {
            task.inputReady();
        } else {
            runBody();
        }
    }

    @SuppressWarnings("unchecked")
    private void runBody() {
        body.accept((T) value);
    }

    @Override
    public String toString() {
        int s = state;
        return "DataDrivenControl@" + Integer.toHexString(System.identityHashCode(this))
                + ((s & HAS_VALUE) != 0 ? " (value added" : " (no value")
                + ((s & HAS_BODY) != 0 ? ", body attached)" : ", no body)");
    }
}

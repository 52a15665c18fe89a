package dev.switchboard.task;

import dev.switchboard.internal.ProducingTask;
import dev.switchboard.internal.Scheduler;

/**
 * The task of {@link TaskRuntime#future}: computes the value and puts it into the future. A failure (a checked
 * exception too: it travels as itself, undeclared) is reported to the enclosing finish, then fails the future, so
 * that the finish, told of it first, records it once however many tasks rethrow it from the future's get();
 * a task the runtime never runs (it was closed before the task started) fails the future with the reason, so a
 * {@code get()} never hangs. Code that completes the future first ({@code tryFail} with a cancellation, say) wins:
 * the computation's value is then dropped, and its failure is still reported to the finish.
 */
final class FutureTask<T> extends ProducingTask {
    private final Computation<? extends T> computation;
    private final DataDrivenFuture<T> result;

    /** @param result a future made with {@link DataDrivenFuture#computed()}, before this task counts in its finish */
    FutureTask(Scheduler scheduler, Computation<? extends T> computation, DataDrivenFuture<T> result) {
        super(scheduler);
        this.computation = computation;
        this.result = result;
        result.producedBy(this);
    }

    @Override
    protected boolean valueReady() {
        return result.isDone();
    }

    @Override
    protected void produce() {
        T v;
        try {
            v = computation.compute();
        } catch (Throwable t) {
            scope().addFutureFailure(t);      // first: a task that gets it from the future and rethrows it adds nothing
            result.tryFail(t);
            return;
        }
        result.tryPut(v);                     // false: code completed the future first (a cancellation, say)
    }

    @Override
    protected void neverRun(Throwable cause) {
        result.tryFail(cause);
    }

    /** The computation's class: what a hang report names, without keeping what the lambda captured. */
    @Override
    public Object origin() {
        return computation.getClass();
    }
}

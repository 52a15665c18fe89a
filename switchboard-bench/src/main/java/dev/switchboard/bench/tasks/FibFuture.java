package dev.switchboard.bench.tasks;

import dev.switchboard.task.TaskRuntime;

/**
 * {@link Fib} with futures: {@code future(() -> fib(n - 1))}, {@code fib(n - 2)} here, then {@code get()} the
 * future. It measures a task that blocks on a result it spawned; the peer's {@code join()} helps (runs queued
 * tasks) while it waits.
 */
public final class FibFuture extends Fib {
    /**
     * @param n          the argument of fib, 0 to {@value Fib#MAX_N}
     * @param threshold  below this n the recursion is sequential (at least 2)
     */
    public FibFuture(int n, int threshold) {
        super(n, threshold);
    }

    /** fib(33), sequential below 12. */
    public FibFuture() {
        this(33, 12);
    }

    @Override
    public String name() {
        return "FibFuture";
    }

    @Override
    public String description() {
        return "fib(" + n + "): future(fib(n-1)), fib(n-2), get() (Switchboard) vs RecursiveTask fork/compute/join";
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardFib.withFutures(runtime, n, threshold);
    }
}

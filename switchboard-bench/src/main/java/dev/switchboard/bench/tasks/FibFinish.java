package dev.switchboard.bench.tasks;

import dev.switchboard.task.TaskRuntime;

/**
 * {@link Fib} with async-finish: {@code finish { async(fib(n - 1)); fib(n - 2) }}, the results in a two-element
 * array. It measures a nested finish per call; the peer is the same {@code RecursiveTask} as {@link FibFuture}'s.
 */
public final class FibFinish extends Fib {
    /**
     * @param n          the argument of fib, 0 to {@value Fib#MAX_N}
     * @param threshold  below this n the recursion is sequential (at least 2)
     */
    public FibFinish(int n, int threshold) {
        super(n, threshold);
    }

    /** fib(33), sequential below 12. */
    public FibFinish() {
        this(33, 12);
    }

    @Override
    public String name() {
        return "FibFinish";
    }

    @Override
    public String description() {
        return "fib(" + n + "): finish { async(fib(n-1)); fib(n-2) } (Switchboard) vs RecursiveTask"
                + " fork/compute/join";
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardFib.withFinish(runtime, n, threshold);
    }
}

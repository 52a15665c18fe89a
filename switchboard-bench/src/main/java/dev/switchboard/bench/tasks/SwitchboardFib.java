package dev.switchboard.bench.tasks;

import static dev.switchboard.Switchboard.async;
import static dev.switchboard.Switchboard.finish;
import static dev.switchboard.Switchboard.future;

import dev.switchboard.task.TaskFuture;
import dev.switchboard.task.TaskRuntime;

/**
 * Fibonacci on Switchboard, as its users write it. The root call runs as a task, so the whole recursion runs on
 * the workers (as the peer's does under {@code pool.invoke}); the caller only waits in the finish.
 */
final class SwitchboardFib {
    private SwitchboardFib() {
    }

    static long withFutures(TaskRuntime runtime, int n, int threshold) {
        long[] result = new long[1];
        runtime.finish(() -> async(() -> result[0] = fibFuture(n, threshold)));
        return result[0];
    }

    static long withFinish(TaskRuntime runtime, int n, int threshold) {
        long[] result = new long[1];
        runtime.finish(() -> async(() -> result[0] = fibFinish(n, threshold)));
        return result[0];
    }

    static long fibFuture(int n, int threshold) {
        if (n < threshold) {
            return Fib.sequential(n);
        }
        TaskFuture<Long> first = future(() -> fibFuture(n - 1, threshold));
        long second = fibFuture(n - 2, threshold);
        return first.get() + second;
    }

    static long fibFinish(int n, int threshold) {
        if (n < threshold) {
            return Fib.sequential(n);
        }
        long[] r = new long[2];
        finish(() -> {
            async(() -> r[0] = fibFinish(n - 1, threshold));
            r[1] = fibFinish(n - 2, threshold);
        });
        return r[0] + r[1];
    }
}

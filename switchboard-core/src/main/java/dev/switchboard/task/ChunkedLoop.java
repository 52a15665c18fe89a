package dev.switchboard.task;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Scope;
import java.util.function.IntConsumer;

/**
 * The chunked parallel loop behind {@link TaskRuntime#forasync} and {@link TaskRuntime#forall}: the chunk size a
 * loop gets when its caller names none, and the tasks that split an index range in halves and run its chunks.
 */
final class ChunkedLoop {
    /** Loops look every this many (plus one) iterations whether their finish has stopped on a fatal error. */
    private static final int STOP_CHECK_MASK = 255;

    private ChunkedLoop() {
    }

    /** The indices per chunk of a loop over {@code [from, to)}: about eight chunks per worker, at least one index. */
    static int defaultChunk(Scheduler scheduler, int from, int to) {
        long n = (long) to - from;
        return (int) Math.max(1, n / (8L * scheduler.parallelism()));
    }

    /** Spawns the task that runs {@code body} for every index in {@code [from, to)}, a non-empty range. */
    static void spawn(Scheduler scheduler, int from, int to, int chunk, IntConsumer body) {
        BodyTask.spawn(scheduler, () -> runRange(scheduler, from, to, chunk, body));
    }

    /**
     * Splits the range in halves, spawning the upper halves, until one chunk is left to run here. Every index of
     * the chunk runs: an iteration that throws is reported to the finish and the next one runs.
     */
    private static void runRange(Scheduler scheduler, int from, int to, int chunk, IntConsumer body) {
        Scope scope = Context.current().scope();
        int hi = to;
        while (hi - from > chunk && scope.stopped() == null) {
            int mid = (from + hi) >>> 1;
            int upper = hi;
            BodyTask.spawn(scheduler, () -> runRange(scheduler, mid, upper, chunk, body));
            hi = mid;
        }
        for (int i = from; i < hi; i++) {
            try {
                body.accept(i);
            } catch (Throwable t) {
                scope.addTaskFailure(t);
            }
            if ((i & STOP_CHECK_MASK) == 0 && scope.stopped() != null) {
                return;                          // the finish gave up (a fatal error): the rest is not worth running
            }
        }
    }
}

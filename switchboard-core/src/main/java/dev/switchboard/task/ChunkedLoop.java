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
     * the chunk runs: an iteration that throws is reported to the finish and the next one runs; but once the
     * finish has stopped (a fatal error, the runtime's close) or the runtime is closed, no more iterations start.
     * That is two volatile reads an iteration, next to a call of the body: parallel streams' short-circuiting
     * loops ask their sink whether to go on at every element too.
     */
    private static void runRange(Scheduler scheduler, int from, int to, int chunk, IntConsumer body) {
        Scope scope = Context.current().scope();
        int hi = to;
        while ((long) hi - from > chunk) {                 // in longs: a range may be longer than Integer.MAX_VALUE
            if (givenUp(scope, scheduler)) {
                skipped(scope, scheduler, from, hi);
                return;
            }
            int mid = (int) (((long) from + hi) >> 1);         // the floor of the mean, for negative bounds too
            int upper = hi;
            BodyTask.spawn(scheduler, () -> runRange(scheduler, mid, upper, chunk, body));
            hi = mid;
        }
        for (int i = from; i < hi; i++) {
            if (givenUp(scope, scheduler)) {
                skipped(scope, scheduler, i, hi);
                return;
            }
            try {
                body.accept(i);
            } catch (Throwable t) {
                scope.addTaskFailure(t);
            }
        }
    }

    /** Whether the loop's finish has stopped waiting, or its runtime is closed: the rest is not worth running. */
    private static boolean givenUp(Scope scope, Scheduler scheduler) {
        return scope.stopped() != null || scheduler.isClosed();
    }

    /**
     * Tells the finish that the iterations {@code [from, to)} will not run because the runtime is closed, unless
     * the finish has stopped (it has its cause): a loop cut short must not end its finish as if it had run. A loop
     * whose finish timed out and handed its work to no finish ({@link Scope#reachesNoFinish}) tells nobody: no
     * finish waits for it, and the close tells no such finish that it was closed either.
     */
    private static void skipped(Scope scope, Scheduler scheduler, int from, int to) {
        if (scope.stopped() == null && !scope.reachesNoFinish()) {
            try {
                scheduler.requireOpen("run the iterations " + from + " to " + (to - 1) + " of a parallel loop");
            } catch (RuntimeException closed) {
                scope.addTaskFailure(closed);
            }
        }
    }
}

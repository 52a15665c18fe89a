package dev.switchboard.bench.tasks;

import static dev.switchboard.Switchboard.forasync;

import dev.switchboard.task.TaskRuntime;

/** The loop on Switchboard: one {@code forasync} iteration per chunk, each filling its own accumulator. */
final class SwitchboardParallelLoop {
    private SwitchboardParallelLoop() {
    }

    static long run(TaskRuntime runtime, int iterations, int chunk, int chunks) {
        long[] partial = new long[chunks];
        runtime.finish(() -> forasync(0, chunks, 1, c -> {
            int from = c * chunk;
            int to = (int) Math.min(iterations, (long) from + chunk);
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += ParallelLoop.term(i);
            }
            partial[c] = sum;
        }));
        long total = 0;
        for (long p : partial) {
            total += p;
        }
        return total;
    }
}

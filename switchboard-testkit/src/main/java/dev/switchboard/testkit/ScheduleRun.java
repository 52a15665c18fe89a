package dev.switchboard.testkit;

import java.util.List;

/**
 * One run of a program under a {@link ScheduleExplorer}.
 *
 * @param seed      the seed that chose its schedule: {@link ScheduleExplorer#replay} runs it again
 * @param steps     the scheduling decisions it took
 * @param traceHash a hash of its trace: two runs with the same hash ran the same interleaving
 * @param trace     what went at each step, in order ("actor Account@1", "timers at 5000000000 ns")
 * @param failure   what failed the run, or null
 */
public record ScheduleRun(long seed, int steps, String traceHash, List<String> trace, Throwable failure) {
    public ScheduleRun {
        trace = List.copyOf(trace);
    }

    /** Whether the run failed. */
    public boolean failed() {
        return failure != null;
    }

    @Override
    public String toString() {
        return "seed " + seed + ": " + steps + " steps, trace " + traceHash
                + (failure == null ? ", passed" : ", failed with " + failure);
    }
}

package dev.switchboard.testkit;

import java.io.Serial;
import org.opentest4j.AssertionFailedError;

/**
 * A {@link ScheduleExplorer} found a schedule that fails the program: the message names the seed that replays it and
 * the trace hash the replay shows; the cause is what failed the run.
 */
public final class ExplorationFailure extends AssertionFailedError {
    @Serial
    private static final long serialVersionUID = 1L;
    private final transient ScheduleRun run;

    ExplorationFailure(String strategy, ScheduleRun run) {
        super("seed " + run.seed() + " of " + strategy + " failed after " + run.steps() + " steps (trace "
                + run.traceHash() + "): " + String.valueOf(run.failure()).strip().replaceAll("\\s*\\n\\s*", " ")
                + "\n  replay it with explorer.replay(" + run.seed()
                + ", program) or -D" + ScheduleExplorer.SEED_PROPERTY + "=" + run.seed(), run.failure());
        this.run = run;
    }

    /** The failing run: its seed, trace and hash. */
    public ScheduleRun run() {
        return run;
    }
}

package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A runtime's timer closed while its first action is scheduled: the executor may make its thread and then, shut
 * down meanwhile, never start it. {@link TimerService#close()} must still return (true: nothing is left running),
 * not throw for the thread it never started, and the action is either refused or dropped with the timer.
 */
@JCStressTest
@Outcome(id = {"1, 1", "1, 0"}, expect = ACCEPTABLE, desc = "closed; the action scheduled, or refused")
@Outcome(expect = FORBIDDEN, desc = "close threw, or said the timer's thread was still running")
@State
public class TimerCloseVsScheduleTest {
    final TimerService timer = new TimerService("jcstress", Clock.system(), failure -> { });

    @Actor
    public void schedule(II_Result r) {
        try {
            timer.schedule(1_000_000_000L, () -> { });
            r.r2 = 1;
        } catch (java.util.concurrent.RejectedExecutionException refused) {
            r.r2 = 0;
        }
    }

    @Actor
    public void close(II_Result r) {
        try {
            r.r1 = timer.close() ? 1 : 2;
        } catch (RuntimeException e) {
            r.r1 = 3;
        }
    }
}

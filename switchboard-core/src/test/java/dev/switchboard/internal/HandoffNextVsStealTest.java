package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A worker's handoff buffer: a data-driven task put in front ({@link Worker#handoffNext}, into the slot before
 * {@code head}, which wraps around the ring) while the watchdog takes every buffered entry
 * ({@link Worker#stealBuffered}). The owner then takes the entry that should run next. Exactly one of the two may
 * claim the task: run by the owner, or moved to the shared queue (where the test scheduler's pool runs it), never
 * both and never neither.
 *
 * <p>Result: 1 if the owner took it, else 0; the number of entries the watchdog moved.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner ran it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the watchdog moved it to the shared queue")
@Outcome(expect = FORBIDDEN, desc = "claimed twice, or lost")
@State
public class HandoffNextVsStealTest {
    final Worker worker = new Worker(Leaf.SCHEDULER.pool(), Leaf.SCHEDULER);
    final Leaf task = new Leaf(null);

    @Actor
    public void owner(II_Result r) {
        worker.handoffNext(task);                     // an empty buffer: nothing to spread, the task goes in front
        r.r1 = worker.take() == task ? 1 : 0;
    }

    @Actor
    public void watchdog(II_Result r) {
        r.r2 = worker.stealBuffered();
    }
}

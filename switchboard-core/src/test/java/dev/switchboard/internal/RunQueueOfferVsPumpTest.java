package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The shared queue: an entry offered while the pending pump starts. One entry waits with its pump; one thread offers
 * a second entry (submitting a pump only if none is pending) while the pump runs. Afterwards every pump that was
 * submitted is run: both entries must have run exactly once, and none may be left without a pump.
 *
 * <p>Result: entries run minus two (0 when both ran once); entries still queued.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both entries ran once, nothing stranded")
@Outcome(expect = FORBIDDEN, desc = "an entry was stranded without a pump, or ran twice")
@State
public class RunQueueOfferVsPumpTest {
    final PumpRecorder pumps = new PumpRecorder();
    final RunQueue queue = new RunQueue(pumps);
    final RunQueue.Pump firstPump;

    public RunQueueOfferVsPumpTest() {
        queue.offer(pumps.entry(), false);
        firstPump = pumps.pump(0);
    }

    @Actor
    public void offer() {
        queue.offer(pumps.entry(), false);
    }

    @Actor
    public void pump() {
        firstPump.compute();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        pumps.runPumps(1);                        // every pump but the first, in the order submitted
        r.r1 = pumps.ran.get() - 2;
        r.r2 = queue.size();
    }
}

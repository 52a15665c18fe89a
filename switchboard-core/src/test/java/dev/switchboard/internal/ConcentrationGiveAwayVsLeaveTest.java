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
 * Actors held on one worker ({@link Concentration}): a worker gives an activation to the owner, without a pump,
 * while the owner's chain ends. The owner takes what the shared queue holds, then gives the actors up. Afterwards
 * every pump that was submitted is run: the entry must have run exactly once, and it may not be left in the queue
 * without a pump (the giver reads the owner after queueing; the owner reads the queue after leaving).
 *
 * <p>Result: entries run minus one (0 when it ran once); entries still queued.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the entry ran once: taken by the owner or by a pump")
@Outcome(expect = FORBIDDEN, desc = "the entry was stranded without a pump, or ran twice")
@State
public class ConcentrationGiveAwayVsLeaveTest {
    /** The owning worker: any thread object will do, the protocol only compares it. */
    static final Thread OWNER = new Thread(() -> { });

    final PumpRecorder pumps = new PumpRecorder();
    final RunQueue queue;
    final Concentration concentration;

    public ConcentrationGiveAwayVsLeaveTest() {
        SpreadingTrials trials = new SpreadingTrials();
        trials.pin(true);
        queue = new RunQueue(pumps, trials);
        concentration = queue.concentration();
        concentration.claim(OWNER);
    }

    @Actor
    public void give() {
        concentration.giveAway(pumps.entry(), false);
    }

    @Actor
    public void ownerChainEnds() {
        Node n;
        while ((n = queue.poll()) != null) {      // the owner's chain takes from the shared queue, then ends
            n.compute();
        }
        concentration.leave(OWNER);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        pumps.runPumps(0);                        // every pump, in the order submitted
        r.r1 = pumps.ran.get() - 1;
        r.r2 = queue.size();
    }
}

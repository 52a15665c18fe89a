package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A message sent to a mailbox while the selector drains that mailbox and finds it empty must still be
 * processed. A selector with more mailboxes: the consumer clears the mailbox's {@code nonEmpty} bit, re-checks the
 * queue and restores the bit if a message slipped in.
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both messages processed")
@Outcome(expect = FORBIDDEN, desc = "a message was stranded in its mailbox")
@State
public class SelectorSendVsDrainBitmapTest {
    final StressSelectors.TwoMessages selector = new StressSelectors.TwoMessages(StressSelectors.BITMAP);

    public SelectorSendVsDrainBitmapTest() {
        selector.ref().send(selector.last(), 1);
    }

    @Actor
    public void starter() {
        selector.start();
    }

    @Actor
    public void sender() {
        selector.ref().send(selector.last(), 2);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        Settle.until(() -> selector.processedCount() == 2);
        r.r1 = (int) selector.processedCount();
    }
}

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
 * Enabling a mailbox from a task the selector spawned, while a sender puts a message into that mailbox and the
 * selector goes idle: the message must be processed (enable-then-check against enqueue-then-check). With more mailboxes (emptiness kept in the bitmap).
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the message in the re-enabled mailbox was processed")
@Outcome(expect = FORBIDDEN, desc = "the message was stranded in an enabled mailbox")
@State
public class SelectorEnableVsSendBitmapTest {
    final StressSelectors.Gate gate = new StressSelectors.Gate(StressSelectors.BITMAP);

    public SelectorEnableVsSendBitmapTest() {
        gate.ref().send(0, "open");
        gate.start();
    }

    @Actor
    public void sender() {
        gate.ref().send(gate.last(), "payload");
    }

    @Arbiter
    public void arbiter(I_Result r) {
        Settle.until(() -> gate.seenInLast == 1);
        r.r1 = gate.seenInLast;
    }
}

package dev.switchboard.stress;

import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The status word: a message sent while the actor processes its previous message and releases its SCHEDULED
 * token must still be processed (enqueue-then-check against release-then-recheck).
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both messages processed")
@Outcome(expect = FORBIDDEN, desc = "a message was stranded in the mailbox: lost wake-up")
@State
public class SendVsReleaseTest {
    static final class TwoMessages extends dev.switchboard.actor.Actor<Integer> {

        @Override
        protected void process(Integer m) {
            if (processedCount() == 1) {    // this is the second message
                exit();
            }
        }
    }

    final TwoMessages actor = new TwoMessages();

    public SendVsReleaseTest() {
        actor.ref().send(1);
    }

    @org.openjdk.jcstress.annotations.Actor
    public void starter() {
        actor.start();
    }

    @org.openjdk.jcstress.annotations.Actor
    public void sender() {
        actor.ref().send(2);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        // processedCount is counted after process() returns, so wait for the count, not for TERMINATED.
        Settle.until(() -> actor.processedCount() == 2);
        r.r1 = (int) actor.processedCount();
    }
}

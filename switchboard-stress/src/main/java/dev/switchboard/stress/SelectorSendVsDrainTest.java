package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.Selector;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The ready bitmap: a message sent to a mailbox while the selector drains that mailbox and clears its
 * {@code nonEmpty} bit must still be processed (bit cleared, queue re-checked, bit restored).
 */
@JCStressTest
@Outcome(id = "2", expect = ACCEPTABLE, desc = "both messages processed")
@Outcome(expect = FORBIDDEN, desc = "a message was stranded: its mailbox's bit was lost")
@State
public class SelectorSendVsDrainTest {
    static final class TwoMessages extends Selector<Integer> {
        TwoMessages() {
            super(2);
        }

        @Override
        protected void process(Integer m) {
            if (processedCount() == 1) {
                exit();
            }
        }
    }

    final TwoMessages selector = new TwoMessages();

    public SelectorSendVsDrainTest() {
        selector.send(1, 1);
    }

    @Actor
    public void starter() {
        selector.start();
    }

    @Actor
    public void sender() {
        selector.send(1, 2);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        Settle.until(() -> selector.processedCount() == 2);
        r.r1 = (int) selector.processedCount();
    }
}

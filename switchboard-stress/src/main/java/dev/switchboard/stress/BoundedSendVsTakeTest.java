package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.BoundedMailbox;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * A send to a full bounded mailbox (capacity 1, dropping) races with the actor taking the message that fills it:
 * the late message is either dropped (it came before the place was given back) or processed (after), never lost
 * and never both. Checks the reserve-before-enqueue and release-after-take of the count.
 */
@JCStressTest
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "the place was given back first: both processed")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the mailbox was still full: the late message is a dead letter")
@Outcome(expect = FORBIDDEN, desc = "a message was lost or counted twice")
@State
public class BoundedSendVsTakeTest {
    static final class Counter extends dev.switchboard.actor.Actor<Integer> {

        Counter() {
            super(BoundedMailbox.dropping(1));
        }

        @Override
        protected void process(Integer m) {
            if (m < 0) {
                exit();                      // the arbiter's last word: a started actor must not outlive its test
            }
        }
    }

    final Counter actor = new Counter();

    public BoundedSendVsTakeTest() {
        actor.ref().send(1);                       // the one place
    }

    @Actor
    public void starter() {
        actor.start();                       // its activation takes 1 and gives the place back
    }

    @Actor
    public void lateSender() {
        actor.ref().send(2);
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        Settle.until(() -> actor.processedCount() + actor.deadLetterCount() == 2);
        r.r1 = actor.processedCount();
        r.r2 = actor.deadLetterCount();
        Settle.until(() -> actor.mailboxSize() == 0);
        actor.ref().send(-1);
    }
}

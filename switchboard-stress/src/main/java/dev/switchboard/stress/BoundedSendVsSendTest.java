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
 * Two senders race for the last place of a bounded mailbox (capacity 1, dropping): exactly one message is queued
 * and the other is a dead letter. The bound is exact, never passed by a racing sender, and nothing is lost.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "one queued, one dropped as a dead letter")
@Outcome(expect = FORBIDDEN, desc = "the bound was passed, or a message was lost or counted twice")
@State
public class BoundedSendVsSendTest {
    static final class Idle extends dev.switchboard.actor.Actor<Integer> {

        Idle() {
            super(BoundedMailbox.dropping(1));
        }

        @Override
        protected void process(Integer m) {
        }
    }

    final Idle actor = new Idle();           // never started: nothing takes the message out

    @Actor
    public void first() {
        actor.ref().send(1);
    }

    @Actor
    public void second() {
        actor.ref().send(2);
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = actor.mailboxSize();
        r.r2 = actor.deadLetterCount();
    }
}

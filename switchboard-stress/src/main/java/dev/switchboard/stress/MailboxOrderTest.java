package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.ActorState;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The mailbox under two concurrent senders while the actor is processing: no message is lost, and each
 * sender's messages are processed in the order it sent them.
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "all four processed, per-sender order kept")
@Outcome(id = "0", expect = FORBIDDEN, desc = "a sender's messages were reordered")
@Outcome(id = "-1", expect = FORBIDDEN, desc = "a message was lost")
@State
public class MailboxOrderTest {
    static final class Recorder extends dev.switchboard.actor.Actor<Integer> {

        final List<Integer> seen = new ArrayList<>(5);
        volatile int count;

        @Override
        protected void process(Integer m) {
            seen.add(m);
            count = seen.size();
            if (seen.size() == 5) {
                exit();
            }
        }
    }

    final Recorder actor = new Recorder();

    public MailboxOrderTest() {
        actor.ref().send(0);
        actor.start();
    }

    @Actor
    public void first() {
        actor.ref().send(1);
        actor.ref().send(2);
    }

    @Actor
    public void second() {
        actor.ref().send(3);
        actor.ref().send(4);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        Settle.until(() -> actor.state() == ActorState.TERMINATED);
        if (actor.count != 5) {
            r.r1 = -1;
            return;
        }
        List<Integer> s = actor.seen;
        r.r1 = s.indexOf(1) < s.indexOf(2) && s.indexOf(3) < s.indexOf(4) ? 1 : 0;
    }
}

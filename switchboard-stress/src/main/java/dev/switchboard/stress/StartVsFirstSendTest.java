package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The first message to an actor and to selectors whose mailboxes have no queue yet (it is created by that
 * message), sent while they start: start() reads the mailbox with no queue as empty, so the send must see the
 * actor started and schedule it, or start() must see the message. For an actor, a selector that reads emptiness
 * from its queues and one that keeps a bitmap. Outcome: messages processed by each (1 expected).
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "each processed its first message")
@Outcome(expect = FORBIDDEN, desc = "a first message was stranded: lost wake-up")
@State
public class StartVsFirstSendTest {
    static final class OneMessage extends Actor<Integer> {

        @Override
        protected void process(Integer m) {
            exit();
        }
    }

    static final class OneMessageSelector extends dev.switchboard.actor.Selector<Integer, dev.switchboard.actor.Selector.Numbered> {

        OneMessageSelector(int mailboxes) {
            super(mailboxes);
        }

        @Override
        protected void process(Integer m) {
            exit();
        }
    }

    final OneMessage actor = new OneMessage();
    final OneMessageSelector direct = new OneMessageSelector(StressSelectors.DIRECT);
    final OneMessageSelector bitmap = new OneMessageSelector(StressSelectors.BITMAP);

    @org.openjdk.jcstress.annotations.Actor
    public void starter() {
        actor.start();
        direct.start();
        bitmap.start();
    }

    @org.openjdk.jcstress.annotations.Actor
    public void sender() {
        actor.ref().send(1);
        direct.ref().send(direct.mailboxCount() - 1, 1);
        bitmap.ref().send(bitmap.mailboxCount() - 1, 1);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        Settle.until(() -> actor.processedCount() == 1 && direct.processedCount() == 1
                && bitmap.processedCount() == 1);
        r.r1 = (int) actor.processedCount();
        r.r2 = (int) direct.processedCount();
        r.r3 = (int) bitmap.processedCount();
    }
}

package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.Switchboard;
import dev.switchboard.actor.Selector;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Enabling a mailbox from a task the selector spawned, while a sender puts a message into that mailbox and the
 * selector goes idle: the message must be processed (enable-then-check against enqueue-then-check).
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the message in the re-enabled mailbox was processed")
@Outcome(expect = FORBIDDEN, desc = "the message was stranded in an enabled mailbox")
@State
public class SelectorEnableVsSendTest {
    /** Mailbox 1 starts disabled; the message in mailbox 0 spawns a task that enables it. */
    static final class Gate extends Selector<String> {
        volatile int seenInMailbox1;

        Gate() {
            super(2);
            disable(1);
        }

        @Override
        protected void process(String m) {
            if (m.equals("open")) {
                Switchboard.async(() -> enable(1));
            } else {
                seenInMailbox1++;
                exit();
            }
        }
    }

    final Gate gate = new Gate();

    public SelectorEnableVsSendTest() {
        gate.send(0, "open");
        gate.start();
    }

    @Actor
    public void sender() {
        gate.send(1, "payload");
    }

    @Arbiter
    public void arbiter(I_Result r) {
        Settle.until(() -> gate.seenInMailbox1 == 1);
        r.r1 = gate.seenInMailbox1;
    }
}

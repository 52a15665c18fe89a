package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.ActorState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Exit racing with a send: the late message must be accounted for exactly once, as a dead letter, whether it
 * arrives before the actor terminates (left in the mailbox) or after (sent to a terminated actor).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "exit processed, the late message is a dead letter")
@Outcome(expect = FORBIDDEN, desc = "a message was lost or counted twice")
@State
public class ExitVsSendTest {
    static final class ExitOnFirst extends dev.switchboard.actor.Actor<String> {

        @Override
        protected void process(String m) {
            exit();
        }
    }

    final ExitOnFirst actor = new ExitOnFirst();

    public ExitVsSendTest() {
        actor.ref().send("exit");
    }

    @Actor
    public void starter() {
        actor.start();
    }

    @Actor
    public void lateSender() {
        actor.ref().send("late");
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        Settle.until(() -> actor.state() == ActorState.TERMINATED
                && actor.processedCount() + actor.deadLetterCount() == 2);
        r.r1 = actor.processedCount();
        r.r2 = actor.deadLetterCount();
    }
}

package dev.switchboard.actor;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The wake-up protocol of an actor ({@link ActorCell}: enqueue, then check the token; release the token, then check
 * the mailbox) when the send is the one that makes the mailbox's queue grow. The queue is full (two messages in a
 * buffer of two), so the sender's offer resizes it, while the holder of the token takes both queued messages, gives
 * the token up and looks at the queue again. Either the sender sees the token given up (and would take it), or the
 * holder sees the message (and would take the token back), or the holder took it already; never a message left in
 * the queue with neither of them looking after it.
 *
 * <p>Result: what the sender read of the token after its offer (1 held, 0 given up); whether the holder found the
 * queue empty after giving the token up (1 empty); how many messages the holder took before.
 */
@JCStressTest
@Outcome(id = {"0, 0, 2", "0, 1, 2", "0, 1, 3"}, expect = ACCEPTABLE, desc = "the sender sees the token free")
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "the holder sees the message after giving the token up")
@Outcome(id = "1, 1, 3", expect = ACCEPTABLE, desc = "the holder took the message before giving the token up")
@Outcome(expect = FORBIDDEN, desc = "a message left queued with nobody to take it: lost wake-up")
@State
public class MailboxQueueGrowVsReleaseTest {
    private static final VarHandle TOKEN;

    static {
        try {
            TOKEN = MethodHandles.lookup().findVarHandle(MailboxQueueGrowVsReleaseTest.class, "token", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final MailboxQueue queue = new MailboxQueue(2, 1 << 10);
    /** The status word's SCHEDULED bit: 1 while the holder has the token. */
    volatile int token = 1;

    public MailboxQueueGrowVsReleaseTest() {
        queue.offer("first");
        queue.offer("second");                      // full: the next offer grows the queue
    }

    @Actor
    public void sender(III_Result r) {
        queue.offer("third");
        r.r1 = token;                               // signal(): a volatile read of the status word
    }

    @Actor
    public void holder(III_Result r) {
        int taken = 0;
        while (queue.poll() != null) {
            taken++;
        }
        TOKEN.getAndBitwiseAnd(this, ~1);           // clearScheduled(): an atomic read-modify-write
        r.r2 = queue.isEmpty() ? 1 : 0;             // reacquire(): mailbox.hasAny()
        r.r3 = taken;
    }
}

package dev.switchboard.actor;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A selector mailbox's queue across a resize: the first buffer (capacity 2) holds one element, put there before
 * the race, so the first of two concurrent offers grows the queue while the other waits for the resize or
 * lands in the new buffer. The second producer is also the consumer: after its offer it polls three times,
 * spinning, and may reach the old buffer's slot before the resizing producer has marked it JUMP. Each element
 * arrives exactly once, the pre-filled one first. (Two actors: jcstress cannot schedule three on a two-core
 * machine.) Outcome: the three elements polled (1 or 2 for the producers', 3 for the pre-filled one, 0 if none
 * came in two seconds), and 1 if the queue was then empty.
 */
@JCStressTest
@Outcome(id = "3, 1, 2, 1", expect = ACCEPTABLE, desc = "pre-filled first, then the first producer's")
@Outcome(id = "3, 2, 1, 1", expect = ACCEPTABLE, desc = "pre-filled first, then the second producer's")
@Outcome(expect = FORBIDDEN, desc = "a lost, duplicated or reordered element, or a queue not empty")
@State
public class MailboxQueueResizeTest {
    static final Object[] ELEMENTS = {"first", "second", "pre-filled"};

    final MailboxQueue queue = new MailboxQueue(2, 64);

    public MailboxQueueResizeTest() {
        queue.offer(ELEMENTS[2]);                              // the first buffer is now full
    }

    @Actor
    public void first() {
        queue.offer(ELEMENTS[0]);
    }

    @Actor
    public void secondThenConsumer(IIII_Result r) {
        queue.offer(ELEMENTS[1]);
        r.r1 = MailboxQueueStress.pollCode(queue, ELEMENTS);
        r.r2 = MailboxQueueStress.pollCode(queue, ELEMENTS);
        r.r3 = MailboxQueueStress.pollCode(queue, ELEMENTS);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = MailboxQueueStress.drainedCode(queue);
    }
}

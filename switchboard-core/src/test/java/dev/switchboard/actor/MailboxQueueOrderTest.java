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
 * One producer's FIFO order while the consumer polls concurrently, across the wrap-around of the first buffer
 * and a resize: the queue (first buffer of 2, at most 4 elements) starts with two elements taken and one
 * waiting, so the producer's three offers wrap around the first buffer or grow it, depending on how far the
 * consumer has got. The consumer polls without
 * waiting, so it sees a prefix of the producer's elements, in order; what is left arrives after both finished.
 * Outcome: how many of the producer's elements the consumer saw (r1), whether they came in order (r2), whether
 * the rest came in order after (r3), and whether the queue was then empty (r4).
 */
@JCStressTest
@Outcome(id = {"0, 1, 1, 1", "1, 1, 1, 1", "2, 1, 1, 1", "3, 1, 1, 1"}, expect = ACCEPTABLE,
        desc = "a prefix polled concurrently, the rest after, all in order")
@Outcome(expect = FORBIDDEN, desc = "an element lost, duplicated or out of order")
@State
public class MailboxQueueOrderTest {
    static final Object WAITING = "waiting";
    static final Object[] ELEMENTS = {"a", "b", "c"};

    final MailboxQueue queue = new MailboxQueue(2, 4);
    int polledConcurrently;
    boolean inOrder = true;

    public MailboxQueueOrderTest() {
        queue.offer("taken-1");
        queue.poll();
        queue.offer("taken-2");
        queue.poll();
        queue.offer(WAITING);                            // the indices have moved on: the producer wraps
    }

    @Actor
    public void producer() {
        for (Object e : ELEMENTS) {
            queue.offer(e);
        }
    }

    @Actor
    public void consumer() {
        if (queue.poll() != WAITING) {                  // offered before the race: always there
            inOrder = false;
            return;
        }
        Object e;
        while ((e = queue.poll()) != null) {
            if (polledConcurrently >= ELEMENTS.length || e != ELEMENTS[polledConcurrently]) {
                inOrder = false;
            }
            polledConcurrently++;
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = polledConcurrently;
        r.r2 = inOrder ? 1 : 0;
        int next = polledConcurrently;
        boolean restInOrder = true;
        Object e;
        while ((e = queue.poll()) != null) {
            if (next >= ELEMENTS.length || e != ELEMENTS[next]) {
                restInOrder = false;
            }
            next++;
        }
        r.r3 = restInOrder && next == ELEMENTS.length ? 1 : 0;
        r.r4 = MailboxQueueStress.drainedCode(queue);
    }
}

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
 * The lazily created queues: two producers send the first messages to a mailbox that has no queue yet, so both
 * may try to install one. The second producer is also the consumer: after its offer it polls twice, spinning.
 * Each message arrives exactly once, in one queue, for an actor's mailbox ({@link SingleMailbox}) and for one
 * mailbox of a selector ({@link GuardedMailboxes}) at once (mailbox 1 of 2; the arbiter's code counts both
 * mailbox kinds). Outcome: the two elements the consumer polled from the actor's mailbox (1 or 2, 0 if none came
 * in two seconds), the same for the selector's mailbox, and 1 if both mailboxes were then empty with exactly one
 * queue each.
 */
@JCStressTest
@Outcome(id = {"1, 2, 12, 1", "2, 1, 12, 1", "1, 2, 21, 1", "2, 1, 21, 1"}, expect = ACCEPTABLE,
        desc = "each message exactly once, in the one queue installed")
@Outcome(expect = FORBIDDEN, desc = "a lost or duplicated message, or a second queue")
@State
public class LazyQueueFirstOffersTest {
    static final Object[] ELEMENTS = {"first", "second"};

    final SingleMailbox single = new SingleMailbox();
    final GuardedMailboxes guarded = GuardedMailboxes.create(2, SelectionPolicy.PRIORITY);

    @Actor
    public void first() {
        single.offer(ELEMENTS[0], 0);
        guarded.offer(ELEMENTS[0], 1);
    }

    @Actor
    public void secondThenConsumer(IIII_Result r) {
        single.offer(ELEMENTS[1], 0);
        guarded.offer(ELEMENTS[1], 1);
        r.r1 = pollCode(single);
        r.r2 = pollCode(single);
        r.r3 = 10 * pollCode(guarded) + pollCode(guarded);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        boolean drained = single.poll() == null && !single.hasAny() && single.size() == 0 && single.hasQueue()
                && guarded.poll() == null && !guarded.hasAny() && guarded.size() == 0
                && guarded.queuesCreated() == 1;
        r.r4 = drained ? 1 : 0;
    }

    /** Polls until an element arrives or two seconds passed; returns its number in ELEMENTS, 0 if none. */
    private static int pollCode(Mailbox m) {
        Object e = m.poll();
        if (e == null) {
            long end = System.nanoTime() + 2_000_000_000L;
            do {
                Thread.onSpinWait();
                e = m.poll();
            } while (e == null && System.nanoTime() < end);
        }
        for (int i = 0; i < ELEMENTS.length; i++) {
            if (e == ELEMENTS[i]) {
                return i + 1;
            }
        }
        return e == null ? 0 : 99;
    }
}

package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The shared queue's pump against a busy worker's {@code take}: one entry waits with its pump; the pump runs while a
 * busy worker takes an entry itself. Afterwards a second entry is offered and every pump still waiting is run: both
 * entries must have run, exactly once each. (A pump that looked for a cancellation before the worker announced one
 * and then found the queue empty used to leave the cancellation behind, and the second entry's pump retired on it:
 * "-1, 1".)
 *
 * <p>Result: how many entries ran, minus two (0 when both ran once); the entries still queued.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both entries ran once, nothing stranded")
@Outcome(expect = FORBIDDEN, desc = "an entry was stranded without a pump, or ran twice")
@State
public class RunQueuePumpVsTakeTest {
    final AtomicInteger ran = new AtomicInteger();
    final List<RunQueue.Pump> pumps = new ArrayList<>();
    final RunQueue queue = new RunQueue((pump, onWorker) -> {
        synchronized (pumps) {
            pumps.add(pump);
        }
    });
    final RunQueue.Pump firstPump;

    public RunQueuePumpVsTakeTest() {
        queue.offer(new Entry(), false);
        firstPump = pumps.get(0);
    }

    /** An entry that counts its runs. */
    final class Entry extends Node {
        Entry() {
            super(null, Leaf.SCHEDULER);
        }

        @Override
        protected void run() {
            ran.incrementAndGet();
        }
    }

    @Actor
    public void pump() {
        firstPump.compute();
    }

    @Actor
    public void busyWorker() {
        Node n = queue.take();
        if (n != null) {
            n.compute();
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        queue.offer(new Entry(), false);
        for (int i = 1; ; i++) {                  // every pump but the first, replacements included
            RunQueue.Pump next;
            synchronized (pumps) {
                if (i >= pumps.size()) {
                    break;
                }
                next = pumps.get(i);
            }
            next.compute();
        }
        r.r1 = ran.get() - 2;
        r.r2 = queue.size();
    }
}

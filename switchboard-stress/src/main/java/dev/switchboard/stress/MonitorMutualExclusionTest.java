package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.Actor;
import dev.switchboard.monitor.Letter;
import dev.switchboard.monitor.LetterFilter;
import dev.switchboard.monitor.Monitor;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A parallel actor monitor: two letters finish while a third message arrives from another thread, so
 * {@code leave} and {@code schedule} are requested on three threads at once. They must never overlap (they run
 * under the actor's token, on whichever thread gets it), {@code leave} must run once per letter, and no wake-up
 * may be lost: every letter runs.
 */
@JCStressTest
@Outcome(id = "0, 3, 3", expect = ACCEPTABLE, desc = "no overlap, three leaves, three letters processed")
@Outcome(expect = FORBIDDEN, desc = "schedule/leave overlapped, a leave was lost or doubled, or a letter never ran")
@State
public class MonitorMutualExclusionTest {
    static final class StartAll extends Monitor {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger leaves = new AtomicInteger();

        @Override
        protected void schedule() {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            startAll(LetterFilter.ANY);
            inside.decrementAndGet();
        }

        @Override
        protected void leave(Letter letter) {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            leaves.incrementAndGet();
            inside.decrementAndGet();
        }
    }

    static final class Counter extends Actor<Integer> {

        final AtomicInteger processed = new AtomicInteger();

        @Override
        protected void process(Integer m) {
            if (processed.incrementAndGet() == 3) {
                exit();
            }
        }
    }

    final Counter actor = new Counter();
    final StartAll monitor = new StartAll();

    public MonitorMutualExclusionTest() {
        monitor.bind(actor);
        actor.ref().send(1);
        actor.ref().send(2);
    }

    @org.openjdk.jcstress.annotations.Actor
    public void starter() {
        actor.start();
    }

    @org.openjdk.jcstress.annotations.Actor
    public void sender() {
        actor.ref().send(3);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        Settle.until(() -> monitor.leaves.get() == 3);
        r.r1 = monitor.overlaps.get();
        r.r2 = monitor.leaves.get();
        r.r3 = actor.processed.get();
    }
}

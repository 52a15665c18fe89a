package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.monitor.MutexMonitor;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A mutex monitor's wake-up: the first letter runs and leaves on a worker while a second message arrives from
 * another thread. The second letter may start only after the first has left, and must start then: either the
 * arrival sees the monitor free, or the leave sees the arrival waiting. A lost wake-up strands it.
 */
@JCStressTest
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "both letters ran, one at a time")
@Outcome(expect = FORBIDDEN, desc = "a letter was stranded, or the two overlapped")
@State
public class MonitorMutexWakeUpTest {
    static final class Counter extends dev.switchboard.actor.Actor<Integer> {

        final AtomicInteger processed = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();

        @Override
        protected void process(Integer m) {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            running.decrementAndGet();
            if (processed.incrementAndGet() == 2) {
                exit();
            }
        }
    }

    final Counter actor = new Counter();

    public MonitorMutexWakeUpTest() {
        new MutexMonitor().bind(actor);
        actor.start();
        actor.ref().send(1);
    }

    @org.openjdk.jcstress.annotations.Actor
    public void sender() {
        actor.ref().send(2);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        Settle.until(() -> actor.processed.get() == 2);
        r.r1 = actor.processed.get();
        r.r2 = actor.mostAtOnce.get();
    }
}

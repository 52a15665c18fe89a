package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A put racing with an asyncAwait registration: the awaiting task runs exactly once, and sees the value
 * (the waiter stack closed by the producer against the registration CAS).
 */
@JCStressTest
@Outcome(id = "1, 7", expect = ACCEPTABLE, desc = "the awaiting task ran once and saw the value")
@Outcome(expect = FORBIDDEN, desc = "the task never ran, ran twice, or saw no value")
@State
public class DdfPutVsAwaitTest {
    final DataDrivenFuture<Integer> ddf = new DataDrivenFuture<>();
    final AtomicInteger runs = new AtomicInteger();
    volatile int seen;

    @Actor
    public void producer() {
        ddf.put(7);
    }

    @Actor
    public void consumer() {
        TaskRuntime.defaultRuntime().asyncAwait(ddf, () -> {
            seen = ddf.get();
            runs.incrementAndGet();
        });
    }

    @Arbiter
    public void arbiter(II_Result r) {
        Settle.until(() -> runs.get() > 0);
        r.r1 = runs.get();
        r.r2 = seen;
    }
}

package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.task.DataDrivenControl;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** A data-driven control's value and body arriving at once: the body runs exactly once, with the value. */
@JCStressTest
@Outcome(id = "1, 5", expect = ACCEPTABLE, desc = "the body ran once with the value")
@Outcome(expect = FORBIDDEN, desc = "the body ran twice, never, or without the value")
@State
public class DdcValueVsBodyTest {
    final DataDrivenControl<Integer> ddc = new DataDrivenControl<>(DataDrivenControl.Mode.SYNCHRONOUS);
    final AtomicInteger runs = new AtomicInteger();
    volatile int seen;

    @Actor
    public void value() {
        ddc.addValue(5);
    }

    @Actor
    public void body() {
        ddc.addResumable(v -> {
            seen = v;
            runs.incrementAndGet();
        });
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = runs.get();
        r.r2 = seen;
    }
}

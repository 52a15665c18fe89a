package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.task.DataDrivenFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/** Two racing puts on a data-driven future: exactly one wins, and get() returns the winner's value. */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the first put won")
@Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "the second put won")
@Outcome(expect = FORBIDDEN, desc = "both or neither succeeded, or get() disagrees")
@State
public class DdfPutRaceTest {
    final DataDrivenFuture<Integer> ddf = new DataDrivenFuture<>();

    @Actor
    public void first(III_Result r) {
        r.r1 = tryPut(1);
    }

    @Actor
    public void second(III_Result r) {
        r.r2 = tryPut(2);
    }

    private int tryPut(int v) {
        try {
            ddf.put(v);
            return 1;
        } catch (IllegalStateException e) {
            return 0;
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = ddf.get();
    }
}

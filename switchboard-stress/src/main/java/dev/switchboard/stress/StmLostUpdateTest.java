package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The engine's commit: two transactions each read x and write it plus one. One commits first and the other, whose
 * read went stale, rolls back and runs again: each sees a different value and x ends at 2. An update is never lost
 * (two transactions both reading 0 and both committing).
 */
@JCStressTest
@Outcome(id = {"0, 1, 2", "1, 0, 2"}, expect = ACCEPTABLE, desc = "one after the other")
@Outcome(expect = FORBIDDEN, desc = "an update lost, or a value no commit wrote")
@State
public class StmLostUpdateTest {
    final TRef<Integer> x = TRef.of(0);

    @Actor
    public void first(III_Result r) {
        r.r1 = Stm.atomic(() -> {
            int v = x.get();
            x.set(v + 1);
            return v;
        });
    }

    @Actor
    public void second(III_Result r) {
        r.r2 = Stm.atomic(() -> {
            int v = x.get();
            x.set(v + 1);
            return v;
        });
    }

    @Arbiter
    public void end(III_Result r) {
        r.r3 = x.directGet();
    }
}

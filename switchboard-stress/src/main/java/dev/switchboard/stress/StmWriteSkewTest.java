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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The engine's validation of reads: two transactions each write one reference only if the other's is still 0 (the
 * two doctors on call). Each reads what the other writes, so in any one-at-a-time order only one of them writes.
 * Snapshot isolation, which checks only writes against writes, would let both write (write skew); the commit's
 * validation of the read set does not.
 */
@JCStressTest
@Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "one of them, in either order")
@Outcome(expect = FORBIDDEN, desc = "both wrote (write skew), or neither")
@State
public class StmWriteSkewTest {
    final TRef<Integer> x = TRef.of(0);
    final TRef<Integer> y = TRef.of(0);

    @Actor
    public void first() {
        Stm.atomic(() -> {
            if (y.get() == 0) {
                x.set(1);
            }
        });
    }

    @Actor
    public void second() {
        Stm.atomic(() -> {
            if (x.get() == 0) {
                y.set(1);
            }
        });
    }

    @Arbiter
    public void end(II_Result r) {
        r.r1 = x.directGet();
        r.r2 = y.directGet();
    }
}

package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The engine's snapshot: a transaction moves the one unit from x to y while another reads y, then x (the order in
 * which a stale snapshot would show the unit twice or not at all). The reads of one transaction are one snapshot:
 * before the move or after it, never half of it, also in an attempt that rolls back (the reader returns what its
 * committed attempt read, and an attempt that saw half would have had to be rolled back before it returned).
 */
@JCStressTest
@Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "before the move, or after it")
@Outcome(expect = FORBIDDEN, desc = "half of the move: the unit twice, or nowhere")
@State
public class StmSnapshotTest {
    final TRef<Integer> x = TRef.of(1);
    final TRef<Integer> y = TRef.of(0);

    @Actor
    public void mover() {
        Stm.atomic(() -> {
            x.set(x.get() - 1);
            y.set(y.get() + 1);
        });
    }

    @Actor
    public void reader(II_Result r) {
        long both = Stm.atomic(() -> {
            int seenY = y.get();
            int seenX = x.get();
            if (seenX + seenY != 1) {             // opacity: no attempt may see half, even one that rolls back
                return -1L;
            }
            return ((long) seenX << 32) | seenY;
        });
        r.r1 = both < 0 ? -1 : (int) (both >>> 32);
        r.r2 = both < 0 ? -1 : (int) both;
    }
}

package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The finish counter (spawn tree): two children end at the same time, one of them on the thread that also ends
 * the finish body; the scope ends exactly when the last of the three does, never before. (Two actors: jcstress
 * cannot schedule three on a two-core machine.)
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the scope ended once everything ended")
@Outcome(expect = FORBIDDEN, desc = "the scope did not end, or its count went wrong")
@State
public class FinishCounterTest {
    final Scope scope = new Scope(null, Leaf.SCHEDULER, null, false, 1);
    final Leaf a = new Leaf(scope.attachChild());
    final Leaf b = new Leaf(scope.attachChild());

    @Actor
    public void childA() {
        a.tryComplete();
    }

    @Actor
    public void childBThenBody() {
        b.tryComplete();
        scope.sealSpawns();
        scope.tryComplete();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = scope.isEnded() ? 1 : 0;
        r.r2 = scope.getPendingCount();
    }
}

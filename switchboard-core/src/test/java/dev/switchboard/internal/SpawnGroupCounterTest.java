package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Wide fan-out: a task with 8 direct children and two spawn groups; the children end on two threads, and one
 * of them then seals the spawner's last group and ends the spawner. The scope must end exactly once everything has, and not before the
 * spawner has ended.
 */
@JCStressTest
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "the scope ended after all children and the spawner")
@Outcome(expect = FORBIDDEN, desc = "the scope did not end, or ended too early")
@State
public class SpawnGroupCounterTest {
    static final int CHILDREN = Node.DIRECT_CHILDREN + Node.GROUP_SIZE + 5;

    final Scope scope = new Scope(null, Leaf.SCHEDULER, null, false, 1);
    final Leaf spawner = new Leaf(scope.attachChild());
    final Leaf[] children = new Leaf[CHILDREN];
    volatile boolean spawnerEnded;

    public SpawnGroupCounterTest() {
        for (int i = 0; i < CHILDREN; i++) {
            children[i] = new Leaf(spawner.attachChild());
        }
        scope.sealSpawns();
        scope.tryComplete();               // the finish body has ended
    }

    @Actor
    public void evenChildren() {
        for (int i = 0; i < CHILDREN; i += 2) {
            children[i].tryComplete();
        }
    }

    @Actor
    public void oddChildrenThenSpawner(ZZ_Result r) {
        for (int i = 1; i < CHILDREN; i += 2) {
            children[i].tryComplete();
        }
        r.r2 = !scope.isEnded();           // cannot have ended while the spawner has not
        spawner.sealSpawns();
        spawner.tryComplete();
    }

    @Arbiter
    public void arbiter(ZZ_Result r) {
        r.r1 = scope.isEnded();
    }
}

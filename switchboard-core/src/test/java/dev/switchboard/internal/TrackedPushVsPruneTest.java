package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A finish's tracked nodes ({@link TrackedNodes}): a node pushed (an actor started in the finish) while a pruning
 * unlinks the closed ones. The list holds, from the head, an open node, a closed one and an open one. Whichever
 * head the pruner reads, the pushed node stays (a pruner never writes the head), both open nodes stay, and the
 * closed one is unlinked (it is below either head). A close that walked a list missing the pushed node would leave
 * its actor running.
 *
 * <p>Result: whether the list holds, after both, the pushed node, the first open node, the last open node, the
 * closed node (1 holds).
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "the closed node unlinked, every open one kept")
@Outcome(expect = FORBIDDEN, desc = "an open node lost, or the closed one kept")
@State
public class TrackedPushVsPruneTest {
    final TrackedNodes list = new TrackedNodes();
    final Tracked oldest = new Tracked(true);
    final Tracked closed = new Tracked(false);
    final Tracked newest = new Tracked(true);
    final Tracked pushed = new Tracked(true);

    public TrackedPushVsPruneTest() {
        list.push(oldest);
        list.push(closed);
        list.push(newest);
    }

    @Actor
    public void pusher() {
        list.push(pushed);
    }

    @Actor
    public void pruner() {
        list.prune();
    }

    @Arbiter
    public void walk(IIII_Result r) {
        for (Node n = list.first(); n != null; n = n.nextTracked) {
            if (n == pushed) {
                r.r1 = 1;
            } else if (n == oldest) {
                r.r2 = 1;
            } else if (n == newest) {
                r.r3 = 1;
            } else if (n == closed) {
                r.r4 = 1;
            }
        }
    }

    /** A tracked node that is open or not, as an actor's activation is until the actor ends. */
    static final class Tracked extends Node {
        private final boolean open;

        Tracked(boolean open) {
            super(null, Leaf.SCHEDULER);
            this.open = open;
        }

        @Override
        protected void run() {
        }

        @Override
        public boolean isOpen() {
            return open;
        }
    }
}

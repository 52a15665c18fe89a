package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link TRef#directGet()}: a writer runs a transaction that writes -1 to x and y and rolls back, then one that
 * commits 1 to both; a reader reads x then y directly, without a transaction (two actors: these machines have two
 * cores). A direct read returns only values some transaction
 * committed (0 or 1), never a rolled-back or speculative one (-1). It is relaxed: it may see the committing
 * transaction's write to one reference and not yet to the other.
 */
@JCStressTest
@Outcome(id = {"0, 0", "1, 1"}, expect = ACCEPTABLE, desc = "before or after the commit")
@Outcome(id = {"0, 1", "1, 0"}, expect = ACCEPTABLE_INTERESTING,
        desc = "relaxed: one reference read before the commit wrote it, the other after")
@Outcome(expect = FORBIDDEN, desc = "a value that no committed transaction wrote")
@State
public class DirectReadTest {
    final TRef<Integer> x = TRef.of(0);
    final TRef<Integer> y = TRef.of(0);

    @Actor
    public void writer() {
        try {
            Stm.atomic(() -> {
                x.set(-1);
                y.set(-1);
                throw new IllegalStateException("rolled back");
            });
        } catch (IllegalStateException expected) {
            // its writes were never committed
        }
        Stm.atomic(() -> {
            x.set(1);
            y.set(1);
        });
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = x.directGet();
        r.r2 = y.directGet();
    }
}

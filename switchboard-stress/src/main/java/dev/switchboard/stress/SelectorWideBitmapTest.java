package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.Selector;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The two-level bitmap of a selector with more than 64 mailboxes: messages sent concurrently into mailboxes of
 * different 64-mailbox words, while the selector is draining another word, must all be found through the
 * summary word.
 */
@JCStressTest
@Outcome(id = "3", expect = ACCEPTABLE, desc = "all three messages processed")
@Outcome(expect = FORBIDDEN, desc = "a message was stranded: a summary bit was lost")
@State
public class SelectorWideBitmapTest {
    static final class Wide extends Selector<Integer, dev.switchboard.actor.Selector.Numbered> {

        final AtomicInteger seen = new AtomicInteger();

        Wide() {
            super(200, ROUND_ROBIN_POLICY);
        }

        @Override
        protected void process(Integer m) {
            if (seen.incrementAndGet() == 3) {
                exit();
            }
        }
    }

    static final dev.switchboard.actor.SelectionPolicy ROUND_ROBIN_POLICY =
            dev.switchboard.actor.SelectionPolicy.ROUND_ROBIN;

    final Wide wide = new Wide();

    public SelectorWideBitmapTest() {
        wide.ref().send(10, 0);
        wide.start();
    }

    @Actor
    public void first() {
        wide.ref().send(70, 1);
    }

    @Actor
    public void second() {
        wide.ref().send(199, 2);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        Settle.until(() -> wide.seen.get() == 3);
        r.r1 = wide.seen.get();
    }
}

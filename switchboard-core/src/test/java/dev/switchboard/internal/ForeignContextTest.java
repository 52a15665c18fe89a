package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * Two threads that are not workers enter a context each, ask for it, leave and ask again, at the same time
 * ({@link Context}: the last such thread to enter leaves a record that answers its own lookups). Outcome per
 * thread: whether it saw its own node inside, and whether it saw none after leaving. Anything but
 * "true, true, true, true" means a thread was answered from the other's record, or from a stale one of its own.
 */
@JCStressTest
@Outcome(id = "true, true, true, true", expect = ACCEPTABLE, desc = "each thread saw its own context, then none")
@Outcome(expect = FORBIDDEN, desc = "a thread saw the other's context, or its own after leaving it")
@State
public class ForeignContextTest {
    final Node a = new Leaf(null);
    final Node b = new Leaf(null);

    @Actor
    public void first(ZZZZ_Result r) {
        Thread t = Thread.currentThread();
        Node previous = Context.enter(t, a);
        r.r1 = Context.current() == a;
        Context.restore(t, previous);
        r.r2 = Context.current() == null;
    }

    @Actor
    public void second(ZZZZ_Result r) {
        Thread t = Thread.currentThread();
        Node previous = Context.enter(t, b);
        r.r3 = Context.current() == b;
        Context.restore(t, previous);
        r.r4 = Context.current() == null;
    }
}

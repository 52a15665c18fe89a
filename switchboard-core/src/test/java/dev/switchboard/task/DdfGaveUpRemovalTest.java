package dev.switchboard.task;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link DataDrivenFuture}'s removal of the waiters whose timed get gave up, racing with a registration (a push
 * onto the top of the stack), with the put (which takes the whole stack), and with another removal. No waiter that
 * still waits is ever taken off (the put tells every copy), and a removal alone leaves no given-up waiter behind.
 */
public class DdfGaveUpRemovalTest {
    /** Gives up waiting on {@code f}, unless it is put first. */
    static void giveUp(DataDrivenFuture<String> f) {
        try {
            f.get(Duration.ofNanos(1));
        } catch (TimeoutException expected) {
            // the waiter is off the stack again
        }
    }

    /** A future with a copy registered before the race, and one the race registers. */
    abstract static class WithCopies {
        final DataDrivenFuture<String> f = new DataDrivenFuture<>();
        final CompletableFuture<String> before = f.toCompletableFuture();
        CompletableFuture<String> during;

        void register() {
            during = f.toCompletableFuture();
        }

        /** The entries left before the put (the two copies), then whether the put told both copies. */
        void settle(II_Result r) {
            r.r1 = f.waiting();
            f.put("v");
            r.r2 = "v".equals(before.getNow(null)) && "v".equals(during.getNow(null)) ? 1 : 0;
        }
    }

    /** Outcome: the entries left before the put (the two copies), and whether both copies were told. */
    @JCStressTest
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "the given-up waiter was taken off; both copies were told")
    @Outcome(expect = FORBIDDEN, desc = "a given-up waiter was left, or a copy that waited was lost")
    @State
    public static class GiveUpVsRegister extends WithCopies {
        @Actor
        public void poller() {
            giveUp(f);
        }

        @Actor
        public void registers() {
            register();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            settle(r);
        }
    }

    /** Outcome: the entries left after the put, and whether the copy registered before was told. */
    @JCStressTest
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the put took the stack and told the copy")
    @Outcome(expect = FORBIDDEN, desc = "the removal put entries back after the put, or lost the copy")
    @State
    public static class GiveUpVsPut {
        final DataDrivenFuture<String> f = new DataDrivenFuture<>();
        final CompletableFuture<String> before = f.toCompletableFuture();

        @Actor
        public void poller() {
            giveUp(f);
        }

        @Actor
        public void producer() {
            f.put("v");
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = f.waiting();
            r.r2 = "v".equals(before.getNow(null)) ? 1 : 0;
        }
    }

    /**
     * Outcome: the entries left once one more poller has given up alone (two racing removals may each leave an
     * entry in that the other took off above it), and whether both copies were told.
     */
    @JCStressTest
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "a lone removal cleaned up after the race; both copies told")
    @Outcome(expect = FORBIDDEN, desc = "a given-up waiter stayed, or a copy that waited was lost")
    @State
    public static class TwoGiveUpsVsRegister extends WithCopies {
        @Actor
        public void poller1() {
            giveUp(f);
        }

        @Actor
        public void poller2() {
            giveUp(f);
        }

        @Actor
        public void registers() {
            register();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            giveUp(f);
            settle(r);
        }
    }
}

package dev.switchboard.actor;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link ReplyTo}'s state word: the replier's answer and the runtime's give-up race for one request. The replier
 * is never disturbed (no exception), and the waiter hears the reply exactly once, either as the answer or, after
 * the give-up, as a late answer it turns into a dead letter.
 */
public class ReplyToRaceTest {
    /** Counts what a waiter heard. */
    static final class Recorder implements ReplyTo.Waiter {
        final AtomicInteger answers = new AtomicInteger();
        final AtomicInteger giveUps = new AtomicInteger();

        @Override
        public void answer(Object reply, Throwable failure) {
            answers.incrementAndGet();
        }

        @Override
        public void gaveUp(Throwable cause) {
            giveUps.incrementAndGet();
        }
    }

    /**
     * Outcome: whether the replier threw, how many answers and give-ups the waiter heard, whether the request
     * counts as answered.
     */
    @JCStressTest
    @Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "the reply came first; the give-up was ignored")
    @Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE,
            desc = "the runtime gave up first; the reply reached the waiter late (a dead letter)")
    @Outcome(expect = FORBIDDEN, desc = "the replier was disturbed, or the waiter heard too much or nothing")
    @State
    public static class ReplyVsGiveUp {
        final Recorder waiter = new Recorder();
        final ReplyTo<String> replyTo = new ReplyTo<>(waiter, null);

        @Actor
        public void replier(IIII_Result r) {
            try {
                replyTo.reply("answer");
            } catch (IllegalStateException e) {
                r.r1 = 1;
            }
        }

        @Actor
        public void runtime() {
            replyTo.failUnanswered(new NoReplyException("gave up"));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r2 = waiter.answers.get();
            r.r3 = waiter.giveUps.get();
            r.r4 = replyTo.isAnswered() ? 1 : 0;
        }
    }

    /** Outcome: whether the first and the second replier threw, and how many answers the waiter heard. */
    @JCStressTest
    @Outcome(id = {"0, 1, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "one answer; the other is told it came second")
    @Outcome(expect = FORBIDDEN, desc = "two answers, or none")
    @State
    public static class TwoReplies {
        final Recorder waiter = new Recorder();
        final ReplyTo<String> replyTo = new ReplyTo<>(waiter, null);

        @Actor
        public void first(III_Result r) {
            try {
                replyTo.reply("one");
            } catch (IllegalStateException e) {
                r.r1 = 1;
            }
        }

        @Actor
        public void second(III_Result r) {
            try {
                replyTo.fail(new IllegalArgumentException("two"));
            } catch (IllegalStateException e) {
                r.r2 = 1;
            }
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = waiter.answers.get();
        }
    }
}

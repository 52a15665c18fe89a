package dev.switchboard.actor;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.internal.Node;
import java.util.concurrent.CountedCompleter;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link PendingReply}'s hold: a requester released while it awaits an answer sets a hold node
 * ({@code holdWith}) as the answer is queued ({@code releaseHold}). Whichever comes first, the node is completed
 * exactly once: by the answer if the hold came first, at once by the requester if the answer came first. Never
 * twice (the finish would lose a count) and never not at all (the finish would wait forever).
 */
public class ReplyHoldRaceTest {
    /** A hold node that counts its completions (a second {@code tryComplete} of a node completes it again). */
    static final class CountingNode extends Node {
        final AtomicInteger completions = new AtomicInteger();

        CountingNode() {
            super(null, null);
        }

        @Override
        protected void run() {
            throw new AssertionError("a hold is never run");
        }

        @Override
        public void onCompletion(CountedCompleter<?> caller) {
            completions.incrementAndGet();
        }
    }

    /** Outcome: how often the node was completed, and whether the reply counts as held or released. */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the node completed once, by whichever came second")
    @Outcome(expect = FORBIDDEN, desc = "the node completed twice or never")
    @State
    public static class HoldVsAnswer {
        final PendingReply<String> pending = new PendingReply<>(null, null, reply -> { }, null, 0);
        final CountingNode node = new CountingNode();

        @Actor
        public void answer() {
            pending.releaseHold();
        }

        @Actor
        public void release() {
            pending.holdWith(node);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = node.completions.get();
            r.r2 = pending.held() ? 1 : 0;
        }
    }

    /**
     * A requester released while a task of its awaits the answer: the release swaps the task's node for one of
     * the finish's scope ({@code holdWith}) as the answer is queued ({@code releaseHold}). Each node is completed
     * exactly once: the task's by the swap or by the answer, the scope's by the answer or at once.
     */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each node completed once")
    @Outcome(expect = FORBIDDEN, desc = "a node completed twice or never")
    @State
    public static class SwapVsAnswer {
        final PendingReply<String> pending = new PendingReply<>(null, null, reply -> { }, null, 0);
        final CountingNode taskNode = new CountingNode();
        final CountingNode scopeNode = new CountingNode();

        public SwapVsAnswer() {
            pending.holdWith(taskNode);               // set before the request is sent, as a task's is
        }

        @Actor
        public void answer() {
            pending.releaseHold();
        }

        @Actor
        public void release() {
            pending.holdWith(scopeNode);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = taskNode.completions.get();
            r.r2 = scopeNode.completions.get();
        }
    }
}

package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import dev.switchboard.task.RuntimeInternals;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node is never handed to the ForkJoinPool twice as the same object ({@link Node#poolTask}): a thief delayed
 * inside a steal could otherwise take a later push of it for the one it saw and move the queue's base back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolTaskTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    private static Node node(Runnable body) {
        return new Node(null, RuntimeInternals.schedulerOf(rt)) {
            @Override
            protected void run() {
                body.run();
            }
        };
    }

    /** The first push is the node itself; every later push is a new one-shot task completing into the node. */
    @Test
    void everyPushAfterTheFirstIsANewTaskWhoseCompleterIsTheNode() {
        Node node = node(() -> { });
        ForkJoinTask<?> first = node.poolTask();
        ForkJoinTask<?> second = node.poolTask();
        ForkJoinTask<?> third = node.poolTask();
        assertThat(first).isSameAs(node);
        assertThat(second).isInstanceOf(Node.Rerun.class).isNotSameAs(node);
        assertThat(third).isInstanceOf(Node.Rerun.class).isNotSameAs(second);
        assertThat(((Node.Rerun) second).getCompleter()).isSameAs(node);
        assertThat(((Node.Rerun) third).getCompleter()).isSameAs(node);
    }

    /** A rerun task runs the node's work and leaves the node's completion alone: the node is still pending. */
    @Test
    void aRerunRunsTheNodeAndDoesNotCompleteIt() throws InterruptedException {
        CountDownLatch runs = new CountDownLatch(3);
        Node node = node(runs::countDown);
        node.poolTask();                               // the first push (not run here)
        for (int i = 0; i < 3; i++) {
            RuntimeInternals.schedulerOf(rt).pool().execute(node.poolTask());
        }
        assertThat(runs.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(node.isDone()).isFalse();
    }

    /**
     * Actors whose activations go through the pool over and over (far more pushes than a deque holds, with both
     * workers stealing) process every message, and each finish ends.
     */
    @Test
    void actorsScheduledThroughThePoolManyTimesProcessEveryMessage() {
        final class Counter extends Actor<Integer> {
            private final AtomicInteger seen;
            private final int expected;
            private int mine;

            Counter(AtomicInteger seen, int expected) {
                this.seen = seen;
                this.expected = expected;
            }

            @Override
            protected void process(Integer m) {
                seen.incrementAndGet();
                if (++mine == expected) {
                    exit();
                }
            }
        }
        int actors = 64;
        int messages = 2_000;
        for (int round = 0; round < 5; round++) {
            AtomicInteger seen = new AtomicInteger();
            rt.finish(() -> {
                @SuppressWarnings("unchecked")
                ActorRef<Integer>[] all = new ActorRef[actors];
                for (int i = 0; i < actors; i++) {
                    all[i] = new Counter(seen, messages).start();
                }
                for (int m = 0; m < messages; m++) {
                    for (ActorRef<Integer> c : all) {
                        c.send(m);             // round robin: many sends find the actor idle and schedule it
                    }
                }
            });
            assertThat(seen).hasValue(actors * messages);
        }
    }
}

package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A chain of tasks, each spawning the next, keeps a bounded number of earlier tasks reachable, however long it
 * runs: past {@link Node#CHAIN_DEPTH} a task's successor becomes its sibling. Each task was its predecessor's child,
 * so the newest one kept the whole chain alive through its completers: a chain of six million tasks held 420 MB.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskChainTest {
    static final int LENGTH = 100_000;

    /** Spawns its successor until {@code left} is 0; records the longest completer path to the finish it saw. */
    static void chain(TaskRuntime rt, int left, AtomicInteger ran, AtomicInteger deepest) {
        ran.incrementAndGet();
        deepest.accumulateAndGet(linksToScope(Context.current()), Math::max);
        if (left > 0) {
            rt.async(() -> chain(rt, left - 1, ran, deepest));
        }
    }

    /** The completer links from {@code n} to the nearest finish (or actor) above it. */
    static int linksToScope(Node n) {
        int links = 0;
        for (Node c = n; c.taskDepth() > 0; c = (Node) c.getCompleter()) {
            links++;
        }
        return links;
    }

    @Test
    void aLongChainKeepsABoundedPathToItsFinishAndTheFinishWaitsForAllOfIt() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger deepest = new AtomicInteger();
            rt.finish(() -> rt.async(() -> chain(rt, LENGTH, ran, deepest)));
            assertThat(ran).as("the finish waited for the whole chain").hasValue(LENGTH + 1);
            assertThat(deepest.get()).as("completer links from a task to its finish")
                    .isBetween(Node.CHAIN_DEPTH - 1, Node.CHAIN_DEPTH + 1);
        }
    }

    @Test
    void aChainInAnActorsMessageIsBoundedTooAndItsEndsFailureReachesTheFinish() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger deepest = new AtomicInteger();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> new Actor<String>() {
                @Override
                protected void process(String m) {
                    rt.async(() -> chainThenFail(rt, LENGTH, ran, deepest));
                    exit();
                }
            }.start().send("go")));
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("the chain's end");
            assertThat(ran).hasValue(LENGTH + 1);
            assertThat(deepest.get()).isLessThanOrEqualTo(Node.CHAIN_DEPTH + 1);
        }
    }

    static void chainThenFail(TaskRuntime rt, int left, AtomicInteger ran, AtomicInteger deepest) {
        ran.incrementAndGet();
        deepest.accumulateAndGet(linksToScope(Context.current()), Math::max);
        if (left == 0) {
            throw new IllegalStateException("the chain's end");
        }
        rt.async(() -> chainThenFail(rt, left - 1, ran, deepest));
    }
}

package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.MessageDispatcher;

/**
 * Waits, between timed runs, until neither runtime has work left over: Pekko detaches a stopped actor from its
 * dispatcher a little after {@code postStop}, and with two cores any leftover work would be charged to the next
 * run, whichever side it is.
 */
final class Quiescence {
    private static volatile long pekkoBaseline = -1;

    private Quiescence() {
    }

    /** Records how many (system) actors Pekko's default dispatcher has when the benchmarks' actors are gone. */
    static void baseline(ActorSystem system) {
        pekkoBaseline = dispatcher(system).inhabitants();
    }

    static void await(TaskRuntime runtime, ActorSystem system) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        MessageDispatcher d = dispatcher(system);
        while (System.nanoTime() < deadline
                && ((pekkoBaseline >= 0 && d.inhabitants() > pekkoBaseline)
                    || !runtime.scheduler().pool().isQuiescent())) {
            Thread.onSpinWait();
        }
    }

    private static MessageDispatcher dispatcher(ActorSystem system) {
        return (MessageDispatcher) system.dispatcher();
    }
}

package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.MessageDispatcher;

/**
 * Waits, between timed runs, until no runtime has work left over: Pekko detaches a stopped actor from its
 * dispatcher a little after {@code postStop}, and with two cores any leftover work would be charged to the next
 * run, whichever side it is. Gives up after ten seconds (the next run then starts anyway).
 */
final class Quiescence {
    private final TaskRuntime switchboard;
    private final ForkJoinPool pool;
    private final List<MessageDispatcher> dispatchers = new ArrayList<>();
    /** Per dispatcher, how many (system) actors it has when no benchmark's actor is left. */
    private final List<Long> baselines = new ArrayList<>();

    /** Records the baselines of {@code systems}: create it when none of their benchmark actors exist. */
    Quiescence(TaskRuntime switchboard, Collection<ActorSystem> systems, ForkJoinPool pool) {
        this.switchboard = switchboard;
        this.pool = pool;
        for (ActorSystem system : systems) {
            MessageDispatcher d = (MessageDispatcher) system.dispatcher();
            dispatchers.add(d);
            baselines.add(d.inhabitants());
        }
    }

    void await() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && !quiescent()) {
            Thread.onSpinWait();
        }
    }

    private boolean quiescent() {
        for (int i = 0; i < dispatchers.size(); i++) {
            if (dispatchers.get(i).inhabitants() > baselines.get(i)) {
                return false;
            }
        }
        return switchboard.isQuiescent() && pool.isQuiescent();
    }
}

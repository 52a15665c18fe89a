package dev.switchboard.bench.big;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina Big: {@code actors} actors each ping a random other actor and wait for its pong, {@code pings} times;
 * a sink learns when all are done. Many-to-many messaging with all actors active at once.
 */
public final class Big implements Benchmark {
    private final int actors;
    private final int pings;

    public Big(int actors, int pings) {
        this.actors = actors;
        this.pings = pings;
    }

    /** Savina's defaults: 120 actors, 20,000 pings each. */
    public Big() {
        this(120, 20_000);
    }

    @Override
    public String name() {
        return "Big";
    }

    @Override
    public String description() {
        return "many actors ping random neighbours and await pongs (Savina big)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("actors", actors, "pings_per_actor", pings);
    }

    /** Pongs received, summed over all actors. */
    @Override
    public long expected() {
        return (long) actors * pings;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardBig.run(runtime, actors, pings);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoBig.run(system, actors, pings);
    }
}

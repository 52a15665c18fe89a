package dev.switchboard.bench.fjcreation;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina ForkJoin creation: creates {@code actors} actors, sends each one message that does a small
 * computation, after which the actor exits. Measures actor creation, start and termination.
 */
public final class ForkJoinCreation implements Benchmark {
    static final double THETA = 37.2;
    private final int actors;

    public ForkJoinCreation(int actors) {
        this.actors = actors;
    }

    /** Savina's default: 40,000 actors. */
    public ForkJoinCreation() {
        this(40_000);
    }

    @Override
    public String name() {
        return "ForkJoinCreation";
    }

    @Override
    public String description() {
        return "create many actors, one message each (Savina fjcreate)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("actors", actors);
    }

    @Override
    public long expected() {
        return actors;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardForkJoinCreation.run(runtime, actors);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoForkJoinCreation.run(system, actors);
    }
}

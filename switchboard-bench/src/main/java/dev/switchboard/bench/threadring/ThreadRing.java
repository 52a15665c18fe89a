package dev.switchboard.bench.threadring;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina ThreadRing: a token passes {@code hops} times around a ring of {@code actors} actors, then an exit
 * message goes once around the ring. A chain of messages with one actor active at a time.
 */
public final class ThreadRing implements Benchmark {
    private final int actors;
    private final int hops;

    public ThreadRing(int actors, int hops) {
        this.actors = actors;
        this.hops = hops;
    }

    /** Savina's defaults: 100 actors, 100,000 hops. */
    public ThreadRing() {
        this(100, 100_000);
    }

    @Override
    public String name() {
        return "ThreadRing";
    }

    @Override
    public String description() {
        return "a token passed around a ring of actors (Savina threadring)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("actors", actors, "hops", hops);
    }

    /** Tokens processed (hops + 1) plus exit messages processed (one per actor). */
    @Override
    public long expected() {
        return hops + 1L + actors;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardThreadRing.run(runtime, actors, hops);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoThreadRing.run(system, actors, hops);
    }
}

package dev.switchboard.bench.fjthroughput;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina ForkJoin throughput: {@code messages} messages to each of {@code actors} actors, sent round-robin from
 * outside; each message does a small computation. Measures many actors with deep mailboxes.
 */
public final class ForkJoinThroughput implements Benchmark {
    static final double THETA = 37.2;
    private final int actors;
    private final int messages;

    public ForkJoinThroughput(int actors, int messages) {
        this.actors = actors;
        this.messages = messages;
    }

    /** Savina's defaults: 60 actors, 10,000 messages each. */
    public ForkJoinThroughput() {
        this(60, 10_000);
    }

    @Override
    public String name() {
        return "ForkJoinThroughput";
    }

    @Override
    public String description() {
        return "messages sent round-robin to many actors, a little work each (Savina fjthrput)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("actors", actors, "messages_per_actor", messages);
    }

    @Override
    public long expected() {
        return (long) actors * messages;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardForkJoinThroughput.run(runtime, actors, messages);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoForkJoinThroughput.run(system, actors, messages);
    }
}

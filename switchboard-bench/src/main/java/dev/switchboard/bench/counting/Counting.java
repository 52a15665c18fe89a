package dev.switchboard.bench.counting;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina Counting: a producer sends {@code n} increments to a counter actor, then asks for the count. Measures
 * raw mailbox throughput from one sender to one receiver.
 */
public final class Counting implements Benchmark {
    private final int n;

    public Counting(int n) {
        this.n = n;
    }

    /** Savina's default: 1,000,000 messages. */
    public Counting() {
        this(1_000_000);
    }

    @Override
    public String name() {
        return "Counting";
    }

    @Override
    public String description() {
        return "one producer sends increments to a counter actor (Savina count)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("messages", n);
    }

    @Override
    public long expected() {
        return n;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardCounting.run(runtime, n);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoCounting.run(system, n);
    }
}

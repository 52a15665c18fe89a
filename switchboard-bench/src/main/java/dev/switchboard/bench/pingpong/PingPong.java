package dev.switchboard.bench.pingpong;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina PingPong: two actors send a message back and forth {@code n} times. Nothing runs in parallel; it
 * measures the cost of delivering a message and waking its receiver.
 */
public final class PingPong implements Benchmark {
    private final int n;

    public PingPong(int n) {
        this.n = n;
    }

    /** Savina's default: 40,000 round trips. */
    public PingPong() {
        this(40_000);
    }

    @Override
    public String name() {
        return "PingPong";
    }

    @Override
    public String description() {
        return "two actors exchange a message back and forth (Savina pingpong)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("round_trips", n);
    }

    /** Pings received by pong plus pongs received by ping. */
    @Override
    public long expected() {
        return 2L * n;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardPingPong.run(runtime, n);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoPingPong.run(system, n);
    }
}

package dev.switchboard.bench.pingpong;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina PingPong: two actors send a message back and forth {@code n} times. Nothing runs in parallel; it
 * measures the cost of delivering a message and waking its receiver. With several pairs ({@link #pairs}), the
 * pairs play at the same time, independent of each other: work that spreads over as many workers as there are
 * pairs, which the scaling mode ({@code --scaling}) runs at each worker count.
 */
public final class PingPong implements Benchmark {
    private final int n;
    private final int pairs;

    public PingPong(int n) {
        this(n, 1);
    }

    private PingPong(int n, int pairs) {
        this.n = n;
        this.pairs = pairs;
    }

    /** Savina's default: 40,000 round trips. */
    public PingPong() {
        this(40_000);
    }

    /** {@code pairs} pairs playing at once, 10,000 round trips each: PingPongPairs8 for 8. */
    public static PingPong pairs(int pairs) {
        if (pairs < 2) {
            throw new IllegalArgumentException("pairs(" + pairs + "): PingPong itself is one pair");
        }
        return new PingPong(10_000, pairs);
    }

    @Override
    public String name() {
        return pairs == 1 ? "PingPong" : "PingPongPairs" + pairs;
    }

    @Override
    public String description() {
        return pairs == 1 ? "two actors exchange a message back and forth (Savina pingpong)"
                : pairs + " independent pairs of actors, each exchanging a message back and forth (Savina pingpong"
                        + " x" + pairs + ")";
    }

    @Override
    public Map<String, Object> params() {
        return pairs == 1 ? Map.of("round_trips", n) : Map.of("round_trips_per_pair", n, "pairs", pairs);
    }

    /** Pings received by the pongs plus pongs received by the pings. */
    @Override
    public long expected() {
        return 2L * n * pairs;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardPingPong.run(runtime, n, pairs);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoPingPong.run(system, n, pairs);
    }
}

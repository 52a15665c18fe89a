package dev.switchboard.bench.remote;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.remote.Remote.Kind;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.pekko.actor.ActorSystem;

/**
 * A benchmark between two JVMs on this host, over loopback TCP: Switchboard's places against Pekko's own
 * remoting, Artery TCP ({@link RemoteSides}). Each side starts its second JVM at its first run and keeps it for
 * every run of the benchmark, until the harness {@linkplain #close closes} the benchmark. The places' runtimes
 * have the harness's worker count and Switchboard's default budget; the Pekko systems have the harness system's
 * dispatcher settings (one pair of systems per Pekko configuration the harness runs).
 */
abstract sealed class RemoteBenchmark implements Benchmark permits RemoteThroughput, RemotePingPong {
    private final Kind kind;
    private final int count;
    private final RemoteSides sides;

    RemoteBenchmark(Kind kind, int count, RemoteSides sides) {
        if (count < 1) {
            throw new IllegalArgumentException(kind + " needs at least one message, got " + count);
        }
        this.kind = kind;
        this.count = count;
        this.sides = Objects.requireNonNull(sides, "sides");
    }

    final int count() {
        return count;
    }

    /** Whether both sides talk over mutual TLS. */
    final boolean tls() {
        return sides.tls();
    }

    @Override
    public long expected() {
        return count;
    }

    @Override
    public final long runSwitchboard(TaskRuntime runtime) throws Exception {
        return sides.runSwitchboard(runtime, kind, count);
    }

    @Override
    public final long runPekko(ActorSystem system) throws Exception {
        return sides.runPekko(system, kind, count);
    }

    /** Ends both sides' second JVMs (those of its {@link RemoteSides}); a later run starts them again. */
    @Override
    public void close() throws Exception {
        sides.close();
    }

    /** The parameters both sides share, and {@code more}. */
    final Map<String, Object> params(Map<String, Object> more) {
        Map<String, Object> p = new LinkedHashMap<>(more);
        p.put("payload_bytes", Remote.PAYLOAD_BYTES);
        p.put("jvms", 2);
        return p;
    }
}

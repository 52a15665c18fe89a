package dev.switchboard.bench.remote;

import dev.switchboard.bench.remote.Remote.Kind;
import java.util.Map;

/**
 * Round trips between two JVMs on loopback: an actor on this JVM sends a 100-byte message (a {@code byte[100]}) to
 * an actor on the second JVM, which sends it back, {@code roundTrips} times one after the other; the checksum is
 * the round trips the first one counted.
 */
public final class RemotePingPong extends RemoteBenchmark {
    /** 20,000 round trips per run. */
    public RemotePingPong() {
        this(20_000);
    }

    public RemotePingPong(int roundTrips) {
        this(roundTrips, new RemoteSides());
    }

    /** With the second JVMs of {@code sides}, which other benchmarks may share. */
    public RemotePingPong(int roundTrips, RemoteSides sides) {
        super(Kind.PING_PONG, roundTrips, sides);
    }

    /** The same over mutual TLS on both sides (places' TLS, Artery's {@code tls-tcp}). */
    public static RemotePingPong overTls() {
        return new RemotePingPong(20_000, new RemoteSides(true));
    }

    @Override
    public String name() {
        return tls() ? "RemotePingPongTls" : "RemotePingPong";
    }

    @Override
    public String description() {
        return "a 100-byte message back and forth between actors in two JVMs over loopback TCP (places vs Artery"
                + (tls() ? " TLS-TCP, both mutual TLS)" : " TCP)");
    }

    @Override
    public Map<String, Object> params() {
        return params(Map.of("round_trips", count()));
    }
}

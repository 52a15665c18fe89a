package dev.switchboard.bench.remote;

import dev.switchboard.bench.remote.Remote.Kind;
import java.util.Map;

/**
 * One-way throughput between two JVMs on loopback: an actor on this JVM sends {@code messages} 100-byte messages
 * (a {@code byte[100]}) to an actor on the second JVM, in bursts of 1,000 with three bursts in flight (end-to-end
 * flow control, {@link Remote}); the receiver counts them and answers the end with its count, the checksum.
 */
public final class RemoteThroughput extends RemoteBenchmark {
    /** 200,000 messages per run. */
    public RemoteThroughput() {
        this(200_000);
    }

    public RemoteThroughput(int messages) {
        this(messages, new RemoteSides());
    }

    /** With the second JVMs of {@code sides}, which other benchmarks may share. */
    public RemoteThroughput(int messages, RemoteSides sides) {
        super(Kind.THROUGHPUT, messages, sides);
    }

    /** The same over mutual TLS on both sides (places' TLS, Artery's {@code tls-tcp}). */
    public static RemoteThroughput overTls() {
        return new RemoteThroughput(200_000, new RemoteSides(true));
    }

    @Override
    public String name() {
        return tls() ? "RemoteThroughputTls" : "RemoteThroughput";
    }

    @Override
    public String description() {
        return "one-way 100-byte messages to an actor in a second JVM over loopback TCP, flow-controlled"
                + (tls() ? " (places vs Artery TLS-TCP, both mutual TLS)" : " (places vs Artery TCP)");
    }

    @Override
    public Map<String, Object> params() {
        return params(Map.of("messages", count(), "burst", Remote.BURST, "bursts_in_flight",
                Remote.BURSTS_IN_FLIGHT));
    }
}

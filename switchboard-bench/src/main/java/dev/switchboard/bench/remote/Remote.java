package dev.switchboard.bench.remote;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What both sides of the remote benchmarks share: the workload's constants (the payload, the flow control), the
 * local command that starts one run, and the options of the child JVMs, which are the same for both sides.
 *
 * <p><b>Flow control.</b> The throughput sender sends its messages in bursts of {@link #BURST}, each followed by a
 * flow-control message (an {@code Integer}) that the receiver echoes; it keeps {@link #BURSTS_IN_FLIGHT} bursts
 * in flight and sends the next one when an echo comes back, and ends with the string {@code "end"}, which the
 * receiver answers with the count it received (a {@code Long}). This is how Pekko's own remoting throughput test
 * (Akka's {@code MaxThroughputSpec}) drives Artery, and it is needed there: Artery drops what does not fit its
 * outbound queue (3,072 messages by default) instead of slowing the sender, so 3 × 1,000 in flight stays below it.
 * Switchboard's transport slows its senders instead (a full buffer blocks them) and does not need it, but runs
 * the same protocol, so both sides do the same work.
 */
final class Remote {
    /** Messages per burst of the throughput sender, each burst followed by a flow-control message. */
    static final int BURST = 1_000;
    /** Bursts the throughput sender keeps in flight (as Pekko's own throughput test: below Artery's queue). */
    static final int BURSTS_IN_FLIGHT = 3;
    /** The payload's size in bytes. */
    static final int PAYLOAD_BYTES = 100;
    /** The string that ends a throughput run: the receiver answers it with its count. */
    static final String END = "end";
    /** The string that ends a remote actor when its benchmark is closed (Switchboard's side). */
    static final String STOP = "stop";
    /** How long one run may take before the harness gives up on it. */
    static final long RUN_TIMEOUT_SECONDS = 120;
    /**
     * Heap and collector of both sides' child JVMs: a fixed heap (the harness's launcher runs -Xms2g -Xmx2g) and
     * the collector flags this JVM was started with (the launcher's {@code --gc}; none for the JVM's default).
     */
    static final List<String> CHILD_JVM_OPTIONS = heapAndCollector(
            java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
    /** {@code -Xms1g -Xmx1g} and the collector flags among {@code parentFlags} ({@code -XX:+Use...GC}, ZGC's mode). */
    static List<String> heapAndCollector(List<String> parentFlags) {
        List<String> options = new ArrayList<>(List.of("-Xms1g", "-Xmx1g"));
        parentFlags.stream().filter(f -> f.matches("-XX:\\+Use\\w+GC|-XX:[+-]ZGenerational")).forEach(options::add);
        return List.copyOf(options);
    }

    /**
     * A system property with more options for both sides' child JVMs, separated by spaces: to profile them, say
     * ({@code -Dswitchboard.bench.remote.jvm-options="-XX:StartFlightRecording=filename=/tmp/child.jfr"}).
     */
    static final String MORE_JVM_OPTIONS = "switchboard.bench.remote.jvm-options";

    private Remote() {
    }

    /** The 100-byte payload, one array for every send (neither side's receiver changes it). */
    static byte[] payload() {
        byte[] p = new byte[PAYLOAD_BYTES];
        Arrays.fill(p, (byte) '0');
        return p;
    }

    /** The two workloads. */
    enum Kind { THROUGHPUT, PING_PONG }

    /**
     * The local command that starts one run at the long-lived local actor of {@code kind} (the sender or the
     * pinger): {@code count} messages or round trips, {@code result} completed with the checksum. Never crosses
     * places.
     */
    record Go(int count, CompletableFuture<Long> result) {
    }

    /** Waits for a run's checksum, at most {@link #RUN_TIMEOUT_SECONDS}. */
    static long await(CompletableFuture<Long> result, String what) throws Exception {
        try {
            return result.get(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(what + " did not end within " + RUN_TIMEOUT_SECONDS + " s", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception c ? c : e;
        }
    }

    /**
     * The options of both sides' child JVMs: {@link #CHILD_JVM_OPTIONS} and those of {@link #MORE_JVM_OPTIONS}.
     * (A place's launcher adds what the JDK needs for Kryo's Unsafe itself; {@link #pekkoChildJvmOptions} adds it
     * for Pekko's.)
     */
    static List<String> childJvmOptions() {
        List<String> options = new ArrayList<>(CHILD_JVM_OPTIONS);
        String more = System.getProperty(MORE_JVM_OPTIONS, "").trim();
        if (!more.isEmpty()) {
            options.addAll(Arrays.asList(more.split("\\s+")));
        }
        return options;
    }

    /** {@link #childJvmOptions}, after the option JDK 23+ needs for the Unsafe that Pekko (through Scala) uses. */
    static List<String> pekkoChildJvmOptions() {
        List<String> options = new ArrayList<>();
        if (Runtime.version().feature() >= 23) {
            options.add("--sun-misc-unsafe-memory-access=allow");
        }
        options.addAll(childJvmOptions());
        return options;
    }
}

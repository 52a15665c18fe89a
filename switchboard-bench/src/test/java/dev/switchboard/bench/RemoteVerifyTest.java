package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.bench.remote.RemotePingPong;
import dev.switchboard.bench.remote.RemoteSides;
import dev.switchboard.bench.remote.RemoteThroughput;
import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * The remote benchmarks, at tiny sizes, compute the expected checksum on both sides — Switchboard's places and
 * Pekko's Artery TCP, each with a child JVM, which both benchmarks share here — twice in a row on the same child
 * JVMs; and closing them ends the child JVMs. Not a timing test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteVerifyTest {

    @ParameterizedTest(name = "tls: {0}")
    @ValueSource(booleans = {false, true})
    void bothSidesComputeTheExpectedChecksumAndCloseEndsTheirJvms(boolean tls) throws Exception {
        long before = childProcesses();
        RemoteSides sides = new RemoteSides(tls);
        // 3,500: not a multiple of the burst, so the last burst is short and the end follows it
        List<Benchmark> benchmarks = List.of(new RemoteThroughput(3_500, sides), new RemotePingPong(100, sides));
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            ActorSystem system = ActorSystem.create("verify-remote", PekkoSettings.defaults(2));
            try {
                for (int i = 0; i < 2; i++) {
                    for (Benchmark b : benchmarks) {
                        assertThat(b.runSwitchboard(runtime)).as("%s on Switchboard, run %d", b.name(), i)
                                .isEqualTo(b.expected());
                        assertThat(b.runPekko(system)).as("%s on Pekko, run %d", b.name(), i)
                                .isEqualTo(b.expected());
                    }
                }
                assertThat(childProcesses()).as("a child JVM per side").isEqualTo(before + 2);
            } finally {
                benchmarks.get(0).close();                  // closes the sides both share
                system.terminate();
            }
        }
        assertThat(childProcesses()).as("after the close").isEqualTo(before);
    }

    @Test
    void theRemoteBenchmarksRunOnlyWhenNamed() {
        assertThat(Suite.all()).extracting(Benchmark::name).doesNotContain("RemoteThroughput", "RemotePingPong");
        assertThat(Suite.optional()).extracting(Benchmark::name).containsExactly("RemoteThroughput",
                "RemotePingPong", "RemoteThroughputTls", "RemotePingPongTls");
        assertThat(Suite.select(Set.of("remotethroughput", "remotepingpong", "pingpong")))
                .extracting(Benchmark::name).containsExactly("PingPong", "RemoteThroughput", "RemotePingPong");
        assertThat(new RemoteThroughput().params()).containsEntry("messages", 200_000)
                .containsEntry("payload_bytes", 100).containsEntry("burst", 1_000)
                .containsEntry("bursts_in_flight", 3);
        assertThat(new RemotePingPong().params()).containsEntry("round_trips", 20_000)
                .containsEntry("payload_bytes", 100);
        assertThat(new RemotePingPong().expected()).isEqualTo(20_000);
    }

    /** This JVM's live child processes. */
    private static long childProcesses() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).count();
    }
}

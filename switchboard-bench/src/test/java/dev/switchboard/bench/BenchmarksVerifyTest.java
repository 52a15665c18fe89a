package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.big.Big;
import dev.switchboard.bench.chameneos.Chameneos;
import dev.switchboard.bench.counting.Counting;
import dev.switchboard.bench.fjcreation.ForkJoinCreation;
import dev.switchboard.bench.fjthroughput.ForkJoinThroughput;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.bench.pingpong.PingPong;
import dev.switchboard.bench.threadring.ThreadRing;
import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every benchmark, at small sizes, computes the expected checksum on both sides, several times in a row in one
 * runtime (as the harness runs them). Not a timing test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BenchmarksVerifyTest {
    static TaskRuntime runtime;
    static ActorSystem system;

    @BeforeAll
    static void start() {
        runtime = TaskRuntime.create(2);
        system = ActorSystem.create("verify", PekkoSettings.config(2, TaskRuntime.DEFAULT_THROUGHPUT));
    }

    @AfterAll
    static void stop() {
        runtime.close();
        system.terminate();
    }

    static Stream<Benchmark> small() {
        return Stream.of(
                new PingPong(2_000),
                new ThreadRing(10, 5_000),
                new Counting(50_000),
                new ForkJoinThroughput(8, 2_000),
                new ForkJoinCreation(2_000),
                new Chameneos(10, 5_000),
                new Big(12, 500));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(b.runSwitchboard(runtime)).as("%s on Switchboard, run %d", b.name(), i).isEqualTo(b.expected());
            assertThat(b.runPekko(system)).as("%s on Pekko, run %d", b.name(), i).isEqualTo(b.expected());
        }
    }

    @Test
    void theSuiteHasTheSevenMicroBenchmarksWithSavinaDefaults() {
        List<Benchmark> all = Suite.micro();
        assertThat(all).extracting(Benchmark::name).containsExactly("PingPong", "ThreadRing", "Counting",
                "ForkJoinThroughput", "ForkJoinCreation", "Chameneos", "Big");
        assertThat(new PingPong().params()).containsEntry("round_trips", 40_000);
        assertThat(new ThreadRing().params()).containsEntry("actors", 100).containsEntry("hops", 100_000);
        assertThat(new Counting().params()).containsEntry("messages", 1_000_000);
        assertThat(new ForkJoinThroughput().params()).containsEntry("actors", 60)
                .containsEntry("messages_per_actor", 10_000);
        assertThat(new ForkJoinCreation().params()).containsEntry("actors", 40_000);
        assertThat(new Chameneos().params()).containsEntry("chameneos", 100).containsEntry("meetings", 200_000);
        assertThat(new Big().params()).containsEntry("actors", 120).containsEntry("pings_per_actor", 20_000);
    }
}

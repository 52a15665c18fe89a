package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * The fixture of the verify tests: one Switchboard runtime and one Pekko system (the harness's matched
 * throughput on a thread pool, {@link PekkoSettings#threadPool}, which the fork-join pool's lost mailbox cannot
 * hang), shared by a test class; and the check every benchmark must pass
 * — it computes the expected checksum on both sides, several times in a row in the same runtime (so state left
 * over from a run shows). Not a timing test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class BothSides {
    static TaskRuntime runtime;
    static ActorSystem system;

    @BeforeAll
    static void start() {
        runtime = TaskRuntime.create(2);
        system = ActorSystem.create("verify", PekkoSettings.threadPool(2, TaskRuntime.DEFAULT_THROUGHPUT));
    }

    @AfterAll
    static void stop() {
        runtime.close();
        system.terminate();
    }

    static void verifyRepeatedly(Benchmark b) throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(b.runSwitchboard(runtime)).as("%s on Switchboard, run %d", b.name(), i).isEqualTo(b.expected());
            assertThat(b.runPekko(system)).as("%s on Pekko, run %d", b.name(), i).isEqualTo(b.expected());
        }
    }
}

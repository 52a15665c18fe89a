package dev.switchboard.examples.monitors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.examples.Example;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the monitor examples and checks their outcomes. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MonitorExamplesTest {
    static List<String> run(Example e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            e.run(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @RepeatedTest(3)
    void diningPhilosophersAllEatAndNeighboursNeverShareAFork() {
        assertThat(run(new DiningPhilosophers())).containsExactly(
                "meals eaten per seat: 20 20 20 20 20",
                "neighbours sharing a fork: 0",
                "philosophers eating at the same time: never more than 2 (five forks allow 2)");
    }

    @RepeatedTest(3)
    void collectiveBoundIsNeverExceeded() {
        CollectiveBound.Administration admin = CollectiveBound.run(3, 8, 10);
        assertThat(admin.maxOutstanding.get()).isBetween(1, 3);
        assertThat(admin.served[0].get() + admin.served[1].get()).isEqualTo(80);
        assertThat(run(new CollectiveBound()).get(1)).matches("most requests outstanding at once: [123] \\(bound 3\\)");
    }

    @Test
    void flockCouplesGivesTheSameAnswerSeriallyAndWithTheMonitor() {
        FlockCouples.Person[] friends = FlockCouples.friends(300, 50, 7);
        int serial = FlockCouples.derive(friends, 200, false);
        int parallel = FlockCouples.derive(friends, 200, true);
        assertThat(serial).isEqualTo(100);                 // friends 0..199: half in couples, all matching
        assertThat(parallel).isEqualTo(serial);
        List<String> lines = run(new FlockCouples());
        assertThat(lines).hasSize(2).allMatch(l -> l.contains(": 100 of 200 nearby friends"));
    }
}

package dev.switchboard.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The short soak of the test suite: a fixed number of rounds from a fresh seed, printed for replay. */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class SoakTest {

    @Test
    void roundsOfEveryKindKeepExactCounts() {
        long seed = ThreadLocalRandom.current().nextLong();
        System.out.printf("SoakTest seed %x (replay: ./switchboard stress --soak --seed %x --rounds 1000)%n",
                seed, seed);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Soak.Result result = Soak.run(seed, Duration.ofMinutes(5), 1_000, null,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        System.out.println(result);
        assertThat(result.discrepancies()).as(log.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(result.rounds()).isEqualTo(1_000);
        assertThat(result.counters().sent.sum()).isPositive();
        assertThat(result.counters().processed.get()).isPositive();
    }

    @Test
    void aRoundReplaysItsConfigurationFromItsSeed() {
        Round a = new Round(0x5eedL);
        Round b = new Round(0x5eedL);
        assertThat(a.config).isEqualTo(b.config);
        assertThat(new Round(0x5eedL + 1).config).isNotEqualTo(a.config);
    }

    @Test
    void durationsReadAsPeopleWriteThem() {
        assertThat(Soak.parseDuration("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Soak.parseDuration("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(Soak.parseDuration("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Soak.parseDuration("PT5M")).isEqualTo(Duration.ofMinutes(5));
    }
}

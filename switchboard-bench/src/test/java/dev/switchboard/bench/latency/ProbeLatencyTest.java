package dev.switchboard.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.latency.ProbeLatency.ChainKind;
import dev.switchboard.bench.latency.ProbeLatency.Config;
import dev.switchboard.bench.latency.ProbeLatency.ProbeSource;
import dev.switchboard.bench.latency.ProbeLatency.Result;
import dev.switchboard.task.TaskRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The probe-latency tool on tiny configurations that cannot starve (no chain, or one chain on two workers): every
 * probe is served, the counts add up, the percentiles are ordered, and the chains and the runtime shut down
 * cleanly. Not a timing test: no figure is compared with a threshold.
 */
class ProbeLatencyTest {
    private static final int PROBES = 20;
    private static final int WARMUP = 5;

    private static Config tiny(int chains, ChainKind kind, ProbeSource source) {
        return new Config(2, chains, kind, source, PROBES, WARMUP, Duration.ofSeconds(2),
                TaskRuntime.DEFAULT_THROUGHPUT);
    }

    private static void assertEveryProbeServed(Result r, int chains) {
        assertThat(r.chains()).isEqualTo(chains);
        assertThat(r.problem()).isNull();
        assertThat(r.abandoned()).isFalse();
        assertThat(r.chainsRunning()).isEqualTo(chains);
        assertThat(r.sent()).isEqualTo(WARMUP + PROBES);
        assertThat(r.warmupServed()).isEqualTo(WARMUP);
        assertThat(r.served()).isEqualTo(PROBES);
        assertThat(r.starved()).isZero();
        assertThat(r.warmupServed() + r.served() + r.starved()).isEqualTo(r.sent());
        assertThat(r.samplesUs()).hasSize(PROBES).isSorted();
        assertThat(r.samplesUs()[0]).isPositive();
        assertThat(r.medianUs()).isPositive().isLessThanOrEqualTo(r.p90Us());
        assertThat(r.p90Us()).isLessThanOrEqualTo(r.p99Us());
        assertThat(r.p99Us()).isLessThanOrEqualTo(r.maxUs());
        assertThat(r.maxUs()).isEqualTo(r.samplesUs()[PROBES - 1]);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withoutChainsEveryProbeIsServed() {
        assertEveryProbeServed(ProbeLatency.run(tiny(0, ChainKind.PAIRS, ProbeSource.OUTSIDE)), 0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneEndlessPairOnTwoWorkersLeavesRoomForTheProbe() {
        assertEveryProbeServed(ProbeLatency.run(tiny(1, ChainKind.PAIRS, ProbeSource.OUTSIDE)), 1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneSelfSendingChainAndProbesRelayedByAnActor() {
        assertEveryProbeServed(ProbeLatency.run(tiny(1, ChainKind.SELF, ProbeSource.ACTOR)), 1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theTablePrintsAHeaderAndOneRowPerChainCount() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Result> results = ProbeLatency.table(List.of(tiny(0, ChainKind.PAIRS, ProbeSource.OUTSIDE),
                tiny(1, ChainKind.PAIRS, ProbeSource.OUTSIDE)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(results).extracting(Result::chains).containsExactly(0, 1);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(4);
        assertThat(lines[0]).contains("W=2 workers", "kind pairs", "source outside", "throughput budget 64",
                "JDK " + Runtime.version());
        assertThat(lines[1].trim().split("\\s+")).containsExactly("chains", "served", "starved", "median_us",
                "p90_us", "p99_us", "max_us");
        assertThat(lines[2].trim().split("\\s+")).startsWith("0", String.valueOf(PROBES), "0").hasSize(7);
        assertThat(lines[3].trim().split("\\s+")).startsWith("1", String.valueOf(PROBES), "0").hasSize(7);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void percentilesAreNearestRank() {
        double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(ProbeLatency.percentile(sorted, 0.5)).isEqualTo(5);
        assertThat(ProbeLatency.percentile(sorted, 0.9)).isEqualTo(9);
        assertThat(ProbeLatency.percentile(sorted, 0.99)).isEqualTo(10);
        assertThat(ProbeLatency.percentile(sorted, 1.0)).isEqualTo(10);
        assertThat(ProbeLatency.percentile(new double[] {7}, 0.5)).isEqualTo(7);
        assertThat(ProbeLatency.percentile(new double[0], 0.5)).isNaN();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void kindsSourcesAndConfigurationsAreChecked() {
        assertThat(ChainKind.parse("self")).isEqualTo(ChainKind.SELF);
        assertThat(ChainKind.parse("PAIRS")).isEqualTo(ChainKind.PAIRS);
        assertThat(ProbeSource.parse("actor")).isEqualTo(ProbeSource.ACTOR);
        assertThatThrownBy(() -> ChainKind.parse("ring")).hasMessageContaining("unknown chain kind 'ring'");
        assertThatThrownBy(() -> ProbeSource.parse("worker")).hasMessageContaining("unknown probe source 'worker'");
        assertThatThrownBy(() -> Config.defaults(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Config(2, 1, ChainKind.PAIRS, ProbeSource.OUTSIDE, 10, 0, Duration.ZERO, 64))
                .hasMessageContaining("bound");
        assertThat(Config.defaults(3)).isEqualTo(new Config(2, 3, ChainKind.PAIRS, ProbeSource.OUTSIDE, 1000, 100,
                Duration.ofSeconds(2), TaskRuntime.DEFAULT_THROUGHPUT));
    }
}

package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.latency.ProbeLatency;
import dev.switchboard.task.TaskRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./switchboard bench --probe-latency}: its options (here, because the harness's options are package
 * private) and its JSON report. The tool itself is tested in {@code dev.switchboard.bench.latency}.
 */
class ProbeLatencyOptionsTest {

    private static Options parse(String... args) {
        return Options.parse(args);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void probeLatencyOptionsParse() {
        Options o = parse("--probe-latency", "--chains", "0,2", "--chain-kind", "self");
        assertThat(o.probeLatency).isTrue();
        assertThat(o.chains).containsExactly(0, 2);
        assertThat(o.chainKind).isEqualTo(ProbeLatency.ChainKind.SELF);
        assertThat(o.probeSource).isEqualTo(ProbeLatency.ProbeSource.OUTSIDE);
        assertThat(o.workers).isEqualTo(2);
        assertThat(o.probes).isEqualTo(1000);
        assertThat(o.probeWarmup).isEqualTo(100);
        assertThat(o.probeBound).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.throughput).isEqualTo(TaskRuntime.DEFAULT_THROUGHPUT);

        Options all = parse("--probe-latency", "--workers", "4", "--chain-kind", "pairs", "--probes", "300",
                "--probe-warmup", "0", "--probe-bound-ms", "500", "--probe-source", "actor", "--throughput", "8");
        assertThat(all.chains).containsExactly(0, 1, 2, 3, 4, 8, 16);
        assertThat(all.workers).isEqualTo(4);
        assertThat(all.chainKind).isEqualTo(ProbeLatency.ChainKind.PAIRS);
        assertThat(all.probes).isEqualTo(300);
        assertThat(all.probeWarmup).isZero();
        assertThat(all.probeBound).isEqualTo(Duration.ofMillis(500));
        assertThat(all.probeSource).isEqualTo(ProbeLatency.ProbeSource.ACTOR);
        assertThat(all.throughput).isEqualTo(8);

        assertThat(parse("--only", "PingPong").probeLatency).isFalse();
        assertThat(parse("--only", "PingPong").workers).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void badProbeLatencyValuesAreUsageErrorsWithAMessage() {
        assertThatThrownBy(() -> parse("--probe-latency", "--chain-kind", "ring"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown chain kind 'ring'");
        assertThatThrownBy(() -> parse("--probe-latency", "--probe-source", "inside"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown probe source 'inside'");
        assertThatThrownBy(() -> parse("--probe-latency", "--chains", "0,x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--chains").hasMessageContaining("0,x");
        assertThatThrownBy(() -> parse("--probe-latency", "--chains", "1,-2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--chains");
        assertThatThrownBy(() -> parse("--probe-latency", "--chains", "1,,2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--chains");
        assertThatThrownBy(() -> parse("--probe-latency", "--probes", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--probes must be at least 1");
        assertThatThrownBy(() -> parse("--probe-latency", "--probes", "many"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--probes takes a whole number");
        assertThatThrownBy(() -> parse("--probe-latency", "--probe-warmup", "-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--probe-warmup");
        assertThatThrownBy(() -> parse("--probe-latency", "--chains"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Missing required parameter for option '--chains'");
        assertThatThrownBy(() -> parse("--chains", "0,1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--chains needs --probe-latency");
        assertThatThrownBy(() -> parse("--probe-latency", "--compare", "PingPong,Big"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--compare does not go with --probe-latency");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writesTheTableAndJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("latency.json");
        Options o = parse("--probe-latency", "--chains", "0", "--probes", "10", "--probe-warmup", "2",
                "--json", json.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<ProbeLatency.Result> results = Harness.probeLatency(o,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(results).hasSize(1);
        assertThat(results.get(0).served()).isEqualTo(10);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("Probe latency under endless chains")
                .contains("median_us").contains("JSON report");
        String text = Files.readString(json);
        assertThat(text).contains("\"machine\": {").contains("\"tool\": \"probe-latency\"")
                .contains("\"workers\": 2").contains("\"chain_kind\": \"pairs\"")
                .contains("\"probe_source\": \"outside\"").contains("\"results\": [").contains("\"chains\": 0")
                .contains("\"served\": 10").contains("\"starved\": 0").contains("\"abandoned\": false")
                .contains("\"median_us\": ").contains("\"p99_us\": ").contains("\"samples_us\": [");
    }
}

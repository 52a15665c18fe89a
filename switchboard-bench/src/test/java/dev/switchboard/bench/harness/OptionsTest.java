package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The command line through picocli: what options parse to, what bad ones say, and the one usage text. */
class OptionsTest {
    @Test
    void everyOptionParsesToItsSetting() {
        Options o = Options.parse(new String[] {"--quick", "--only", "PingPong,Counting", "--json", "r.json",
                "--html", "out", "--workers", "3", "--throughput", "10", "--idle-spin", "50us", "--peer-config",
                "matched", "--pool-mode", "fifo", "--runs", "4", "--iterations", "9", "--warmup", "2",
                "--warmup-seconds", "0.5", "--gc", "ZGC"});
        assertThat(o.quick).isTrue();
        assertThat(o.only).isEqualTo(Set.of("pingpong", "counting"));
        assertThat(o.json).isEqualTo(Path.of("r.json"));
        assertThat(o.html).isEqualTo(Path.of("out"));
        assertThat(o.workers).isEqualTo(3);
        assertThat(o.throughput).isEqualTo(10);
        assertThat(o.idleSpin).isEqualTo(Duration.ofNanos(50_000));
        assertThat(o.peerConfigs).containsExactly(Side.PEKKO_MATCHED);
        assertThat(o.poolFifo).isTrue();
        assertThat(o.runs).isEqualTo(4);
        assertThat(o.iterations).isEqualTo(9);
        assertThat(o.warmup).isEqualTo(2);
        assertThat(o.warmupSeconds).isEqualTo(0.5);
        assertThat(o.gc).isEqualTo(Collector.Choice.ZGC);
        assertThat(o.arguments).startsWith("--quick", "--only", "PingPong,Counting");
        assertThat(o.list).isFalse();
        assertThat(o.help).isFalse();
    }

    @Test
    void theDefaultsFollowQuickAndCompare() {
        Options plain = Options.parse(new String[] {});
        assertThat(List.of(plain.iterations, plain.warmup, plain.runs)).containsExactly(15, 5, 1);
        assertThat(plain.warmupSeconds).isEqualTo(5);
        assertThat(plain.workers).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(plain.gc).isEqualTo(Collector.Choice.DEFAULT);
        assertThat(plain.only).isNull();
        Options quick = Options.parse(new String[] {"--quick"});
        assertThat(List.of(quick.iterations, quick.warmup)).containsExactly(7, 3);
        assertThat(Options.parse(new String[] {"--quick", "--compare", "A,B"}).iterations).isEqualTo(15);
        assertThat(Options.parse(new String[] {"--probe-latency"}).workers).isEqualTo(2);
        assertThat(Options.parse(new String[] {"--list"}).list).isTrue();
    }

    @Test
    void badOptionsSayWhatIsWrong() {
        assertThatThrownBy(() -> Options.parse(new String[] {"--gc", "shenandoah"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--gc takes default, g1, parallel or zgc, got 'shenandoah'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--workers", "two"}))
                .hasMessage("--workers takes a whole number, got 'two'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--warmup-seconds", "x"}))
                .hasMessage("--warmup-seconds takes a number of seconds, got 'x'");
        assertThatThrownBy(() -> Options.parse(new String[] {"PingPong"}))
                .hasMessageContaining("Unmatched argument").hasMessageContaining("'PingPong'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--chains", "1"}))
                .hasMessage("--chains needs --probe-latency");
    }

    @Test
    void helpIsAskedForAndTheUsageIsPicocliWithEveryOption() {
        assertThat(Options.parse(new String[] {"--help"}).help).isTrue();
        assertThat(Options.parse(new String[] {"-h"}).help).isTrue();
        String usage = Options.usage();
        assertThat(usage).startsWith("Usage: ./switchboard bench");
        for (String option : List.of("--quick", "--only", "--json", "--html", "--workers", "--throughput",
                "--idle-spin", "--peer-config", "--pool-mode", "--gc", "--runs", "--iterations", "--warmup",
                "--warmup-seconds", "--list", "--compare", "--compare-workers", "--probe-latency", "--chains",
                "--chain-kind", "--probes", "--probe-warmup", "--probe-bound-ms", "--probe-source", "--help")) {
            assertThat(usage).contains(option);
        }
    }

    @Test
    void theCollectorIsToldFromTheBeansNames() {
        assertThat(Collector.name(List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation")))
                .isEqualTo("G1");
        assertThat(Collector.name(List.of("PS Scavenge", "PS MarkSweep"))).isEqualTo("Parallel");
        assertThat(Collector.name(List.of("ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles")))
                .isEqualTo("ZGC (generational)");
        assertThat(Collector.name(List.of("ZGC Cycles", "ZGC Pauses"))).isEqualTo("ZGC");
        assertThat(Collector.name(List.of("Copy", "MarkSweepCompact"))).isEqualTo("Serial");
        assertThat(Collector.name(List.of("Shenandoah Pauses", "Shenandoah Cycles"))).isEqualTo("Shenandoah");
        assertThat(Collector.inUse()).isNotBlank();
        Collector.Choice.DEFAULT.check("Serial");
        Collector.Choice.G1.check("G1");
        assertThatThrownBy(() -> Collector.Choice.PARALLEL.check("G1"))
                .hasMessageContaining("--gc parallel asks for Parallel but this JVM runs G1");
    }
}

package dev.switchboard.bench.harness;

import static dev.switchboard.bench.harness.ReportsTest.pekko;
import static dev.switchboard.bench.harness.ReportsTest.pool;
import static dev.switchboard.bench.harness.ReportsTest.runInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bench.Suite;
import dev.switchboard.bench.pingpong.PingPong;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --scaling}: its options, the children's arguments, the report from hand-made points, and one real scaling
 * run of a tiny benchmark at 1 and 2 workers in child JVMs.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScalingTest {

    /** At 1 worker: PingPong 4 ms (Pekko 8 and 6), Fib 10 ms (pool 12); at 2 workers: 2 ms (8, 4), 5 ms (8). */
    private static List<Scaling.Point> twoPoints() {
        return List.of(
                new Scaling.Point(1, new Runs(List.of(List.of(pekko("PingPong", 4, 8, 6), pool("Fib", 10, 12, 0, 1)))),
                        List.of()),
                new Scaling.Point(2, new Runs(List.of(List.of(pekko("PingPong", 2, 8, 4), pool("Fib", 5, 8, 0, 2)))),
                        List.of()));
    }

    @Test
    void scalingTakesDistinctWorkerCountsAndRunsItsSetUnlessOnlyNamesOthers() {
        Options o = Options.parse(new String[] {"--scaling", "1,2,4", "--runs", "3"});
        assertThat(o.scaling).containsExactly(1, 2, 4);
        assertThat(o.runs).isEqualTo(3);
        assertThat(Suite.select(Scaling.selection(o))).extracting(Benchmark::name)
                .containsExactlyInAnyOrderElementsOf(Scaling.DEFAULT_SET);
        Options only = Options.parse(new String[] {"--scaling", "1,2", "--only", "Big"});
        assertThat(Suite.select(Scaling.selection(only))).extracting(Benchmark::name).containsExactly("Big");

        assertThatThrownBy(() -> Options.parse(new String[] {"--scaling", "1,2", "--workers", "2"}))
                .hasMessage("--scaling replaces --workers; give one of them");
        assertThatThrownBy(() -> Options.parse(new String[] {"--scaling", "1,2,1"}))
                .hasMessage("--scaling lists 1 twice: 1,2,1");
        assertThatThrownBy(() -> Options.parse(new String[] {"--scaling", "0,2"}))
                .hasMessage("--scaling must be at least 1, got 0");
        assertThatThrownBy(() -> Options.parse(new String[] {"--scaling", "1,2", "--compare", "PingPong"}))
                .hasMessage("--scaling does not go with --compare");
        assertThatThrownBy(() -> Options.parse(new String[] {"--scaling", "1,2", "--probe-latency"}))
                .hasMessage("--scaling does not go with --probe-latency");
        assertThat(Options.usage()).contains("--scaling=1,2,4");
    }

    @Test
    void childrenGetTheirOwnOnlyAndNeitherScalingNorTheParentsReports() {
        List<String> args = Scaling.childArguments(List.of("--scaling", "1,2", "--only", "big", "--runs", "2",
                "--json", "a.json", "--html", "dir", "--quick", "--gc", "g1"), List.of(PingPong.pairs(8)));
        assertThat(args).containsExactly("--quick", "--gc", "g1", "--only", "PingPongPairs8");
    }

    @Test
    void theReportGivesEachSidesTimeAndSpeedupPerCountAndEachRatio(@TempDir Path dir) throws Exception {
        List<Scaling.Point> points = twoPoints();
        List<ScalingReport.BenchmarkJson> benchmarks = ScalingReport.benchmarks(points);
        ScalingReport.BenchmarkJson ping = benchmarks.get(0);
        assertThat(ping.sides()).extracting(ScalingReport.SideJson::side)
                .containsExactly("switchboard", "default", "matched");
        assertThat(ping.sides().get(0).points()).extracting(ScalingReport.PointJson::speedup)
                .containsExactly(1.0, 2.0);
        assertThat(ping.sides().get(1).points().get(1).speedup()).isCloseTo(1.0, within(1e-9));
        assertThat(ping.sides().get(2).points().get(1).speedup()).isCloseTo(1.5, within(1e-9));
        assertThat(ping.ratios()).containsExactly(Map.entry("default", List.of(2.0, 4.0)),
                Map.entry("matched", List.of(1.5, 2.0)));
        assertThat(benchmarks.get(1).peer()).isEqualTo("fork_join_pool");
        assertThat(benchmarks.get(1).ratios().get("fork_join_pool")).containsExactly(1.2, 1.6);

        String table = ScalingReport.table(points);
        assertThat(table).contains("speedup over 1 worker").contains("1 worker").contains("2 workers")
                .containsPattern("PingPong\\s+Switchboard\\s+4\\.00 \\(1\\.00x\\)\\s+2\\.00 \\(2\\.00x\\)")
                .containsPattern("ratio default\\s+2\\.00\\s+4\\.00");

        Map<String, Object> machine = Map.of("cpus", 2, "cpu_model", "Test CPU");
        Path json = dir.resolve("s.json");
        ScalingReport.writeJson(json, runInfo(), machine, Map.of("worker_counts", List.of(1, 2)), points);
        JsonNode root = ReportMapper.MAPPER.readTree(json.toFile());
        assertThat(root.get("worker_counts").toString()).isEqualTo("[1,2]");
        JsonNode first = root.get("results").get(0);
        assertThat(first.get("name").asText()).isEqualTo("PingPong");
        assertThat(first.get("sides").get(0).get("points").get(1).get("speedup").asDouble()).isEqualTo(2.0);
        assertThat(first.get("ratios").get("default").get(1).asDouble()).isEqualTo(4.0);

        Path page = ScalingReport.writeHtml(dir.resolve("html"), runInfo(), machine, Map.of(), points);
        String html = Files.readString(page);
        assertThat(html).contains("Measured on Test CPU, 2 CPUs, at 1, 2 workers").contains("<h3>PingPong</h3>")
                .contains("<h3>Fib</h3>");
        assertThat(html.split("<svg", -1)).hasSize(3);           // a chart per benchmark
        assertThat(html).contains("stroke-dasharray");         // the proportional line
    }

    @Test
    void aScalingRunRunsEachCountInItsOwnJvmAndReportsIt(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("scaling.json");
        Options options = Options.parse(new String[] {"--scaling", "1,2", "--only", "PingPongPairs8",
                "--iterations", "1", "--warmup", "0", "--warmup-seconds", "0", "--peer-config", "default",
                "--json", json.toString()});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Scaling.Point> points = Scaling.run(options, Suite.select(Scaling.selection(options)),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(points).extracting(Scaling.Point::workers).containsExactly(1, 2);
        assertThat(points).allSatisfy(p -> {
            assertThat(p.runs().verified()).isTrue();
            assertThat(p.failures()).isEmpty();
            assertThat(p.runs().rows()).extracting(Runs.Row::name).containsExactly("PingPongPairs8");
        });
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("=== 1 worker, run 1 of 1 ===").contains("=== 2 workers, run 1 of 1 ===")
                .contains("PingPongPairs8 at 1, 2 workers").contains("Pekko default");
        assertThat(output).containsPattern("- 1 workers each").containsPattern("- 2 workers each");
        JsonNode root = ReportMapper.MAPPER.readTree(json.toFile());
        assertThat(root.get("results").get(0).get("sides").get(0).get("points").size()).isEqualTo(2);
        assertThat(root.get("config").get("switchboard").get("workers").toString()).isEqualTo("[1,2]");
    }
}

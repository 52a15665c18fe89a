package dev.switchboard.bench.harness;

import static dev.switchboard.bench.harness.ReportsTest.pekko;
import static dev.switchboard.bench.harness.ReportsTest.pool;
import static dev.switchboard.bench.harness.ReportsTest.runInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --runs N}: the merge of several runs from hand-made results, its reports, the reading back of a child's
 * JSON, the children's command line, a failing child, and one real series of two tiny runs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RunsTest {

    /** Three runs of PingPong (Switchboard 2 ms) and a pool benchmark, the Pekko sides varying between runs. */
    private static Runs threeRuns() {
        return new Runs(List.of(
                List.of(pekko("PingPong", 2, 8, 6), pool("Fib", 10, 30, 0, 14)),
                List.of(pekko("PingPong", 2, 4, 5), pool("Fib", 10, 20, 1, 9)),
                List.of(pekko("PingPong", 2, 10, 4), pool("Fib", 10, 5, 0, 20))));
    }

    @Test
    void theMergeGivesEachRunsRatioTheirMedianAndSpreadAndTheGeometricMeanPerRun() {
        Runs runs = threeRuns();
        assertThat(runs.count()).isEqualTo(3);
        assertThat(runs.verified()).isTrue();
        Runs.Row ping = runs.rows().get(0);
        assertThat(ping.name()).isEqualTo("PingPong");
        assertThat(ping.headline()).isEqualTo(Side.PEKKO_DEFAULT);
        assertThat(ping.medians()).containsOnlyKeys(Side.SWITCHBOARD, Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        assertThat(ping.medians().get(Side.PEKKO_DEFAULT).samplesMs()).containsExactly(8, 4, 10);
        assertThat(ping.medians().get(Side.PEKKO_DEFAULT).medianMs()).isEqualTo(8);
        assertThat(ping.medians().get(Side.SWITCHBOARD).samplesMs()).containsExactly(2, 2, 2);

        Runs.Spread headline = ping.ratio();
        assertThat(headline.perRun()).containsExactly(4, 2, 5);
        assertThat(headline.median()).isEqualTo(4);
        assertThat(headline.min()).isEqualTo(2);
        assertThat(headline.max()).isEqualTo(5);
        Runs.Spread matched = ping.ratios().get(Side.PEKKO_MATCHED);
        assertThat(matched.perRun()).containsExactly(3, 2.5, 2);
        assertThat(matched.median()).isEqualTo(2.5);

        Runs.Row fib = runs.rows().get(1);
        assertThat(fib.ratios()).containsOnlyKeys(Side.FORK_JOIN_POOL);
        assertThat(fib.ratio().perRun()).containsExactly(3, 2, 0.5);
        assertThat(fib.threadsAdded()).containsEntry(Side.SWITCHBOARD, 1).containsEntry(Side.FORK_JOIN_POOL, 20);

        // One benchmark per side here, so each run's geometric mean is its ratio.
        assertThat(runs.geometricMeans()).containsOnlyKeys(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED,
                Side.FORK_JOIN_POOL);
        assertThat(runs.geometricMeans().get(Side.PEKKO_DEFAULT).perRun()).containsExactly(new double[] {4, 2, 5},
                within(1e-12));
        assertThat(runs.geometricMeans().get(Side.FORK_JOIN_POOL).median()).isCloseTo(2, within(1e-12));
    }

    @Test
    void theGeometricMeanOfARunCoversEveryVerifiedBenchmarkLossesIncluded() {
        Runs runs = new Runs(List.of(
                List.of(pekko("A", 1, 4, 4), pekko("B", 10, 5, 5)),
                List.of(pekko("A", 1, 9, 9), pekko("B", 10, 1, 1)),
                List.of(pekko("A", 1, 2, 2), pekko("B", 10, 8, 8)),
                List.of(pekko("A", 1, 1, 1), pekko("B", 10, 10, 10))));
        Runs.Spread mean = runs.geometricMeans().get(Side.PEKKO_DEFAULT);
        assertThat(mean.perRun()).containsExactly(new double[] {Math.sqrt(2), Math.sqrt(0.9), Math.sqrt(1.6), 1},
                within(1e-12));
        assertThat(mean.median()).isCloseTo((1 + Math.sqrt(1.6)) / 2, within(1e-12));   // even count: the middle two
        assertThat(mean.min()).isCloseTo(Math.sqrt(0.9), within(1e-12));
        assertThat(mean.max()).isCloseTo(Math.sqrt(2), within(1e-12));
    }

    @Test
    void theMergedReportsPlotTheLastRunsSeries() {
        Result first = ReportsTest.withSeries("TxList");
        Result last = new Result(first.name(), first.description(), first.params(), first.peer(), first.headline(),
                first.iterations(), first.switchboard(), first.peers(), first.threadsAdded(),
                List.of(new Series("last run", 50, List.of(new Series.Line("commits", new long[] {7, 8})))), true,
                null);
        Runs runs = new Runs(List.of(List.of(first), List.of(last)));
        assertThat(runs.rows().get(0).series()).isEqualTo(last.series());
        String page = HtmlReport.renderRuns(runInfo(), Map.of(), Map.of(), runs);
        assertThat(page).contains("<h2>Over time</h2>").contains("last run (period 50 ms, 2 periods)")
                .doesNotContain("Commits and rollbacks per period");
        assertThat(JsonReport.renderRuns(runInfo(), Map.of(), Map.of(), runs)).contains("\"title\": \"last run\"")
                .contains("\"values\": [7, 8]");
    }

    @Test
    void aBenchmarkThatFailedInOneRunIsNotVerifiedAndNamesTheRun() {
        Result failed = new Result("PingPong", "", Map.of(), Benchmark.Peer.PEKKO, Side.PEKKO_DEFAULT, 0, null,
                Map.of(), Map.of(), List.of(), false, "wrong checksum");
        Runs runs = new Runs(List.of(List.of(pekko("PingPong", 2, 8, 6)), List.of(failed)));
        assertThat(runs.verified()).isFalse();
        assertThat(runs.rows().get(0).failure()).isEqualTo("run 2: wrong checksum");
        assertThat(runs.rows().get(0).ratios()).isEmpty();
        assertThat(TableReport.render(runs)).contains("FAILED: run 2: wrong checksum");
        assertThatThrownBy(() -> new Runs(List.of(List.of(pekko("A", 1, 1, 1)), List.of(pekko("B", 1, 1, 1)))))
                .hasMessageContaining("run 2 has benchmarks [B], run 1 has [A]");
        assertThatThrownBy(() -> new Runs(List.of())).hasMessageContaining("no runs");
    }

    @Test
    void theMergedTableJsonAndHtmlShowTheSpreads() throws Exception {
        Runs runs = threeRuns();
        String table = TableReport.render(runs);
        assertThat(table).contains("vs Apache Pekko").contains("ratio default*").contains("ratio matched")
                .contains("4.00 [2.00-5.00]").contains("2.50 [2.00-3.00]").contains("8.00 [4.00-10.00]")
                .contains("geometric mean per run, default*: 4.00 2.00 5.00").contains("vs ForkJoinPool")
                .contains("ratio fork_join_pool*").contains("threads added fork_join_pool").contains("over 3 runs");

        String json = JsonReport.renderRuns(runInfo(), Map.of("cpus", 2), Map.of("runs", 3), runs);
        assertThat(json).contains("\"runs\": 3").contains("\"ratio\": 4.0000")
                .contains("\"ratios\": {\n      \"default\": 4.0000,\n      \"matched\": 2.5000\n    }")
                .contains("\"ratio_spreads\": {").contains("\"per_run\": [4.0000, 2.0000, 5.0000]")
                .contains("\"run_medians\": [8.0000, 4.0000, 10.0000]").contains("\"geometric_mean_spreads\": {")
                .contains("\"threads_added\": {\n      \"switchboard\": 1,\n      \"fork_join_pool\": 20\n    }");
        assertThat(ReportMapper.MAPPER.readTree(json).isObject()).isTrue();

        String page = HtmlReport.renderRuns(runInfo(), Map.of("cpus", 2), Map.of("runs", 3), runs);
        assertThat(page).contains("Merged over 3 runs").contains("data-scale='log'").contains("class='spread'")
                .contains("<b>4.00</b> (2.00-5.00)").contains("4.00 2.00 5.00").contains("Geometric mean per run")
                .contains("ratio default (headline), median (lowest-highest)").contains("4b0c17d-dirty")
                .contains("Each dot one run's median");
    }

    @Test
    void aChildsJsonReadsBackIntoTheSameResults() {
        List<Result> written = ReportsTest.results();
        List<Result> read = JsonReport.parseResults(JsonReport.render(runInfo(), Map.of(), Map.of(), written));
        assertThat(read).hasSameSizeAs(written);
        for (int i = 0; i < read.size(); i++) {
            Result a = written.get(i);
            Result b = read.get(i);
            assertThat(b.name()).isEqualTo(a.name());
            assertThat(b.peer()).isEqualTo(a.peer());
            assertThat(b.headline()).isEqualTo(a.headline());
            assertThat(b.iterations()).isEqualTo(a.iterations());
            assertThat(b.switchboard().samplesMs()).containsExactly(a.switchboard().samplesMs());
            assertThat(b.peers().keySet()).containsExactlyElementsOf(a.peers().keySet());
            for (Side side : a.peers().keySet()) {
                assertThat(b.ratio(side)).isCloseTo(a.ratio(side), within(1e-9));
            }
            assertThat(b.threadsAdded()).isEqualTo(a.threadsAdded());
            assertThat(b.verified()).isTrue();
        }
        assertThatThrownBy(() -> JsonReport.parseResults("{\"results\": [{}]}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a report");
    }

    @Test
    void theReportIsJsonThatJacksonReadsBackWithNaNAsNullAndFourDecimals() throws Exception {
        Result failed = new Result("Big", "", Map.of(), Benchmark.Peer.PEKKO, Side.PEKKO_DEFAULT, 0, null, Map.of(),
                Map.of(), List.of(), false, "wrong \"checksum\"\n\u00e9");
        String json = JsonReport.render(runInfo(), Map.of("cpus", 2), Map.of("k", "tab\there"),
                List.of(ReportsTest.pekko("PingPong", 1.0 / 3, 8, 6), failed));
        com.fasterxml.jackson.databind.JsonNode root = ReportMapper.MAPPER.readTree(json);
        assertThat(root.path("config").path("k").asText()).isEqualTo("tab\there");
        assertThat(root.path("run").path("arguments").get(1).asText()).isEqualTo("PingPong");
        com.fasterxml.jackson.databind.JsonNode big = root.path("results").get(1);
        assertThat(big.path("failure").asText()).isEqualTo("wrong \"checksum\"\n\u00e9");
        assertThat(big.path("ratio").isNull()).isTrue();
        assertThat(big.path("switchboard_ms").isNull()).isTrue();
        assertThat(root.path("geometric_means").path("default").isNull()).isFalse();
        assertThat(json).contains("\"median\": 0.3333,").doesNotContain("NaN");
        List<Result> back = JsonReport.parseResults(json);
        assertThat(back.get(1).failure()).isEqualTo(failed.failure());
        assertThat(back.get(1).verified()).isFalse();
        assertThat(back.get(0).switchboard().medianMs()).isEqualTo(0.3333);
        assertThatThrownBy(() -> JsonReport.parseResults("{\"results\": [")).hasMessageContaining("not a report");
    }

    @Test
    void runsIsParsedAndBadValuesSayWhatIsWrong() {
        assertThat(Options.parse(new String[] {}).runs).isEqualTo(1);
        assertThat(Options.parse(new String[] {"--runs", "5"}).runs).isEqualTo(5);
        assertThatThrownBy(() -> Options.parse(new String[] {"--runs", "0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--runs must be at least 1, got 0");
        assertThatThrownBy(() -> Options.parse(new String[] {"--runs", "many"}))
                .hasMessage("--runs takes a whole number, got 'many'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--runs"}))
                .hasMessage("Missing required parameter for option '--runs' (N)");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong,Big", "--runs", "2"}))
                .hasMessage("--runs does not go with --compare");
        assertThatThrownBy(() -> Options.parse(new String[] {"--probe-latency", "--runs", "2"}))
                .hasMessage("--runs does not go with --probe-latency");
    }

    @Test
    void childrenGetTheArgumentsWithoutRunsJsonAndHtmlAndThisJvmsFlags() {
        assertThat(ChildRuns.childArguments(List.of("--runs", "3", "--only", "PingPong", "--json", "a.json",
                "--html", "report", "--peer-config", "default", "--quick")))
                .containsExactly("--only", "PingPong", "--peer-config", "default", "--quick");
        List<String> command = ChildRuns.thisJvm("abc1234-dirty");
        assertThat(command.get(0)).endsWith("java");
        assertThat(command).contains("-Dswitchboard.commit=abc1234-dirty", "-cp",
                System.getProperty("java.class.path")).endsWith(Harness.class.getName());
        assertThat(command).containsAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
                .stream().filter(f -> !f.startsWith("-agentlib:jdwp") && !f.startsWith("-Dswitchboard.commit="))
                .toList());
    }

    @Test
    void aFailingChildIsReportedWithItsRunAndExitCode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChildRuns children = new ChildRuns(ChildRuns.thisJvm("test"), List.of("--iterations", "0"), 2,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThatThrownBy(children::run).isInstanceOfSatisfying(ChildRuns.Failure.class, f -> {
            assertThat(f.run()).isEqualTo(1);
            assertThat(f.exitCode()).isEqualTo(2);
            assertThat(f).hasMessage("run 1 of 2 failed: its JVM exited with code 2 (a usage error; see its output"
                    + " above)");
        });
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("=== run 1 of 2")
                .contains("bench: --iterations must be at least 1, got 0").doesNotContain("run 2 of 2");
    }

    @Test
    void aFailedRunIsReportedAndTriedOnceMoreAndTheSeriesGoesOnUntilNoRunCompleted() {
        // a "JVM" that exits with 3 every time, as Pekko's fatal-error handler ends one with 255
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChildRuns children = new ChildRuns(List.of("sh", "-c", "exit 3", "sh"), List.of(), 2,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThatThrownBy(children::run).isInstanceOfSatisfying(ChildRuns.Failure.class, f -> {
            assertThat(f.run()).as("the first failure is thrown").isEqualTo(1);
            assertThat(f.exitCode()).isEqualTo(3);
        });
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("run 1 of 2 failed: its JVM exited with code 3 (see its output above); trying it again")
                .contains("=== run 1 of 2, attempt 2")
                .contains("run 1 of 2 (attempt 2) failed: its JVM exited with code 3 (see its output above); going on"
                        + " with the next run")
                .contains("=== run 2 of 2 (its own JVM)").contains("run 2 of 2 (attempt 2) failed")
                .doesNotContain("attempt 3");
    }

    @Test
    void aRunThatFailsOnceIsTriedAgainAndTheSeriesKeepsAllItsRuns(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChildRuns.Outcome outcome = twoTinyRunsWhoseFirstAttemptsFail(1, dir, bytes);
        assertThat(outcome.failures()).singleElement().satisfies(f -> {
            assertThat(f.run()).isEqualTo(1);
            assertThat(f.exitCode()).isEqualTo(3);
        });
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("=== run 1 of 2, attempt 2");
        assertThat(new Runs(outcome.results()).count()).isEqualTo(2);
    }

    @Test
    void aRunThatFailsTwiceIsLeftOutAndTheOthersAreMerged(@TempDir Path dir) throws Exception {
        ChildRuns.Outcome outcome = twoTinyRunsWhoseFirstAttemptsFail(2, dir, new ByteArrayOutputStream());
        assertThat(outcome.failures()).hasSize(2).allSatisfy(f -> {
            assertThat(f.run()).isEqualTo(1);
            assertThat(f.exitCode()).isEqualTo(3);
        });
        assertThat(new Runs(outcome.results()).count()).isEqualTo(1);
    }

    @Test
    void theReportAFailedAttemptLeftIsKeptBesideTheSeriesReport(@TempDir Path dir) throws Exception {
        // a "JVM" that runs the harness to the end, report written, and then exits with 255 as Pekko's handler would
        List<String> jvm = new ArrayList<>(List.of("sh", "-c", "\"$@\"; exit 255", "sh"));
        jvm.addAll(ChildRuns.thisJvm("test"));
        Path series = dir.resolve("not-made-yet").resolve("series.json");   // its directory is made for the kept
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChildRuns children = new ChildRuns(jvm, List.of("--only", "PingPong", "--iterations", "1", "--warmup", "0",
                "--warmup-seconds", "0", "--workers", "2"), 1, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .keepingFailedReportsBeside(series);
        Path first = series.resolveSibling("series.json.run-1-attempt-1.json");
        assertThatThrownBy(children::run).isInstanceOfSatisfying(ChildRuns.Failure.class, f -> {
            assertThat(f.exitCode()).isEqualTo(255);
            assertThat(f).hasMessageEndingWith("; the report it left (1 benchmark) is kept as " + first);
        });
        for (Path kept : List.of(first, series.resolveSibling("series.json.run-1-attempt-2.json"))) {
            assertThat(JsonReport.parseResults(Files.readString(kept))).singleElement()
                    .satisfies(r -> assertThat(r.name()).isEqualTo("PingPong"))
                    .satisfies(r -> assertThat(r.verified()).isTrue());
        }
        assertThat(series).doesNotExist();              // the series' own report is the caller's to write
    }

    /**
     * Two runs of PingPong (one iteration each) in child JVMs, whose first {@code failing} attempts exit with 3
     * before they start (as Pekko's fatal-error handler ends a JVM with 255); every run that completes is checked.
     */
    private static ChildRuns.Outcome twoTinyRunsWhoseFirstAttemptsFail(int failing, Path dir,
            ByteArrayOutputStream bytes) throws IOException {
        Path attempts = dir.resolve("attempts");
        List<String> jvm = new ArrayList<>(List.of("sh", "-c", "n=$(cat \"" + attempts + "\" 2>/dev/null || echo 0); "
                + "echo $((n + 1)) > \"" + attempts + "\"; if [ \"$n\" -lt " + failing + " ]; then exit 3; fi; "
                + "exec \"$@\"", "sh"));
        jvm.addAll(ChildRuns.thisJvm("test"));
        ChildRuns children = new ChildRuns(jvm, List.of("--only", "PingPong", "--iterations", "1", "--warmup", "0",
                "--warmup-seconds", "0", "--workers", "2"), 2, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        ChildRuns.Outcome outcome = children.run();
        assertThat(outcome.results()).allSatisfy(results ->
                assertThat(results).extracting(Result::name).containsExactly("PingPong"));
        assertThat(new Runs(outcome.results()).verified()).isTrue();
        return outcome;
    }

    @Test
    void twoTinyRunsInChildJvmsAreMergedAndReported(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("merged.json");
        Path html = dir.resolve("report");
        Options options = Options.parse(new String[] {"--runs", "2", "--only", "PingPong",
                "--iterations", "1", "--warmup", "0", "--warmup-seconds", "0", "--workers", "2",
                "--json", json.toString(), "--html", html.toString()});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Runs runs = new Harness(options, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .runInChildren(List.of(new dev.switchboard.bench.pingpong.PingPong()));

        assertThat(runs.count()).isEqualTo(2);
        assertThat(runs.verified()).isTrue();
        assertThat(runs.rows()).extracting(Runs.Row::name).containsExactly("PingPong");
        assertThat(runs.rows().get(0).ratios()).containsOnlyKeys(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        assertThat(runs.rows().get(0).ratio().perRun()).hasSize(2);
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("=== run 1 of 2").contains("=== run 2 of 2").contains("over 2 runs")
                .contains("ratio default*");
        assertThat(Files.readString(json)).contains("\"runs\": 2").contains("\"ratio_spreads\": {")
                .contains("\"verified\": true");
        assertThat(Files.readString(html.resolve("index.html"))).contains("Merged over 2 runs");
        assertThat(Files.list(dir)).hasSize(2);    // the children's reports went to a temporary directory
    }
}

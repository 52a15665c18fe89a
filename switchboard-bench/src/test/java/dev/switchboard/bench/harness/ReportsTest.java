package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The table, JSON and HTML reports, from hand-made results: nothing is run. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReportsTest {
    static final String LONG_NAME = "DictRead150K-ReadersWriter-vsReplicas-WithAVeryLongSuffixThatMustNotBeCut";

    /** Stats whose every sample is {@code ms}. */
    static Stats stats(double ms) {
        return new Stats(ms, ms, ms, new double[] {ms, ms, ms});
    }

    static Result pekko(String name, double sb, double defaults, double matched) {
        return new Result(name, "a benchmark", Map.of("n", 1), Benchmark.Peer.PEKKO, Side.PEKKO_DEFAULT, 3,
                stats(sb), Map.of(Side.PEKKO_DEFAULT, stats(defaults), Side.PEKKO_MATCHED, stats(matched)), Map.of(),
                List.of(), true, null);
    }

    static Result pool(String name, double sb, double pool, int sbThreads, int poolThreads) {
        return new Result(name, "a task-parallel benchmark", Map.of(), Benchmark.Peer.FORK_JOIN_POOL,
                Side.FORK_JOIN_POOL, 3, stats(sb), Map.of(Side.FORK_JOIN_POOL, stats(pool)),
                Map.of(Side.SWITCHBOARD, sbThreads, Side.FORK_JOIN_POOL, poolThreads), List.of(), true, null);
    }

    static RunInfo runInfo() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("workers", "2 per runtime");
        settings.put("Pekko 1.7.0", "default: throughput 5 (the headline); matched: throughput 64");
        return new RunInfo(OffsetDateTime.of(2026, 11, 25, 11, 40, 2, 0, ZoneOffset.UTC),
                OffsetDateTime.of(2026, 11, 25, 11, 46, 40, 0, ZoneOffset.UTC), "4b0c17d-dirty",
                List.of("--only", "PingPong"), settings);
    }

    /** Two charts of a transactional benchmark's last run: commits and rollbacks, and the threads. */
    static List<Series> txSeries() {
        return List.of(
                new Series("Commits and rollbacks per period", 50, List.of(
                        new Series.Line("commits", new long[] {1_200, 1_350, 9_876_543_210L}),
                        new Series.Line("rollbacks", new long[] {12, 0, 7}))),
                new Series("Threads for transactional messages", 50,
                        List.of(new Series.Line("transactional threads", new long[] {56, 28, 14}))));
    }

    /** A Pekko result with {@link #txSeries()}. */
    static Result withSeries(String name) {
        Result r = pekko(name, 400, 200, 190);
        return new Result(r.name(), r.description(), r.params(), r.peer(), r.headline(), r.iterations(),
                r.switchboard(), r.peers(), r.threadsAdded(), txSeries(), true, null);
    }

    /** LogisticMap-like 245, a loss (0.8), a near tie, and a pool benchmark. */
    static List<Result> results() {
        return List.of(pekko("PingPong", 2, 8, 6), pekko("LogisticMap", 4, 980, 900), pekko(LONG_NAME, 10, 8, 9),
                pool("Fib", 10, 30, 0, 14));
    }

    @Test
    void theTableHasBothConfigurationsTheHeadlineAndTheGeometricMeansWithLossesIncluded() {
        String table = TableReport.render(results());
        assertThat(table).contains("vs Apache Pekko").contains("Pekko default ms").contains("Pekko matched ms")
                .contains("default*").contains("matched").contains("vs ForkJoinPool").contains("fork_join_pool*")
                .contains("threads added").contains(LONG_NAME).contains("0.80");
        // Geometric mean of 4, 245 and 0.8 over the default column; 3, 225 and 0.9 over the matched one.
        assertThat(table).contains(String.format(java.util.Locale.ROOT, "%.2f", Math.cbrt(4 * 245 * 0.8)))
                .contains(String.format(java.util.Locale.ROOT, "%.2f", Math.cbrt(3 * 225 * 0.9)));
        assertThat(GeometricMean.of(results(), Side.PEKKO_DEFAULT)).isCloseTo(Math.cbrt(4 * 245 * 0.8), within(1e-9));
        assertThat(GeometricMean.of(results(), Side.FORK_JOIN_POOL)).isCloseTo(3, within(1e-9));
    }

    @Test
    void theJsonHasTheRunTheConfigurationsTheHeadlineAndARatioPerConfiguration() {
        String json = JsonReport.render(runInfo(), Map.of("cpus", 2), Map.of("headline", "default"), results());
        assertThat(json).contains("\"run\": {").contains("\"started\": \"2026-11-25T11:40:02Z\"")
                .contains("\"finished\": \"2026-11-25T11:46:40Z\"").contains("\"commit\": \"4b0c17d-dirty\"")
                .contains("\"arguments\": [").contains("\"headline\": \"default\"").contains("\"ratio\": 4.0000")
                .contains("\"ratios\": {\n      \"default\": 4.0000,\n      \"matched\": 3.0000\n    }")
                .contains("\"peer\": \"fork_join_pool\"")
                .contains("\"threads_added\": {\n      \"switchboard\": 0,\n      \"fork_join_pool\": 14\n    }")
                .contains("\"geometric_means\": {").contains("\"name\": \"" + LONG_NAME + "\"");
    }

    @Test
    void theHtmlPageSaysWhenWhatAndHowAndDrawsTheRatiosOnALogScaleWithFullNames() {
        String page = HtmlReport.render(runInfo(), Map.of("cpus", 2), Map.of("headline", "default"), results());
        assertThat(page).contains("2026-11-25 11:40:02 to 11:46:40 UTC").contains("4b0c17d-dirty")
                .contains("<dt>workers</dt><dd>2 per runtime</dd>").contains("Pekko 1.7.0")
                .contains("default: throughput 5 (the headline); matched: throughput 64");
        assertThat(page).contains("<svg class='ratio-chart' data-scale='log'").contains("class='one'")
                .contains("ratio (log scale)").contains(">1</text>").contains(">100</text>").contains(">0.5</text>");
        assertThat(page).contains(">" + LONG_NAME + "</text>").contains("<td>" + LONG_NAME + "</td>");
        assertThat(page).contains("ratio default (headline)").contains("ratio matched").contains("<b>4.00</b>")
                .contains("<td class=fail><b>0.80</b></td>").contains("Results vs ForkJoinPool")
                .contains("threads added, ForkJoinPool").contains("geometric mean, Pekko default")
                .contains("geometric mean, Pekko matched").contains("geometric mean, ForkJoinPool");
        // A bar per benchmark and peer side, and one per geometric mean: 3 * 2 + 1 + 3.
        assertThat(page.split("<rect x='[0-9.]+' y='[0-9.]+' width='[0-9.]+' height='(12|8)'", -1)).hasSize(11);
    }

    @Test
    void aSeriesIsPlottedOverTimeWrittenToTheJsonAndReadBackExactly() {
        List<Result> results = List.of(pekko("PingPong", 2, 8, 6), withSeries("TxList-Write-Dynamic-Direct"));
        String page = HtmlReport.render(runInfo(), Map.of("cpus", 2), Map.of("headline", "default"), results);
        String overTime = page.substring(page.indexOf("<h2>Over time</h2>"), page.indexOf("<h2>Time distribution"));
        assertThat(overTime).contains("<h3>TxList-Write-Dynamic-Direct</h3>").doesNotContain("PingPong")
                .contains("Commits and rollbacks per period (period 50 ms, 3 periods)")
                .contains("commits (0 to 9876543210)").contains("rollbacks (0 to 12)")
                .contains("transactional threads (0 to 56)").contains(">0.15 s<");
        // one line per series line; each line's largest value at the top of the plot (y = 4), 0 at the bottom
        assertThat(overTime.split("<polyline", -1)).hasSize(4);
        assertThat(overTime).contains("points='4.0,156.0 320.0,156.0 636.0,4.0'")
                .contains("points='4.0,4.0 320.0,156.0 636.0,67.3'");

        String json = JsonReport.render(runInfo(), Map.of("cpus", 2), Map.of("headline", "default"), results);
        assertThat(json).contains("\"series\": [").contains("\"period_ms\": 50")
                .contains("\"values\": [1200, 1350, 9876543210]");
        List<Result> back = JsonReport.parseResults(json);
        assertThat(back.get(0).series()).isEmpty();
        assertThat(back.get(1).series()).isEqualTo(txSeries());

        String without = HtmlReport.render(runInfo(), Map.of(), Map.of(), List.of(pekko("PingPong", 2, 8, 6)));
        assertThat(without).doesNotContain("Over time");
        assertThat(JsonReport.render(runInfo(), Map.of(), Map.of(), List.of(pekko("PingPong", 2, 8, 6))))
                .doesNotContain("\"series\"");
    }

    @Test
    void aSeriesNeedsAPositivePeriodAndALineAndKeepsItsValues() {
        long[] values = {1, 2, 3};
        Series.Line line = new Series.Line("commits", values);
        values[0] = 99;
        assertThat(line.values()).containsExactly(1, 2, 3);
        assertThat(line.max()).isEqualTo(3);
        assertThat(new Series("s", 1, List.of(line, new Series.Line("short", new long[] {4}))).periods())
                .isEqualTo(3);
        assertThatThrownBy(() -> new Series("TxList", 0, List.of(line)))
                .hasMessageContaining("period must be positive: 0 ms in 'TxList'");
        assertThatThrownBy(() -> new Series("TxList", 50, List.of()))
                .hasMessageContaining("at least one line: 'TxList'");
    }

    @Test
    void theChartsAxisIsLogarithmicAroundOneAndLongNamesWidenIt() {
        RatioChart.Axis axis = new RatioChart.Axis(0.8, 245);
        assertThat(axis.min).isEqualTo(0.5);
        assertThat(axis.max).isEqualTo(500);
        assertThat(axis.x(10) - axis.x(1)).isCloseTo(axis.x(100) - axis.x(10), within(1e-9));
        assertThat(axis.x(1) - axis.x(0.5)).isCloseTo(axis.x(2) - axis.x(1), within(1e-9));
        assertThat(axis.ticks()).containsExactly(0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0);
        assertThat(new RatioChart.Axis(1.2, 3).ticks()).containsExactly(0.5, 1.0, 2.0, 5.0);
        assertThat(new RatioChart.Axis(0.001, 1e6).ticks()).containsExactly(0.001, 0.01, 0.1, 1.0, 10.0, 100.0,
                1000.0, 10000.0, 100000.0, 1000000.0);

        RatioChart.Bar bar = new RatioChart.Bar(Side.PEKKO_DEFAULT, true, 2, 2, 2);
        String narrow = RatioChart.render(List.of(new RatioChart.Row("A", List.of(bar), null)));
        String wide = RatioChart.render(List.of(new RatioChart.Row(LONG_NAME, List.of(bar), null)));
        assertThat(width(wide)).isGreaterThan(width(narrow) + LONG_NAME.length() * 6);
    }

    @Test
    void theCommitComesFromThePropertyElseFromGitElseIsUnknown() {
        String before = System.getProperty(RunInfo.COMMIT_PROPERTY);
        try {
            System.setProperty(RunInfo.COMMIT_PROPERTY, "abc1234-dirty");
            assertThat(RunInfo.currentCommit()).isEqualTo("abc1234-dirty");
            System.clearProperty(RunInfo.COMMIT_PROPERTY);
            assertThat(RunInfo.currentCommit()).matches("[0-9a-f]{4,40}(-dirty)?|unknown");
        } finally {
            if (before != null) {
                System.setProperty(RunInfo.COMMIT_PROPERTY, before);
            }
        }
    }

    private static int width(String svg) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("width='(\\d+)'").matcher(svg);
        assertThat(m.find()).isTrue();
        return Integer.parseInt(m.group(1));
    }
}

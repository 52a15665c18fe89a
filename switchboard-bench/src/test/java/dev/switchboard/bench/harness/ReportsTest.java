package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
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
                true, null);
    }

    static Result pool(String name, double sb, double pool, int sbThreads, int poolThreads) {
        return new Result(name, "a task-parallel benchmark", Map.of(), Benchmark.Peer.FORK_JOIN_POOL,
                Side.FORK_JOIN_POOL, 3, stats(sb), Map.of(Side.FORK_JOIN_POOL, stats(pool)),
                Map.of(Side.SWITCHBOARD, sbThreads, Side.FORK_JOIN_POOL, poolThreads), true, null);
    }

    static RunInfo runInfo() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("workers", "2 per runtime");
        settings.put("Pekko 1.7.0", "default: throughput 5 (the headline); matched: throughput 64");
        return new RunInfo(OffsetDateTime.of(2026, 11, 25, 11, 40, 2, 0, ZoneOffset.UTC),
                OffsetDateTime.of(2026, 11, 25, 11, 46, 40, 0, ZoneOffset.UTC), "4b0c17d-dirty",
                List.of("--only", "PingPong"), settings);
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
                .contains("\"ratios\": {\n        \"default\": 4.0000,\n        \"matched\": 3.0000\n      }")
                .contains("\"peer\": \"fork_join_pool\"")
                .contains("\"threads_added\": {\n        \"switchboard\": 0,\n        \"fork_join_pool\": 14\n      }")
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

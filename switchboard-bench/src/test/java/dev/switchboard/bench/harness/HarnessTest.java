package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import dev.switchboard.bench.Suite;
import dev.switchboard.bench.pingpong.PingPong;
import dev.switchboard.task.TaskRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end on a tiny benchmark (the table, the JSON schema other tools read, the HTML report) and its
 * options.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HarnessTest {

    @Test
    void runsSwitchboardAndBothPekkoConfigurationsAndWritesJsonAndHtml(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        Path html = dir.resolve("report");
        Options options = Options.parse(new String[] {"--iterations", "3", "--warmup", "1",
                "--warmup-seconds", "0", "--workers", "2", "--json", json.toString(), "--html", html.toString()});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Result> results = new Harness(options, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .run(List.of(new PingPong(1_000)));

        assertThat(results).hasSize(1);
        Result r = results.get(0);
        assertThat(r.verified()).isTrue();
        assertThat(r.iterations()).isEqualTo(3);
        assertThat(r.headline()).isEqualTo(Side.PEKKO_DEFAULT);
        assertThat(r.peers()).containsOnlyKeys(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        assertThat(r.switchboard().samplesMs()).hasSize(3);
        assertThat(r.peers().get(Side.PEKKO_MATCHED).samplesMs()).hasSize(3);
        assertThat(r.ratio()).isEqualTo(r.peers().get(Side.PEKKO_DEFAULT).medianMs() / r.switchboard().medianMs());
        assertThat(r.ratio(Side.PEKKO_MATCHED))
                .isEqualTo(r.peers().get(Side.PEKKO_MATCHED).medianMs() / r.switchboard().medianMs());
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertThat(table).contains("PingPong").contains("Pekko default ms").contains("Pekko matched ms")
                .contains("default*").contains("matched").contains("geometric mean")
                .contains("Pekko default (throughput 5, the headline) and Pekko matched (throughput 64)")
                .contains("collector: " + Collector.inUse());

        String text = Files.readString(json);
        assertThat(text).contains("\"machine\": {").contains("\"config\": {").contains("\"results\": [")
                .contains("\"name\": \"PingPong\"").contains("\"params\": {").contains("\"iterations\": 3")
                .contains("\"peer\": \"pekko\"").contains("\"headline\": \"default\"")
                .contains("\"peer_configs\": [\"default\", \"matched\"]")
                .contains("\"collector\": \"" + Collector.inUse() + "\"")
                .contains("\"switchboard_ms\": {").contains("\"peer_ms\": {").contains("\"default\": {")
                .contains("\"matched\": {").contains("\"median\": ").contains("\"min\": ").contains("\"max\": ")
                .contains("\"ratio\": ").contains("\"ratios\": {").contains("\"geometric_means\": {")
                .contains("\"verified\": true").contains("\"throughput\": 64").contains("\"throughput\": 5")
                .contains("\"parallelism\": 2");
        String page = Files.readString(html.resolve("index.html"));
        assertThat(page).contains("<dt>collector</dt><dd>" + Collector.inUse())
                .contains("<svg").contains("PingPong").contains("Ratio per benchmark")
                .contains("ratio default (headline)").contains("ratio matched").contains("Pekko matched");
    }

    @Test
    void onePekkoConfigurationRunsAloneAndIsTheHeadline() throws Exception {
        Options options = Options.parse(new String[] {"--iterations", "1", "--warmup", "0",
                "--warmup-seconds", "0", "--workers", "2", "--peer-config", "matched", "--throughput", "16"});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Result> results = new Harness(options, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .run(List.of(new PingPong(100)));
        assertThat(results.get(0).verified()).isTrue();
        assertThat(results.get(0).peers()).containsOnlyKeys(Side.PEKKO_MATCHED);
        assertThat(results.get(0).headline()).isEqualTo(Side.PEKKO_MATCHED);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("Pekko matched (throughput 16, the headline)")
                .contains("matched*").doesNotContain("Pekko default");
    }

    @Test
    void taskParallelBenchmarksRunAgainstTheForkJoinPoolWithTheThreadsEachSideAdded(@TempDir Path dir)
            throws Exception {
        Path json = dir.resolve("out.json");
        Options options = Options.parse(new String[] {"--iterations", "2", "--warmup", "1",
                "--warmup-seconds", "0", "--workers", "2", "--json", json.toString(), "--html", dir.toString()});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Result> results = new Harness(options, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .run(List.of(new PingPong(300), new ForkJoinSum(100_000, 1_000), new ThreeThreads()));

        assertThat(results).allSatisfy(r -> assertThat(r.verified()).isTrue());
        Result pekko = results.get(0);
        assertThat(pekko.peers()).containsOnlyKeys(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        assertThat(pekko.threadsAdded()).isEmpty();
        Result sum = results.get(1);
        assertThat(sum.peer()).isEqualTo(Benchmark.Peer.FORK_JOIN_POOL);
        assertThat(sum.headline()).isEqualTo(Side.FORK_JOIN_POOL);
        assertThat(sum.peers()).containsOnlyKeys(Side.FORK_JOIN_POOL);
        assertThat(sum.ratio()).isEqualTo(sum.peers().get(Side.FORK_JOIN_POOL).medianMs()
                / sum.switchboard().medianMs());
        assertThat(sum.threadsAdded()).containsOnlyKeys(Side.SWITCHBOARD, Side.FORK_JOIN_POOL);
        assertThat(sum.threadsAdded().values()).allSatisfy(n -> assertThat(n).isNotNegative());
        // Its pool side starts three threads that are all alive at once.
        assertThat(results.get(2).threadsAdded().get(Side.FORK_JOIN_POOL)).isGreaterThanOrEqualTo(3);

        String table = bytes.toString(StandardCharsets.UTF_8);
        assertThat(table).contains("Switchboard vs Apache Pekko 1.7.0 and ForkJoinPool").contains("vs Apache Pekko")
                .contains("vs ForkJoinPool").contains("ForkJoinPool ms").contains("fork_join_pool*")
                .contains("threads added").contains("ForkJoinSum").contains("ThreeThreads");
        String text = Files.readString(json);
        assertThat(text).contains("\"peer\": \"fork_join_pool\"").contains("\"headline\": \"fork_join_pool\"")
                .contains("\"threads_added\": {").contains("\"fork_join_pool\": {")
                .contains("\"construction\": \"new ForkJoinPool(").contains("\"mode\": \"lifo\"");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("vs ForkJoinPool")
                .contains("threads added, ForkJoinPool").contains("ForkJoinSum");
    }

    @Test
    void whileABenchmarkRunsTheReportOnDiskHoldsTheOnesMeasuredBeforeIt(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out.json");
        Options options = Options.parse(new String[] {"--iterations", "1", "--warmup", "0",
                "--warmup-seconds", "0", "--workers", "2", "--json", json.toString()});
        ReadsTheReport reader = new ReadsTheReport(json);
        List<Result> results = new Harness(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).run(List.of(new ForkJoinSum(100_000, 1_000), reader,
                new ForkJoinSum(1_000, 100)));

        assertThat(results).allSatisfy(r -> assertThat(r.verified()).isTrue());
        // What a JVM ended in the second benchmark would have left: the first one's results, marked partial.
        assertThat(reader.seen).isNotEmpty().allSatisfy(report -> assertThat(report)
                .contains("\"partial\": \"1 of 3 benchmarks measured;").contains("\"name\": \"ForkJoinSum\"")
                .doesNotContain("\"name\": \"ReadsTheReport\""));
        assertThat(JsonReport.parseResults(reader.seen.get(0))).singleElement()
                .satisfies(r -> assertThat(r.verified()).isTrue());
        String complete = Files.readString(json);
        assertThat(complete).doesNotContain("\"partial\"").contains("\"name\": \"ReadsTheReport\"");
        assertThat(JsonReport.parseResults(complete)).hasSize(3);
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(json);            // no file left from writing it whole
        }
    }

    /** A pool-peer benchmark that reads the harness's report on disk at every run, and keeps what it read. */
    private static final class ReadsTheReport implements Benchmark {
        final Path json;
        final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        ReadsTheReport(Path json) {
            this.json = json;
        }

        @Override
        public String name() {
            return "ReadsTheReport";
        }

        @Override
        public String description() {
            return "reads the report the harness has written so far";
        }

        @Override
        public java.util.Map<String, Object> params() {
            return java.util.Map.of();
        }

        @Override
        public long expected() {
            return 1;
        }

        @Override
        public Peer peer() {
            return Peer.FORK_JOIN_POOL;
        }

        @Override
        public long runSwitchboard(TaskRuntime runtime) throws Exception {
            seen.add(Files.readString(json));
            return 1;
        }

        @Override
        public long runForkJoin(java.util.concurrent.ForkJoinPool pool) throws Exception {
            seen.add(Files.readString(json));
            return 1;
        }
    }

    /** A pool-peer benchmark whose pool side starts three threads, all alive at once; Switchboard's starts none. */
    private static final class ThreeThreads implements Benchmark {
        @Override
        public String name() {
            return "ThreeThreads";
        }

        @Override
        public String description() {
            return "the pool side starts three threads";
        }

        @Override
        public java.util.Map<String, Object> params() {
            return java.util.Map.of();
        }

        @Override
        public long expected() {
            return 3;
        }

        @Override
        public Peer peer() {
            return Peer.FORK_JOIN_POOL;
        }

        @Override
        public long runSwitchboard(TaskRuntime runtime) {
            java.util.concurrent.atomic.AtomicLong n = new java.util.concurrent.atomic.AtomicLong();
            runtime.finish(() -> {
                for (int i = 0; i < 3; i++) {
                    dev.switchboard.Switchboard.async(n::incrementAndGet);
                }
            });
            return n.get();
        }

        @Override
        public long runForkJoin(java.util.concurrent.ForkJoinPool pool) throws Exception {
            java.util.concurrent.CountDownLatch allStarted = new java.util.concurrent.CountDownLatch(3);
            List<Thread> threads = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    allStarted.countDown();
                    try {
                        allStarted.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            return threads.size();
        }
    }

    /** A benchmark that is PingPong of 100 round trips under another name, for tests that change one part. */
    private static class RenamedPingPong implements Benchmark {
        final PingPong real = new PingPong(100);
        private final String name;
        private final String description;

        RenamedPingPong(String name, String description) {
            this.name = name;
            this.description = description;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public java.util.Map<String, Object> params() {
            return real.params();
        }

        @Override
        public long expected() {
            return real.expected();
        }

        @Override
        public long runSwitchboard(dev.switchboard.task.TaskRuntime runtime) {
            return real.runSwitchboard(runtime);
        }

        @Override
        public long runPekko(org.apache.pekko.actor.ActorSystem system) throws Exception {
            return real.runPekko(system);
        }
    }

    @Test
    void theSeriesOfTheLastMeasuredSwitchboardRunIsReportedAndPlotted(@TempDir Path dir) throws Exception {
        Benchmark recording = new RenamedPingPong("Recording", "records how many Switchboard runs came before each") {
            int switchboardRuns;

            @Override
            public long runSwitchboard(dev.switchboard.task.TaskRuntime runtime) {
                switchboardRuns++;
                return super.runSwitchboard(runtime);
            }

            @Override
            public List<Series> lastRunSeries() {
                return List.of(new Series("runs so far", 10,
                        List.of(new Series.Line("runs", new long[] {0, switchboardRuns}))));
            }
        };
        Path html = dir.resolve("report");
        Options options = Options.parse(new String[] {"--iterations", "3", "--warmup", "2",
                "--warmup-seconds", "0", "--workers", "2", "--html", html.toString()});
        List<Result> results = new Harness(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).run(List.of(recording));
        // asked after the 2 warm-up and 3 measured rounds: the last measured run's series
        assertThat(results.get(0).series()).containsExactly(new Series("runs so far", 10,
                List.of(new Series.Line("runs", new long[] {0, 5}))));
        assertThat(Files.readString(html.resolve("index.html"))).contains("<h2>Over time</h2>")
                .contains("<h3>Recording</h3>").contains("runs (0 to 5)");
        assertThat(Files.readString(html.resolve("results.json"))).contains("\"values\": [0, 5]");
    }

    @Test
    void aWrongChecksumIsReportedAsNotVerified() throws Exception {
        Benchmark broken = new RenamedPingPong("Broken", "returns a checksum that does not match") {
            @Override
            public long expected() {
                return -1;
            }
        };
        Options options = Options.parse(new String[] {"--iterations", "1", "--warmup", "0",
                "--warmup-seconds", "0", "--workers", "2"});
        List<Result> results = new Harness(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).run(List.of(broken));
        assertThat(results.get(0).verified()).isFalse();
        assertThat(results.get(0).failure()).contains("checksum");
    }

    @Test
    void optionsAreParsedAndCheckedClearly() {
        Options quick = Options.parse(new String[] {"--quick", "--only", "PingPong,big"});
        assertThat(quick.quick).isTrue();
        assertThat(quick.only).isEqualTo(Set.of("pingpong", "big"));
        assertThat(Suite.select(quick.only)).extracting(Benchmark::name).containsExactly("PingPong", "Big");
        assertThatThrownBy(() -> Options.parse(new String[] {"--frobnicate"}))
                .hasMessageContaining("Unknown option: '--frobnicate'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--json"}))
                .hasMessageContaining("Missing required parameter for option '--json'");
        assertThatThrownBy(() -> Suite.select(Set.of("nope"))).hasMessageContaining("unknown benchmark");
    }

    @Test
    void idleSpinIsParsedCheckedAndReported() throws Exception {
        assertThat(Options.parse(new String[] {}).idleSpin).isZero();
        assertThat(Options.parse(new String[] {"--idle-spin", "50us"}).idleSpin)
                .isEqualTo(Duration.ofNanos(50_000));
        assertThat(Options.parse(new String[] {"--idle-spin", "1ms"}).idleSpin).isEqualTo(Duration.ofMillis(1));
        assertThat(Options.parse(new String[] {"--idle-spin", "0"}).idleSpin).isZero();
        assertThatThrownBy(() -> Options.parse(new String[] {"--idle-spin", "50"}))
                .hasMessage("--idle-spin takes a duration such as 50us or 1ms, got '50'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--idle-spin", "11ms"}))
                .hasMessage("--idle-spin is at most 10ms, got '11ms'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--probe-latency", "--idle-spin", "50us"}))
                .hasMessageContaining("--idle-spin does not go with --probe-latency");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Comparison.Row> rows = new Comparison(List.of(new PingPong(1_000), new PingPong(2_000)), 2, 0, 0, 2, 64,
                new PrintStream(bytes, true, StandardCharsets.UTF_8)).idleSpin(Duration.ofNanos(50_000)).run();
        assertThat(rows).hasSize(2);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("throughput 64, idle spin 50 us");
    }

    @Test
    void peerConfigChoosesThePekkoConfigurationsAndTheHeadline() {
        Options both = Options.parse(new String[] {});
        assertThat(both.peerConfigs).containsExactly(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        assertThat(both.headline()).isEqualTo(Side.PEKKO_DEFAULT);
        assertThat(Options.parse(new String[] {"--peer-config", "both"}).peerConfigs)
                .containsExactly(Side.PEKKO_DEFAULT, Side.PEKKO_MATCHED);
        assertThat(Options.parse(new String[] {"--peer-config", "default"}).peerConfigs)
                .containsExactly(Side.PEKKO_DEFAULT);
        Options matched = Options.parse(new String[] {"--peer-config", "MATCHED"});
        assertThat(matched.peerConfigs).containsExactly(Side.PEKKO_MATCHED);
        assertThat(matched.headline()).isEqualTo(Side.PEKKO_MATCHED);
        assertThatThrownBy(() -> Options.parse(new String[] {"--peer-config", "fast"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--peer-config takes default, matched or both, got 'fast'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--peer-config"}))
                .hasMessageContaining("Missing required parameter for option '--peer-config'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong,Big", "--peer-config",
                "default"})).hasMessageContaining("--peer-config does not go with --compare");
        assertThatThrownBy(() -> Options.parse(new String[] {"--probe-latency", "--peer-config",
                "default"})).hasMessageContaining("--peer-config does not go with --probe-latency");
    }

    @Test
    void poolModeChoosesTheOrderOfTheForkJoinPoolPeer() {
        Options lifo = Options.parse(new String[] {"--workers", "3"});
        assertThat(lifo.poolFifo).isFalse();
        assertThat(RunDescription.poolConstruction(lifo)).isEqualTo("new ForkJoinPool(3)");
        Options fifo = Options.parse(new String[] {"--workers", "3", "--pool-mode", "FIFO"});
        assertThat(fifo.poolFifo).isTrue();
        assertThat(RunDescription.poolConstruction(fifo)).contains("true) (FIFO mode)");
        assertThat(Options.parse(new String[] {"--pool-mode", "lifo"}).poolFifo).isFalse();
        assertThatThrownBy(() -> Options.parse(new String[] {"--pool-mode", "random"}))
                .hasMessage("--pool-mode takes lifo or fifo, got 'random'");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong,Big", "--pool-mode",
                "fifo"})).hasMessageContaining("--pool-mode does not go with --compare");
    }

    @Test
    void pekkoSettingsBuildTheDefaultAndTheMatchedConfiguration() {
        Config defaults = PekkoSettings.defaults(3);
        assertThat(PekkoSettings.throughput(defaults)).isEqualTo(5);
        assertThat(defaults.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-min")).isEqualTo(3);
        assertThat(defaults.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max")).isEqualTo(3);
        assertThat(defaults.getString("pekko.actor.default-dispatcher.executor")).isEqualTo("default-executor");
        Config matched = PekkoSettings.matched(3, 64);
        assertThat(PekkoSettings.throughput(matched)).isEqualTo(64);
        assertThat(matched.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max")).isEqualTo(3);
        assertThat(matched.withoutPath(PekkoSettings.THROUGHPUT).root().unwrapped())
                .isEqualTo(defaults.withoutPath(PekkoSettings.THROUGHPUT).root().unwrapped());
        assertThat(PekkoSettings.throughput(PekkoSettings.of(Side.PEKKO_MATCHED, 2, 16))).isEqualTo(16);
        assertThatThrownBy(() -> PekkoSettings.of(Side.FORK_JOIN_POOL, 2, 16))
                .isInstanceOf(IllegalArgumentException.class);
        // the tests' configuration: the matched one on a thread pool of as many threads
        Config pool = PekkoSettings.threadPool(3, 64);
        assertThat(pool.getString("pekko.actor.default-dispatcher.executor")).isEqualTo("thread-pool-executor");
        assertThat(pool.getInt("pekko.actor.default-dispatcher.thread-pool-executor.fixed-pool-size")).isEqualTo(3);
        assertThat(PekkoSettings.throughput(pool)).isEqualTo(64);
    }

    @Test
    void aComparisonRunsEveryVariantAndRelatesItToTheFirst() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Comparison.Row> rows = new Comparison(List.of(new PingPong(1_000), new PingPong(4_000)), 5, 1, 0, 2, 16,
                new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        assertThat(rows).extracting(Comparison.Row::name).containsExactly("PingPong", "PingPong");
        assertThat(rows.get(0).vsFirst()).isEqualTo(1.0);
        assertThat(rows.get(1).vsFirst()).isEqualTo(rows.get(1).medianMs() / rows.get(0).medianMs());
        assertThat(rows).allSatisfy(r -> assertThat(r.q1Ms()).isLessThanOrEqualTo(r.medianMs())
                .isGreaterThan(0));
        assertThat(rows).allSatisfy(r -> assertThat(r.q3Ms()).isGreaterThanOrEqualTo(r.medianMs()));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("vs first").contains("PingPong")
                .contains("throughput 16");
        assertThatThrownBy(() -> new Comparison(List.of(new PingPong(10)), 1, 0, 0, 2, 64, System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least two");
        assertThat(Options.parse(new String[] {"--compare", "PingPong,Big"}).compare)
                .containsExactly("pingpong", "big");
        assertThat(Options.parse(new String[] {"--compare", "PingPong,Big"}).iterations).isEqualTo(30);
        assertThat(Options.parse(new String[] {"--compare", "PingPong,Big"}).throughput)
                .isEqualTo(TaskRuntime.DEFAULT_THROUGHPUT);
        assertThat(Options.parse(new String[] {"--throughput", "5"}).throughput).isEqualTo(5);
        assertThatThrownBy(() -> Options.parse(new String[] {"--throughput", "0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--throughput");
    }

    @Test
    void aComparisonOnSeveralWorkerCountsRunsEachBenchmarkOnARuntimeOfEach() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Comparison.Row> rows = new Comparison(List.of(new PingPong(1_000), new PingPong(2_000)), 3, 1, 0,
                List.of(1, 2), 64, new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        assertThat(rows).extracting(Comparison.Row::workers).containsExactly(1, 2, 1, 2);
        assertThat(rows.get(0).vsFirstWorkers()).isEqualTo(1.0);
        assertThat(rows.get(1).vsFirstWorkers()).isEqualTo(rows.get(1).medianMs() / rows.get(0).medianMs());
        assertThat(rows.get(2).vsFirstWorkers()).isEqualTo(1.0);
        assertThat(rows.get(3).vsFirstWorkers()).isEqualTo(rows.get(3).medianMs() / rows.get(2).medianMs());
        assertThat(rows.get(3).vsFirst()).isEqualTo(rows.get(3).medianMs() / rows.get(0).medianMs());
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("1 and 2 workers (a runtime of each")
                .contains("PingPong (1 worker)").contains("PingPong (2 workers)").contains("vs 1 worker");

        // one benchmark is enough when it runs on two counts
        assertThat(new Comparison(List.of(new PingPong(500)), 2, 0, 0, List.of(2, 1), 64,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run())
                .extracting(Comparison.Row::workers).containsExactly(2, 1);
        assertThatThrownBy(() -> new Comparison(List.of(new PingPong(10)), 1, 0, 0, List.of(2), 64, System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least two");
        assertThatThrownBy(() -> new Comparison(List.of(new PingPong(10)), 1, 0, 0, List.of(2, 2), 64, System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");

        assertThat(Options.parse(new String[] {"--compare", "PingPong", "--compare-workers", "1,2"})
                .compareWorkers).containsExactly(1, 2);
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare-workers", "1,2"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs --compare");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong", "--compare-workers",
                "1,2", "--workers", "2"})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replaces --workers");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong", "--compare-workers",
                "2,1,2"})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong", "--compare-workers",
                "0,1"})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> Options.parse(new String[] {"--probe-latency", "--compare-workers", "1,2"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not go with --probe-latency");
    }

    @Test
    void aComparisonWritesItsRowsAndEveryRoundToJson(@TempDir Path dir) throws Exception {
        Comparison comparison = new Comparison(List.of(new PingPong(500)), 3, 0, 0, List.of(1, 2), 64,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<Comparison.Row> rows = comparison.run();
        Path file = dir.resolve("compare.json");
        RunInfo run = new RunInfo(RunInfo.now(), RunInfo.now(), "abc1234", List.of("--compare", "PingPong"), Map.of());
        ComparisonReport.writeJson(file, run, Map.of("cpus", 2), comparison.configuration(), rows);

        JsonNode json = ReportMapper.MAPPER.readTree(Files.readString(file));
        assertThat(json.at("/run/commit").asText()).isEqualTo("abc1234");
        assertThat(json.at("/config/worker_counts").toString()).isEqualTo("[1,2]");
        assertThat(json.at("/config/rounds").asInt()).isEqualTo(3);
        JsonNode results = json.get("results");
        assertThat(results).hasSize(2);
        for (int i = 0; i < 2; i++) {
            JsonNode row = results.get(i);
            assertThat(row.get("name").asText()).isEqualTo("PingPong");
            assertThat(row.get("workers").asInt()).isEqualTo(rows.get(i).workers());
            assertThat(row.get("samples_ms")).hasSize(3);
            assertThat(row.get("median_ms").asDouble()).isCloseTo(rows.get(i).medianMs(), within(1e-4));
            assertThat(row.get("vs_first_workers").asDouble()).isCloseTo(rows.get(i).vsFirstWorkers(), within(1e-4));
        }

        // the main run's reports mean nothing to a comparison, and neither does --only: refused, not ignored
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong,Big", "--html", "out"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--html does not go with --compare");
        assertThatThrownBy(() -> Options.parse(new String[] {"--compare", "PingPong,Big", "--only", "Big"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--only does not go with --compare");
        assertThat(Options.parse(new String[] {"--compare", "PingPong,Big", "--json", "x.json"}).json)
                .isEqualTo(Path.of("x.json"));
    }
}

package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.big.Big;
import dev.switchboard.bench.chameneos.Chameneos;
import dev.switchboard.bench.counting.Counting;
import dev.switchboard.bench.fjcreation.ForkJoinCreation;
import dev.switchboard.bench.fjthroughput.ForkJoinThroughput;
import dev.switchboard.bench.fjthroughput.ForkJoinThroughput.SendPattern;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.pingpong.PingPong;
import dev.switchboard.bench.threadring.ThreadRing;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every benchmark, at small sizes, computes the expected checksum on both sides, several times in a row in one
 * runtime (as the harness runs them). Not a timing test.
 */
class BenchmarksVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        return Stream.of(
                new PingPong(2_000),
                PingPong.pairs(8),       // full size: 8 pairs, whose pongs add up one checksum on Pekko's side
                new ThreadRing(10, 5_000),
                new Counting(50_000),
                new ForkJoinThroughput(8, 2_000),
                new ForkJoinCreation(2_000),
                new Chameneos(10, 5_000),
                new Big(12, 500),
                // the mailbox-overhead variants: selectors on the Switchboard side
                new ForkJoinThroughput(8, 2_000, 1),
                new ForkJoinThroughput(8, 2_000, 32),
                new ForkJoinThroughput(8, 2_000, 32, SendPattern.MAILBOX_0),
                new ForkJoinThroughput(8, 2_000, 32, SendPattern.RUNS),
                new Chameneos(10, 5_000, 1),
                new Chameneos(10, 5_000, 32));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theSuiteHasTheSevenMicroBenchmarksWithSavinaDefaults() {
        List<Benchmark> all = Suite.micro();
        assertThat(all).extracting(Benchmark::name).containsExactly("PingPong", "ThreadRing", "Counting",
                "ForkJoinThroughput", "ForkJoinCreation", "Chameneos", "Big");
        assertThat(new PingPong().params()).containsEntry("round_trips", 40_000);
        assertThat(new ThreadRing().params()).containsEntry("actors", 100).containsEntry("hops", 100_000);
        assertThat(new Counting().params()).containsEntry("messages", 1_000_000);
        assertThat(new ForkJoinThroughput().params()).containsEntry("actors", 60)
                .containsEntry("messages_per_actor", 10_000);
        assertThat(new ForkJoinCreation().params()).containsEntry("actors", 40_000);
        assertThat(new Chameneos().params()).containsEntry("chameneos", 100).containsEntry("meetings", 200_000);
        assertThat(new Big().params()).containsEntry("actors", 120).containsEntry("pings_per_actor", 20_000);
    }

    @Test
    void theMailboxOverheadGroupHasSelectorsOfOneToThirtyTwoMailboxes() {
        assertThat(MailboxOverheadBenchmarks.all()).extracting(Benchmark::name).containsExactly(
                "ForkJoinThroughputSelector1", "ForkJoinThroughputSelector8", "ForkJoinThroughputSelector16",
                "ForkJoinThroughputSelector32", "ChameneosSelector1", "ChameneosSelector8", "ChameneosSelector16",
                "ChameneosSelector32");
        assertThat(ForkJoinThroughput.withSelectors(32).params()).containsEntry("actors", 60)
                .containsEntry("messages_per_actor", 10_000).containsEntry("mailboxes", 32)
                .doesNotContainKey("send_pattern");
    }

    @Test
    void theCompareVariantsAreNamedAfterTheirMailboxesAndSendPatternOrTheirSplitOrTheirBaseline() {
        java.util.List<String> txList = new java.util.ArrayList<>();
        for (String w : java.util.List.of("Write", "Mixed")) {
            for (int threads : new int[] {1, 2, 4}) {
                txList.add("TxList-" + w + "-Static" + threads + "-Tx");
                txList.add("TxList-" + w + "-Static" + threads + "-Direct");
            }
        }
        txList.addAll(java.util.List.of("TxList-Read-OneList-Serial", "TxList-Read-OneList-Static-Tx",
                "TxList-Read-OneList-Static-Direct", "TxList-Read-OneList-Dynamic-Tx",
                "TxList-Read-OneList-Dynamic-Direct"));
        for (int percent : new int[] {10, 50}) {
            txList.addAll(java.util.List.of("TxList-Read-OneList-Hot" + percent + "-Serial",
                    "TxList-Read-OneList-Hot" + percent + "-Static-Direct",
                    "TxList-Read-OneList-Hot" + percent + "-Dynamic-Direct"));
        }
        java.util.List<String> expected = new java.util.ArrayList<>(java.util.List.of(
                "ForkJoinThroughputSelector2", "ForkJoinThroughputSelector4", "ForkJoinThroughputSelector2-Mailbox0",
                "ForkJoinThroughputSelector32-Mailbox0", "ForkJoinThroughputSelector32-Runs16"));
        expected.addAll(txList);
        expected.addAll(java.util.List.of("DictMix150K-Actor", "DictMix150K-Mutex"));
        assertThat(Suite.compareVariants()).extracting(Benchmark::name).containsExactlyElementsOf(expected);
        assertThat(Suite.all()).extracting(Benchmark::name).doesNotContain("DictMix150K-Actor")
                .contains("DictMix150K-ReadersWriter");
        assertThat(Suite.all()).extracting(Benchmark::name).doesNotContainAnyElementsOf(txList);
        assertThat(Suite.forCompare("txlist-write-static1-direct").name()).isEqualTo("TxList-Write-Static1-Direct");
        assertThat(Suite.all()).extracting(Benchmark::name).doesNotContain("ForkJoinThroughputSelector32-Mailbox0");
        assertThat(ForkJoinThroughput.withSelectors(32, SendPattern.RUNS).params())
                .containsEntry("mailboxes", 32).containsEntry("send_pattern", "runs");
        assertThat(Suite.forCompare("forkjointhroughputselector32-mailbox0").name())
                .isEqualTo("ForkJoinThroughputSelector32-Mailbox0");
        assertThat(Suite.forCompare("Chameneos").name()).isEqualTo("Chameneos");
        assertThatThrownBy(() -> Suite.forCompare("ForkJoinThroughputSelector3"))
                .hasMessageContaining("unknown benchmark ForkJoinThroughputSelector3 for --compare");
        assertThatThrownBy(() -> new ForkJoinThroughput(8, 100, 0, SendPattern.RUNS))
                .hasMessageContaining("needs selectors");
    }

    @Test
    void eachSendPatternPutsTheMessagesWhereItsNameSays() {
        int boxes = 32;
        int messages = 10_000;
        int[] roundRobin = new int[boxes];
        int[] first = new int[boxes];
        int[] runs = new int[boxes];
        for (int m = 0; m < messages; m++) {
            roundRobin[SendPattern.ROUND_ROBIN.mailbox(m, boxes)]++;
            first[SendPattern.MAILBOX_0.mailbox(m, boxes)]++;
            int box = SendPattern.RUNS.mailbox(m, boxes);
            runs[box]++;
            assertThat(box).isEqualTo(SendPattern.RUNS.mailbox(m - m % 16, boxes));   // the same for a run of 16
            assertThat(SendPattern.ROUND_ROBIN.mailbox(m, boxes)).isEqualTo(m % boxes);
        }
        assertThat(roundRobin).containsOnly(messages / boxes, messages / boxes + 1);
        assertThat(first[0]).isEqualTo(messages);
        assertThat(runs).containsOnly(19 * 16, 20 * 16);            // 625 runs of 16 dealt to 32 mailboxes
        assertThat(SendPattern.RUNS.mailbox(15, boxes)).isEqualTo(0);
        assertThat(SendPattern.RUNS.mailbox(16, boxes)).isEqualTo(1);
        assertThat(SendPattern.RUNS.mailbox(16 * boxes, boxes)).isEqualTo(0);
    }
}

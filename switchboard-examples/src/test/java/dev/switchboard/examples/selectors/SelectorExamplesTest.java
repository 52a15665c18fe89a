package dev.switchboard.examples.selectors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.examples.Example;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs every selector pattern example and checks what it prints. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SelectorExamplesTest {
    static List<String> run(Example e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            e.run(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @RepeatedTest(5)
    void requestReplyProcessesEachJobAfterItsReply() {
        assertThat(run(new RequestReply())).containsExactly(
                "job 5: asking for 5!", "job 5: 5! = 120",
                "job 10: asking for 10!", "job 10: 10! = 3628800",
                "job 15: asking for 15!", "job 15: 15! = 1307674368000");
    }

    @RepeatedTest(10)
    void joinsPairTheSourcesItemsRoundByRound() {
        assertThat(run(new JoinPatterns())).containsExactly(
                "any order:   [6, 12, 18, 24, 30]",
                "round robin: [6, 12, 18, 24, 30]",
                "(round r sums 1r + 2r + 3r = 6r, whatever order the sources' items arrive in)");
    }

    @Test
    void prioritiesServeTheMostUrgentMailboxFirst() {
        List<String> lines = run(new Priorities());
        assertThat(lines.get(1)).isEqualTo("processed in this order: [page the on-call engineer, "
                + "restart the failed node, render the report, answer the customer, index the archive, "
                + "compress old logs]");
    }

    @RepeatedTest(5)
    void readerWriterNeverOverlapsAWriteWithAnything() {
        List<String> lines = run(new ReaderWriter());
        assertThat(lines).hasSize(3);
        for (String policy : List.of("AO", "RF", "WF")) {
            ReaderWriter.Dictionary d = ReaderWriter.run(ReaderWriter.Policy.valueOf(policy));
            assertThat(d.reads.get() + d.writes.get()).isEqualTo(800);
            assertThat(d.violations.get()).as(policy).isZero();
        }
        assertThat(lines).allMatch(l -> l.endsWith("overlapping writes: 0"));
    }

    @RepeatedTest(5)
    void boundedBufferStaysWithinItsCapacity() {
        // How full the buffer gets depends on the schedule; that it never exceeds its capacity does not.
        for (boolean declarative : new boolean[] {false, true}) {
            long[] fillAndSum = BoundedBuffer.run(declarative);
            assertThat(fillAndSum[0]).as("largest fill, declarative=%s", declarative).isBetween(1L, 5L);
            assertThat(fillAndSum[1]).as("sum received, declarative=%s", declarative).isEqualTo(44850L);
        }
        assertThat(run(new BoundedBuffer()))
                .hasSize(2)
                .allMatch(l -> l.matches(".* buffer \\(capacity 5\\): fill never above [1-5]; consumers received "
                        + "items summing to 44850 \\(expected 44850\\)"));
    }
}

package dev.switchboard.bench;

import dev.switchboard.bench.chameneos.Chameneos;
import dev.switchboard.bench.fjthroughput.ForkJoinThroughput;
import dev.switchboard.bench.fjthroughput.ForkJoinThroughput.SendPattern;
import dev.switchboard.bench.harness.Benchmark;
import java.util.ArrayList;
import java.util.List;

/**
 * The mailbox-overhead experiments of [Selectors] §2.1.2–2.1.3: ForkJoin throughput and Chameneos with selectors of
 * 1, 8, 16 and 32 mailboxes on the Switchboard side (the Pekko side is the plain actor). Compared with the plain
 * actor runs of the same benchmarks ({@code ForkJoinThroughput}, {@code Chameneos}) they give the cost of the
 * selector's mailboxes.
 */
final class MailboxOverheadBenchmarks {
    static final int[] MAILBOXES = {1, 8, 16, 32};

    private MailboxOverheadBenchmarks() {
    }

    static List<Benchmark> all() {
        List<Benchmark> all = new ArrayList<>();
        for (int k : MAILBOXES) {
            all.add(ForkJoinThroughput.withSelectors(k));
        }
        for (int k : MAILBOXES) {
            all.add(Chameneos.withSelectorMall(k));
        }
        return all;
    }

    /**
     * Variants for {@code --compare} only, which take the ForkJoinThroughput overhead apart: fewer mailboxes
     * (2 and 4 are polled directly, without the ready bitmap), every message in mailbox 0 (what having the
     * mailboxes costs), and runs of messages per mailbox (how much of the rest is the spreading): for example
     * {@code --compare} of ForkJoinThroughput, ForkJoinThroughputSelector32-Mailbox0,
     * ForkJoinThroughputSelector32-Runs16 and ForkJoinThroughputSelector32.
     */
    static List<Benchmark> compareVariants() {
        return List.of(
                ForkJoinThroughput.withSelectors(2),
                ForkJoinThroughput.withSelectors(4),
                ForkJoinThroughput.withSelectors(2, SendPattern.MAILBOX_0),
                ForkJoinThroughput.withSelectors(32, SendPattern.MAILBOX_0),
                ForkJoinThroughput.withSelectors(32, SendPattern.RUNS));
    }
}

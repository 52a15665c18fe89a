package dev.switchboard.bench;

import dev.switchboard.bench.banktransaction.BankTransaction;
import dev.switchboard.bench.boundedbuffer.BoundedBufferDeclarative;
import dev.switchboard.bench.boundedbuffer.BoundedBufferImperative;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.logisticmap.LogisticMap;
import java.util.List;

/** The selector benchmarks of this group, in report order (see {@link Suite}). */
final class RequestReplyBenchmarks {
    private RequestReplyBenchmarks() {
    }

    /**
     * Synchronous request-reply ([Selectors] §3.1: LogisticMap, BankTransaction) and the producer-consumer bounded
     * buffer (§7), whose manager waits on guarded mailboxes instead of queues of waiting actors.
     */
    static List<Benchmark> all() {
        return List.of(
                new LogisticMap(),
                new BankTransaction(),
                new BoundedBufferImperative(),
                new BoundedBufferDeclarative());
    }
}

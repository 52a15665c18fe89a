package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.txlist.TxList;
import dev.switchboard.bench.txlist.TxList.Split;
import dev.switchboard.bench.txlist.TxList.SumRead;
import dev.switchboard.bench.txlist.TxList.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * The list benchmark of paper 004 §5.1 ({@link TxList}): per workload (write-dominated, mixed, read-dominated)
 * the serial list actor and the transactional ones, static 90:10 and dynamic split, each with the sum as a
 * transactional, an unrecorded and a direct read; the Pekko side of every one is the serial list actor.
 */
final class TxListBenchmarks {
    private TxListBenchmarks() {
    }

    static List<Benchmark> all() {
        List<Benchmark> all = new ArrayList<>();
        for (Workload w : Workload.values()) {
            all.add(new TxList(w, Split.SERIAL, null));
            for (Split split : new Split[] {Split.STATIC, Split.DYNAMIC}) {
                for (SumRead read : SumRead.values()) {
                    all.add(new TxList(w, split, read));
                }
            }
        }
        return all;
    }
}

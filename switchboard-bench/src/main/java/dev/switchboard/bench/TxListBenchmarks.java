package dev.switchboard.bench;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.txlist.TxList;
import dev.switchboard.bench.txlist.TxList.Split;
import dev.switchboard.bench.txlist.TxList.SumRead;
import dev.switchboard.bench.txlist.TxList.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * The list benchmark of [TxActors] §5.1 ({@link TxList}): per workload (write-dominated, mixed, read-dominated)
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

    /**
     * For {@code --compare}: the write-dominated and mixed workloads with the static split at 1, 2 and 4 of the 8
     * threads for transactional messages, the sum a transactional or a direct read. With the paper's 7 (the main
     * variants) they show the best fixed split, which bounds what the dynamic split can gain over 90:10. And the
     * read-dominated workload on one list actor ({@link TxList#oneList}): serial, and static and dynamic splits
     * with the sum a transactional or a direct read; and the same with 10 % and 50 % of the requests also
     * incrementing one of 2 hot keys ({@link TxList#oneListHot}, the conflict setting).
     */
    /** The conflict setting's hot keys per list actor, and the shares of requests that increment one. */
    static final int HOT_KEYS = 2;
    static final int[] HOT_PERCENTS = {10, 50};

    static List<Benchmark> compareVariants() {
        List<Benchmark> variants = new ArrayList<>();
        for (Workload w : new Workload[] {Workload.WRITE, Workload.MIXED}) {
            for (int threads : new int[] {1, 2, 4}) {
                for (SumRead read : new SumRead[] {SumRead.TX, SumRead.DIRECT}) {
                    variants.add(TxList.staticSplit(w, threads, read));
                }
            }
        }
        variants.add(TxList.oneList(Workload.READ, Split.SERIAL, null));
        for (Split split : new Split[] {Split.STATIC, Split.DYNAMIC}) {
            for (SumRead read : new SumRead[] {SumRead.TX, SumRead.DIRECT}) {
                variants.add(TxList.oneList(Workload.READ, split, read));
            }
        }
        for (int percent : HOT_PERCENTS) {
            variants.add(TxList.oneListHot(Workload.READ, Split.SERIAL, null, HOT_KEYS, percent));
            variants.add(TxList.oneListHot(Workload.READ, Split.STATIC, SumRead.DIRECT, HOT_KEYS, percent));
            variants.add(TxList.oneListHot(Workload.READ, Split.DYNAMIC, SumRead.DIRECT, HOT_KEYS, percent));
        }
        return variants;
    }
}

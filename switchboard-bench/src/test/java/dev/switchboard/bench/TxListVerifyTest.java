package dev.switchboard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.txlist.TxList;
import dev.switchboard.bench.txlist.TxList.Split;
import dev.switchboard.bench.txlist.TxList.SumRead;
import dev.switchboard.bench.txlist.TxList.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The list benchmark of [TxActors] ({@link TxList}), every variant of every workload, at small sizes, computes the
 * expected checksum on both sides, several times in a row in one runtime: the final lists are sorted, within
 * each list actor's range, as long as the requesters' successful inserts and removes say, and hold exactly the
 * expected values; every answer to a lookup, insert and remove is the expected one. Not a timing test.
 */
class TxListVerifyTest extends BothSides {

    static Stream<Benchmark> small() {
        List<Benchmark> all = new ArrayList<>();
        for (Workload w : Workload.values()) {
            all.add(new TxList(w, Split.SERIAL, null, 4, 64, 8, 200));
            for (Split split : new Split[] {Split.STATIC, Split.DYNAMIC}) {
                for (SumRead read : SumRead.values()) {
                    all.add(new TxList(w, split, read, 4, 64, 8, 200));
                }
            }
        }
        // a short list and many requesters: most transactions touch the same few nodes
        for (SumRead read : SumRead.values()) {
            all.add(new TxList(Workload.WRITE, Split.STATIC, read, 2, 24, 12, 300));
            all.add(new TxList(Workload.WRITE, Split.DYNAMIC, read, 2, 24, 12, 300));
        }
        all.add(new TxList(Workload.WRITE, Split.SERIAL, null, 2, 24, 12, 300));
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("small")
    void bothSidesComputeTheExpectedChecksum(Benchmark b) throws Exception {
        verifyRepeatedly(b);
    }

    @Test
    void theGroupHasEveryVariantOfEveryWorkload() {
        List<String> expected = new ArrayList<>();
        for (String w : List.of("Write", "Mixed", "Read")) {
            expected.add("TxList-" + w + "-Serial");
            for (String split : List.of("Static", "Dynamic")) {
                for (String read : List.of("Tx", "Relaxed", "Direct")) {
                    expected.add("TxList-" + w + "-" + split + "-" + read);
                }
            }
        }
        assertThat(TxListBenchmarks.all()).extracting(Benchmark::name).containsExactlyElementsOf(expected);
        assertThat(Suite.all()).extracting(Benchmark::name).containsAll(expected);
    }

    @Test
    void theParametersAreTheScaledDownPapersAndNameTheThreads() {
        TxList b = new TxList(Workload.WRITE, Split.DYNAMIC, SumRead.DIRECT);
        assertThat(b.params()).containsEntry("list_actors", 8).containsEntry("values_per_list", 1_024)
                .containsEntry("requesters", 128).containsEntry("requests_per_requester", 1_000)
                .containsEntry("modify_percent", 98).containsEntry("lookup_percent", 1)
                .containsEntry("sum_percent", 1).containsEntry("threads_per_list_actor", TxList.THREADS);
        assertThat(b.description()).contains(TxList.THREADS + " threads").contains("dynamic split");
        assertThat(new TxList(Workload.MIXED, Split.STATIC, SumRead.TX).params())
                .containsEntry("modify_percent", 50).containsEntry("lookup_percent", 49);
        assertThat(new TxList(Workload.READ, Split.SERIAL, null).params())
                .containsEntry("modify_percent", 2).containsEntry("lookup_percent", 97)
                .doesNotContainKey("threads_per_list_actor");
    }
}

package dev.switchboard.bench;

import dev.switchboard.bench.concdict.ConcurrentDictionary;
import dev.switchboard.bench.concsll.SortedLinkedList;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import java.util.List;

/** The selector benchmarks of this group, in report order (see {@link Suite}). */
final class ReaderWriterBenchmarks {
    private ReaderWriterBenchmarks() {
    }

    static List<Benchmark> all() {
        return List.of(
                new ConcurrentDictionary(Policy.AO),
                new ConcurrentDictionary(Policy.RF),
                new ConcurrentDictionary(Policy.WF),
                new SortedLinkedList(Policy.AO),
                new SortedLinkedList(Policy.RF),
                new SortedLinkedList(Policy.WF));
    }
}

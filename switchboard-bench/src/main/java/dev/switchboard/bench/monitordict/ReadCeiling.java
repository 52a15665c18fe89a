package dev.switchboard.bench.monitordict;

import dev.switchboard.bench.harness.Rounds;
import dev.switchboard.bench.monitordict.MonitorDictionary.Variant;
import dev.switchboard.task.TaskRuntime;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The ceiling of the {@code DictRead} benchmarks' parallel reads on this machine: the same reads of the same
 * association list, on one plain thread and split between two, beside the Switchboard dictionary as a plain actor
 * and under the readers-writer monitor, in one JVM, the four taking turns round after round. What two threads
 * that share nothing but the list gain over one is what any runtime could gain on this machine; the monitor is
 * measured against that, not against 2.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.monitordict.ReadCeiling [ENTRIES (150000)] [ROUNDS (40)]
 * </pre>
 */
public final class ReadCeiling {
    /** Median milliseconds of a run's reads, over the measured rounds (the second half of them). */
    record Result(double actorMs, double monitorMs, double oneThreadMs, double twoThreadsMs) {
        /** What two plain threads gain over one. */
        double ceiling() {
            return oneThreadMs / twoThreadsMs;
        }

        /** What the monitor gains over the plain actor. */
        double monitorGain() {
            return actorMs / monitorMs;
        }
    }

    private ReadCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int entries = args.length > 0 ? Rounds.positive(args[0], "ENTRIES") : 150_000;
        int rounds = args.length > 1 ? Rounds.positive(args[1], "ROUNDS") : 40;
        Result r = measure(new Workload(entries, 4_000, 0), rounds);
        System.out.printf(Locale.ROOT, "%,d entries, 4,000 reads a run, median of %d rounds (ms):%n", entries,
                rounds - rounds / 2);
        System.out.printf(Locale.ROOT, "  one thread %.2f, two threads %.2f: the ceiling %.2f%n", r.oneThreadMs(),
                r.twoThreadsMs(), r.ceiling());
        System.out.printf(Locale.ROOT, "  plain actor %.2f, readers-writer monitor %.2f: the monitor's gain %.2f%n",
                r.actorMs(), r.monitorMs(), r.monitorGain());
        System.out.printf(Locale.ROOT, "  the monitor's time over two threads' %.3f; the plain actor's over one thread's"
                + " %.3f%n", r.monitorMs() / r.twoThreadsMs(), r.actorMs() / r.oneThreadMs());
    }


    /** Runs the four, {@code rounds} times each in turn on a runtime of two workers; checks every checksum. */
    static Result measure(Workload workload, int rounds) throws Exception {
        long[] ops = workload.ops();
        AssociationList list = new AssociationList(workload.size());
        long expected = workload.expected();
        long[][] times;
        try (TaskRuntime runtime = TaskRuntime.create(2); ExecutorService two = Executors.newFixedThreadPool(2)) {
            Rounds.Run[] runs = {
                () -> SwitchboardDictionary.run(runtime, workload, Variant.ACTOR),
                () -> SwitchboardDictionary.run(runtime, workload, Variant.READERS_WRITER),
                () -> scan(list, ops, 0, 1),
                () -> {
                    Future<Long> even = two.submit(() -> scan(list, ops, 0, 2));
                    Future<Long> odd = two.submit(() -> scan(list, ops, 1, 2));
                    return even.get() + odd.get();
                },
            };
            times = Rounds.takeTurns("the reads", runs, rounds, expected, () -> { });
        }
        return new Result(Rounds.medianOfSecondHalfMs(times[0]), Rounds.medianOfSecondHalfMs(times[1]),
                Rounds.medianOfSecondHalfMs(times[2]), Rounds.medianOfSecondHalfMs(times[3]));
    }

    private static long scan(AssociationList list, long[] ops, int from, int step) {
        long sum = 0;
        for (int i = from; i < ops.length; i += step) {
            sum += list.get((int) ops[i]);
        }
        return sum;
    }

}

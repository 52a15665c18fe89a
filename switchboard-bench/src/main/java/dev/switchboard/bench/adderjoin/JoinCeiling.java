package dev.switchboard.bench.adderjoin;

import dev.switchboard.bench.harness.Rounds;
import dev.switchboard.task.TaskRuntime;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * What a second core can give the adder join on this machine: the join's numbers passed from a producing thread to
 * a joining thread with the cheapest hand-over there is, against the same work on one thread, beside Switchboard's
 * join on one worker and on two, in one JVM, the five taking turns round after round.
 *
 * <p>The join's driver sends all its numbers in one turn, and the adder's work per number is an addition. On one
 * worker a runtime runs the driver's turn and then the adder's ({@link #oneThread}: every number made, then every
 * round joined). On two, a runtime that runs the adder beside the driver passes every number between the cores;
 * {@link #twoThreads} does that with nothing a runtime adds: one array per source, preallocated for the whole run,
 * the complete rounds' count published with a release store and read with an acquire load, the joining thread
 * spinning while it waits. Published after every round, a number crosses the cores about as soon as a mailbox
 * would pass it; published every {@value #LARGE_BATCH} rounds, the hand-over costs only the items themselves. The
 * batched time over the one thread's is the least any split of this program over two cores pays: where it is
 * above the 1.03, two workers cannot match one by running the adder beside the driver.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.adderjoin.JoinCeiling [SOURCES (8)] [ROUNDS (30)]
 * </pre>
 */
public final class JoinCeiling {
    private static final VarHandle PUBLISHED = MethodHandles.arrayElementVarHandle(long[].class);
    /** The published count's index in its array, with a cache line of padding either side (two, for prefetch). */
    private static final int COUNT = 16;
    private static final int PADDED = 2 * COUNT + 1;
    /** Rounds per publication of the batched two-thread join. */
    static final int LARGE_BATCH = 4_096;

    /** Median milliseconds of a run of each side, over the measured rounds (the second half of them). */
    record Result(double oneThreadMs, double twoThreadsMs, double twoThreadsBatchedMs, double oneWorkerMs,
            double twoWorkersMs) {
        /** Two threads' time, each round published, over one thread's. */
        double threadsRatio() {
            return twoThreadsMs / oneThreadMs;
        }

        /** Two threads' time, rounds published in large batches, over one thread's: the least a second core costs. */
        double batchedRatio() {
            return twoThreadsBatchedMs / oneThreadMs;
        }

        /** Switchboard's two workers' time over its one worker's. */
        double workersRatio() {
            return twoWorkersMs / oneWorkerMs;
        }
    }

    private JoinCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int sources = args.length > 0 ? Rounds.positive(args[0], "SOURCES") : 8;
        int rounds = args.length > 1 ? Rounds.positive(args[1], "ROUNDS") : 30;
        Result r = measure(sources, AdderJoin.DEFAULT_NUMBERS / sources, rounds);
        System.out.printf(Locale.ROOT, "AdderJoin%d, %,d numbers; median of the last %d of %d rounds, ms%n", sources,
                (long) sources * (AdderJoin.DEFAULT_NUMBERS / sources), rounds - rounds / 2, rounds);
        System.out.printf(Locale.ROOT, "one thread %.2f; two threads, each round published %.2f (%.2f of one),"
                + " every %,d rounds %.2f (%.2f of one)%n", r.oneThreadMs(), r.twoThreadsMs(), r.threadsRatio(),
                LARGE_BATCH, r.twoThreadsBatchedMs(), r.batchedRatio());
        System.out.printf(Locale.ROOT, "Switchboard: one worker %.2f, two workers %.2f (%.2f of one)%n",
                r.oneWorkerMs(), r.twoWorkersMs(), r.workersRatio());
    }

    /** Runs the five sides {@code turns} times each, taking turns, checking every sum. */
    static Result measure(int sources, int rounds, int turns) throws Exception {
        long expected = new AdderJoin(sources, rounds, false).expected();
        try (TaskRuntime one = TaskRuntime.builder().name("join-1").workers(1).build();
                TaskRuntime two = TaskRuntime.builder().name("join-2").workers(2).build()) {
            Rounds.Run[] runs = {
                () -> oneThread(sources, rounds),
                () -> twoThreads(sources, rounds, 1),
                () -> twoThreads(sources, rounds, LARGE_BATCH),
                () -> SwitchboardAdderJoin.run(one, sources, rounds, false),
                () -> SwitchboardAdderJoin.run(two, sources, rounds, false)
            };
            long[][] times = Rounds.takeTurns("AdderJoin" + sources, runs, turns, expected, () -> { });
            return new Result(Rounds.medianOfSecondHalfMs(times[0]), Rounds.medianOfSecondHalfMs(times[1]),
                    Rounds.medianOfSecondHalfMs(times[2]), Rounds.medianOfSecondHalfMs(times[3]),
                    Rounds.medianOfSecondHalfMs(times[4]));
        }
    }

    /**
     * The join as one worker runs it: the driver's numbers, each a new item as the driver sends it, queued per
     * source, then joined round by round. Returns the sum of the rounds.
     */
    static long oneThread(int sources, int rounds) {
        SwitchboardAdderJoin.Item[][] queues = new SwitchboardAdderJoin.Item[sources][rounds];   // one per round
        AdderJoin.generate(sources, rounds,
                (source, round, value) -> queues[source][round] = new SwitchboardAdderJoin.Item(value));
        long total = 0;
        for (int round = 0; round < rounds; round++) {
            long sum = 0;
            for (int s = 0; s < sources; s++) {
                sum += queues[s][round].value();
            }
            total += sum;
        }
        return total;
    }

    /**
     * The join on two threads: this one drives, a second joins the rounds as they are published. The driver
     * publishes how many rounds are complete after every {@code batch} rounds (and after the last): with a batch of
     * one round a number crosses the cores about as soon as a mailbox would pass it; with a large batch the
     * hand-over costs only the items themselves, the least any split of this program over two cores can pay.
     * Returns the sum of the rounds.
     */
    static long twoThreads(int sources, int rounds, int batch) throws InterruptedException {
        SwitchboardAdderJoin.Item[][] queues = new SwitchboardAdderJoin.Item[sources][rounds];
        long[] published = new long[PADDED];                  // [COUNT]: rounds complete, alone on its cache lines
        long[] total = new long[1];
        Thread joiner = new Thread(() -> {
            long seen = 0;                                    // the joiner's last look at the count
            long sumOfRounds = 0;
            for (int round = 0; round < rounds; round++) {
                while (seen <= round) {
                    // acquire: the rounds' items, stored before the count's release below, are visible with it
                    seen = (long) PUBLISHED.getAcquire(published, COUNT);
                    if (seen <= round) {
                        Thread.onSpinWait();
                    }
                }
                long sum = 0;
                for (int s = 0; s < sources; s++) {
                    sum += queues[s][round].value();
                }
                sumOfRounds += sum;
            }
            total[0] = sumOfRounds;
        }, "join-ceiling-joiner");
        joiner.start();
        int[] inRound = {0};
        AdderJoin.generate(sources, rounds, (source, round, value) -> {
            queues[source][round] = new SwitchboardAdderJoin.Item(value);
            if (++inRound[0] == sources) {                    // the round is complete
                inRound[0] = 0;
                if ((round + 1) % batch == 0 || round + 1 == rounds) {
                    PUBLISHED.setRelease(published, COUNT, (long) round + 1);   // release: publishes the items
                }
            }
        });
        joiner.join();                                        // join: total[0] is visible here
        return total[0];
    }
}

package dev.switchboard.bench.adderjoin;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.pekko.actor.ActorSystem;

/**
 * The Adder-Join microbenchmark of [Selectors] (§4.1, Fig. 13; the join pattern of Fig. 10 and 11): one driver
 * fills the inputs of an adder that joins one number from each of {@code sources} sources per round and forwards
 * the round's sum to a sink. Per round, the driver sends one number per source in a random (seeded) order.
 *
 * <p>On Switchboard the adder is a selector with one mailbox per source; the driver names the source's mailbox.
 * The any-order adder disables the mailbox it just took a number from and enables all of them when the round is
 * complete (Fig. 11 top); the round-robin adder enables only the next source's mailbox (Fig. 11 bottom). On
 * Pekko the messages carry the source and the round (sequence number), and the adder keeps a dictionary from
 * sequence number to the round's partial sum and count, as the paper describes for actors. Both variants share
 * the Pekko implementation.
 *
 * <p>The paper adds 24 million numbers; the default here is {@value #DEFAULT_NUMBERS} (scaled down so that a
 * Pekko run takes about a second on two cores), divisible by 4, 8, 12 and 36.
 */
public final class AdderJoin implements Benchmark {
    /** Numbers added per run by default: 15% of the paper's 24 million, a multiple of 4, 8, 12 and 36. */
    public static final int DEFAULT_NUMBERS = 3_600_000;

    static final long SEED = 0x5eed_ad1e_2L;
    static final int MAX_VALUE = 1_000;

    private final int sources;
    private final int rounds;
    private final boolean roundRobin;
    private long expected = -1;

    /**
     * @param sources    k, the number of joined streams (mailboxes of the adder)
     * @param rounds     rounds of the join; {@code sources * rounds} numbers are added
     * @param roundRobin whether the Switchboard adder takes the sources in round-robin order (else any order)
     */
    public AdderJoin(int sources, int rounds, boolean roundRobin) {
        if (sources < 1 || rounds < 1) {
            throw new IllegalArgumentException("sources and rounds must be positive: " + sources + ", " + rounds);
        }
        this.sources = sources;
        this.rounds = rounds;
        this.roundRobin = roundRobin;
    }

    /** {@value #DEFAULT_NUMBERS} numbers from {@code sources} sources. */
    public AdderJoin(int sources, boolean roundRobin) {
        this(sources, DEFAULT_NUMBERS / sources, roundRobin);
    }

    /** The 8-way join in any order, with the default numbers. */
    public AdderJoin() {
        this(8, false);
    }

    @Override
    public String name() {
        return (roundRobin ? "AdderJoinRR" : "AdderJoin") + sources;
    }

    @Override
    public String description() {
        return sources + "-way join of numbers into an adder, " + (roundRobin ? "round-robin" : "any-order")
                + " selector vs a dictionary keyed by sequence number ([Selectors] Fig. 13, 24M numbers scaled to "
                + (long) sources * rounds + ")";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("sources", sources);
        p.put("rounds", rounds);
        p.put("numbers", (long) sources * rounds);
        p.put("order", roundRobin ? "round-robin" : "any");
        return p;
    }

    /** The sum of every number the driver sends (= the sum of the round sums), replayed sequentially. */
    @Override
    public synchronized long expected() {
        if (expected < 0) {
            long[] total = {0};
            generate(sources, rounds, (source, round, value) -> total[0] += value);
            expected = total[0];
        }
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardAdderJoin.run(runtime, sources, rounds, roundRobin);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoAdderJoin.run(system, sources, rounds);
    }

    /** Where the generator puts a number. */
    @FunctionalInterface
    interface Emitter {
        void item(int source, int round, int value);
    }

    /**
     * The driver's sequence, the same on both sides: per round a fresh (seeded) permutation of the sources, and
     * one number below {@value #MAX_VALUE} for each, in that order.
     */
    static void generate(int sources, int rounds, Emitter out) {
        SplittableRandom random = new SplittableRandom(SEED);
        int[] order = new int[sources];
        for (int i = 0; i < sources; i++) {
            order[i] = i;
        }
        for (int round = 0; round < rounds; round++) {
            for (int i = sources - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int i = 0; i < sources; i++) {
                out.item(order[i], round, random.nextInt(MAX_VALUE));
            }
        }
    }
}

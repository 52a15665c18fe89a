package dev.switchboard.bench.filterbank;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina FilterBank (from StreamIt), the split-join benchmark of [Selectors] §4.1 (Fig. 12): a producer and a
 * source feed a splitter that copies every value to {@code channels} branches; each branch is a pipeline of
 * actors (delay, FIR filter, down/up-sampler, delay, FIR filter, tagger), and a join stage adds the
 * corresponding items of all branches and sends the sum to a sink.
 *
 * <p>Only the join differs between the two sides. On Switchboard it is a selector with one mailbox per branch,
 * which takes one item per branch per round: {@code FilterBankAnyOrder} disables a branch's mailbox once it has
 * the branch's item and enables all of them when the round is complete; {@code FilterBankRoundRobin} enables only
 * the next branch's mailbox in turn (Fig. 11). On Pekko the tagger labels each item with its branch and sequence
 * number and the join keeps a dictionary from sequence number to partial sum and count, as the paper describes
 * for actors. Every other stage is the same algorithm on both sides ({@link Stages}).
 *
 * <p>Savina's parameters are 34,816 simulations, 8 channels and 16,384 columns. The FIR filters do
 * {@code columns} multiply-adds per item, so with 16,384 columns the run is pure arithmetic (billions of
 * multiply-adds) and measures nothing about the join; this benchmark keeps 34,816 simulations and the 8-way join
 * and scales the columns (FIR length, delay length and sampling rate) down to {@value #DEFAULT_COLUMNS}.
 */
public final class FilterBank implements Benchmark {
    public static final int DEFAULT_SIMULATIONS = 4 * 34_816;
    public static final int DEFAULT_CHANNELS = 8;
    public static final int DEFAULT_COLUMNS = 64;

    private final int simulations;
    private final int channels;
    private final int columns;
    private final boolean roundRobin;
    private long expected;
    private boolean expectedKnown;

    public FilterBank(int simulations, int channels, int columns, boolean roundRobin) {
        if (channels < 1 || columns < 2 || simulations < 2 * columns) {
            throw new IllegalArgumentException("need channels >= 1, columns >= 2 and simulations >= 2 * columns: "
                    + simulations + ", " + channels + ", " + columns);
        }
        Stages.requireExactArithmetic(channels, columns);
        this.simulations = simulations;
        this.channels = channels;
        this.columns = columns;
        this.roundRobin = roundRobin;
    }

    /** The default parameters with the given join variant. */
    public FilterBank(boolean roundRobin) {
        this(DEFAULT_SIMULATIONS, DEFAULT_CHANNELS, DEFAULT_COLUMNS, roundRobin);
    }

    /** The default parameters, any-order join. */
    public FilterBank() {
        this(false);
    }

    @Override
    public String name() {
        return roundRobin ? "FilterBankRoundRobin" : "FilterBankAnyOrder";
    }

    @Override
    public String description() {
        return "split-join of " + channels + " filter pipelines, " + (roundRobin ? "round-robin" : "any-order")
                + " selector join vs a dictionary keyed by sequence number (Savina filterbank, [Selectors] Fig. 12;"
                + " columns scaled from 16,384 to " + columns + ")";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("simulations", simulations);
        p.put("channels", channels);
        p.put("columns", columns);
        p.put("join", roundRobin ? "round-robin" : "any");
        return p;
    }

    /** The sink's checksum, computed by running the same stages sequentially (once, then remembered). */
    @Override
    public synchronized long expected() {
        if (!expectedKnown) {
            expected = Stages.reference(simulations, channels, columns);
            expectedKnown = true;
        }
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardFilterBank.run(runtime, simulations, channels, columns, roundRobin);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoFilterBank.run(system, simulations, channels, columns);
    }
}

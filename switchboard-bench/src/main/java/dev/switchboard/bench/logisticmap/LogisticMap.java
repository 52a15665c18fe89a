package dev.switchboard.bench.logisticmap;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina LogisticMap ({@code logmap}), [Selectors] §3.1: the synchronous request-reply pattern. A master floods
 * {@code numSeries} term actors with {@code numTerms} "next term" requests each; to compute
 * x<sub>n+1</sub> = r·x<sub>n</sub>·(1−x<sub>n</sub>) a term actor must ask its rate actor and process nothing
 * else until the answer is back. On Switchboard the term actor is a selector that disables its REGULAR mailbox
 * while it waits and takes the answer from its REPLY mailbox (paper Fig. 7); on Pekko it stashes every other
 * message while it waits and unstashes them all afterwards ({@code AbstractActorWithStash}, become/unbecome).
 *
 * <p>Because the master sends all requests up front, the answer a Pekko term actor waits for is queued behind
 * the requests still pending, which it must stash and unstash once per term: the cost the paper attributes to
 * stash-based synchronous replies. It grows with the square of the terms per series, so the default scales
 * Savina's 25,000 terms down (see {@link #LogisticMap()}).
 */
public final class LogisticMap implements Benchmark {
    /** Savina's start rate r of series 0, and the step between the rates (and start terms) of the series. */
    static final double START_RATE = 3.46;
    static final double INCREMENT = 0.0025;

    private final int numTerms;
    private final int numSeries;

    public LogisticMap(int numTerms, int numSeries) {
        if (numTerms < 1 || numSeries < 1) {
            throw new IllegalArgumentException("numTerms and numSeries must be positive");
        }
        this.numTerms = numTerms;
        this.numSeries = numSeries;
    }

    /**
     * Savina's 10 series, start rate 3.46 and increment 0.0025, with 2,500 terms per series instead of 25,000:
     * the Pekko side's stash traffic is quadratic in the terms, and 25,000 would take minutes per run.
     */
    public LogisticMap() {
        this(2_500, 10);
    }

    @Override
    public String name() {
        return "LogisticMap";
    }

    @Override
    public String description() {
        return "term actors need a synchronous reply from a rate actor per term; selector REPLY mailbox vs Pekko"
                + " Stash (Savina logmap, [Selectors] §3.1; terms scaled 25,000 -> 2,500)";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("terms", numTerms);
        p.put("series", numSeries);
        p.put("start_rate", START_RATE);
        p.put("increment", INCREMENT);
        return p;
    }

    @Override
    public long expected() {
        long sum = 0;
        for (int i = 0; i < numSeries; i++) {
            double rate = rate(i);
            double x = startTerm(i);
            for (int n = 0; n < numTerms; n++) {
                x = nextTerm(x, rate);
            }
            sum += fingerprint(x);
        }
        return sum;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardLogisticMap.run(runtime, numTerms, numSeries);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoLogisticMap.run(system, numTerms, numSeries);
    }

    static double rate(int series) {
        return START_RATE + series * INCREMENT;
    }

    static double startTerm(int series) {
        return series * INCREMENT;
    }

    static double nextTerm(double x, double rate) {
        return rate * x * (1 - x);
    }

    /** A series' final term as an integer, so that the master's sum does not depend on the order of arrival. */
    static long fingerprint(double x) {
        return (long) Math.floor(x * 1e12);
    }
}

package dev.switchboard.bench.harness;

import java.util.Arrays;

/**
 * What the ceiling tools share ({@code ReadCeiling}, {@code ServerCeiling}, {@code LoopCeiling},
 * {@code FinishCeiling}): runs that take turns round after round in one JVM, each checked, the median of their rounds
 * (the first half of which warms up), and their arguments' checks.
 */
public final class Rounds {
    /** One of the runs that take turns: it returns its checksum. */
    public interface Run {
        long run() throws Exception;
    }

    private Rounds() {
    }

    /**
     * Runs each of {@code runs} once a round for {@code rounds} rounds, each taking every place in the order in turn,
     * and calls {@code afterRound} after each round; returns the nanoseconds of every run, by run and round.
     *
     * @throws IllegalStateException naming {@code what}, the run and the round, when a run's checksum is not
     *         {@code expected}
     */
    public static long[][] takeTurns(String what, Run[] runs, int rounds, long expected, Runnable afterRound)
            throws Exception {
        long[][] times = new long[runs.length][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < runs.length; k++) {
                int which = (k + round) % runs.length;
                long start = System.nanoTime();
                long sum = runs[which].run();
                times[which][round] = System.nanoTime() - start;
                if (sum != expected) {
                    throw new IllegalStateException(what + ": run " + which + " of round " + round + " summed " + sum
                            + ", expected " + expected);
                }
            }
            afterRound.run();
        }
        return times;
    }

    /** The median of the second half of {@code nanos} (the first half warms up), in milliseconds. */
    public static double medianOfSecondHalfMs(long[] nanos) {
        long[] measured = Arrays.copyOfRange(nanos, nanos.length / 2, nanos.length);
        Arrays.sort(measured);
        return measured[measured.length / 2] / 1e6;
    }

    /**
     * {@code arg} as a positive number.
     *
     * @throws IllegalArgumentException naming {@code what} and the argument, if it is not one
     */
    public static int positive(String arg, String what) {
        try {
            int n = Integer.parseInt(arg);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // named below
        }
        throw new IllegalArgumentException(what + " must be a positive number, got '" + arg + "'");
    }
}

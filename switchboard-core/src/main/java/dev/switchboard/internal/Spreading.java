package dev.switchboard.internal;

/**
 * The runtime-wide part of the workers' spreading rule ({@link SpreadRule}): whether
 * short turns are spread at all ({@link SpreadingTrials}, decided by the watchdog) and whether the chains that
 * spread activations start pay for the move. Owns the trials and the moving average of spread chains. May touch
 * nothing else: the workers ask it, the thieves of spread activations ({@link Node.Spread}) and the watchdog tell it.
 */
final class Spreading {
    /** Chains of fewer turns than this, on average, do not pay for the spreading that started them. */
    static final int SPREAD_CHAIN_TURNS = 3;

    /** Whether short turns are spread at all, decided by the watchdog ({@link SpreadingTrials}). */
    private final SpreadingTrials trials = new SpreadingTrials();
    /**
     * How many turns a chain that starts with a spread activation runs on the worker that took it: a moving
     * average (weight 1/8) in eighths of a turn, written by the thieves without synchronisation (a hint; a lost
     * update only delays it). Starts at {@link #SPREAD_CHAIN_TURNS}, so spreading is tried.
     */
    private int spreadChainEighths = 8 * SPREAD_CHAIN_TURNS;

    /** A chain started by a spread activation ran {@code turns} turns on the worker that stole it. */
    void spreadChainEnded(int turns) {
        int e = spreadChainEighths;
        spreadChainEighths = e + ((Math.min(turns, 64) * 8 - e) >> 3);
    }

    /** Whether chains started by spread activations get far enough on their new worker to pay for the move. */
    boolean spreadingPays() {
        return spreadChainEighths >= 8 * SPREAD_CHAIN_TURNS;
    }

    /** The trials that decide whether short turns are spread. */
    SpreadingTrials trials() {
        return trials;
    }

    /** Whether short turns stay on their worker now instead of going to idle workers ({@link SpreadingTrials}). */
    boolean holdsShortTurns() {
        return trials.holdsShortTurns();
    }
}

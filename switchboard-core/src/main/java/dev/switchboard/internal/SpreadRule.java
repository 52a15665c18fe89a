package dev.switchboard.internal;

/**
 * One worker's part of the rule that decides when the activations handed off to it are made stealable (its
 * {@link Worker}, "handoff buffer"); the runtime-wide part is {@link Spreading}. Owns the worker's estimate of how
 * long its turns are, the probes' back-off and the hint that tells the watchdog to look often. Confined to its
 * worker, but for that hint, which the watchdog clears.
 *
 * <h2>Overview</h2>
 * Buffered activations are invisible to idle workers. They are made stealable (forked to the deque, which wakes an
 * idle worker) when the buffer is full, and, while a worker is idle, when the worker's turns are long (a moving
 * average of one turn in {@value #SAMPLE_PERIOD}, against {@value #SPREAD_TURN_NANOS} ns) or, for short turns, when
 * the runtime spreads short turns at all and spreading pays ({@link #spreadNow}). Waking a parked worker costs its
 * waker a system call, and every message between the two workers afterwards moves cache lines between cores: a
 * client of a busy server, stolen to run one short turn whose request goes straight back to the server's worker,
 * costs more than it saves, while a branch of a pipeline, stolen with the stages behind it, keeps the other core
 * busy. Whether short turns are spread at all is decided by trial ({@link SpreadingTrials}): the watchdog compares
 * the work the workers do per millisecond with short turns spread and with short turns kept where they are, and
 * keeps the better (data-driven tasks are left out of the trials: see {@link #spreadNow}). While they are spread,
 * they are spread when the activations spread lately started chains of several turns on the workers that took them
 * ({@link Spreading#spreadingPays}), and otherwise by probes, which spread anyway so that estimate keeps learning:
 * the first after {@value #PROBE_PERIOD} chances, each next one after twice as many as the one before, up to
 * {@value #MAX_PROBE_PERIOD}, until spreading pays again ({@link #probe}). Both estimates start high, so a program's
 * first fan-out spreads at once. A turn that is long when the recent ones were short holds the buffer up to about a
 * millisecond: the watchdog looks that often while a worker has chances to spread short turns
 * ({@link #sawShortTurnChance}) and moves the buffer of a worker that started nothing since its last look (see
 * docs/decisions/004-hot-server.md).
 */
final class SpreadRule {
    /**
     * One turn in this many is timed for {@link #turnNanos}: a clock read costs tens of nanoseconds on a virtual
     * machine, as much as a short turn, so timing is rare; the watchdog bounds what a long turn holds back while
     * the average catches up.
     */
    static final int SAMPLE_PERIOD = 256;
    /** Turns that take less than this on average are not worth waking another worker for. */
    static final long SPREAD_TURN_NANOS = 2_000;
    /**
     * Short turns are spread anyway once in this many chances, so the scheduler keeps learning whether it pays;
     * each such probe doubles the period of the next one, up to {@value #MAX_PROBE_PERIOD}, until spreading pays.
     */
    static final int PROBE_PERIOD = 32;
    /** The longest period between probes: a probe makes buffered activations stealable and wakes a parked worker. */
    static final int MAX_PROBE_PERIOD = 1024;

    private final Scheduler scheduler;
    private final Worker worker;
    /**
     * Estimated nanoseconds of one turn on the worker: a moving average (weight 1/4) of sampled turns, each
     * counted as at most twice {@link #SPREAD_TURN_NANOS}. Starts at that cap, so a new worker spreads.
     */
    private long turnNanos = SPREAD_TURN_NANOS * 2;
    /** Chances to spread short turns since the last probe or spread, counted against {@link #probePeriod}. */
    private int probes;
    /** Chances between two probes now: {@link #PROBE_PERIOD}, doubled by each probe, reset when spreading pays. */
    private int probePeriod = PROBE_PERIOD;
    /**
     * Set by the worker when it had a chance to spread short turns (a worker was idle while activations waited
     * there, and its turns are short), whether it spread them or not, and when a sampled turn left its average
     * short, idle worker or not (a program that keeps every worker busy with short turns may run faster on one:
     * {@link Concentration}); cleared by the watchdog at each look ({@link #takeChance}). A hint only (plain
     * accesses): while it is set the watchdog looks every {@link Watchdog#HOLDING_WATCHDOG_PERIOD_NANOS}, so
     * activations held behind a turn that turns out to be long wait about that long before another worker takes
     * them, and the looks time the modes that {@link SpreadingTrials} compares.
     */
    private boolean sawShortTurnChance;

    SpreadRule(Scheduler scheduler, Worker worker) {
        this.scheduler = scheduler;
        this.worker = worker;
    }

    /** Whether the turn the worker starts as its {@code progress}-th node is one to time ({@link #turnTook}). */
    static boolean timesTurn(long progress) {
        return (progress & (SAMPLE_PERIOD - 1)) == 0;
    }

    /** A timed turn took {@code nanos}: updates the average, and tells the watchdog if turns are short. */
    void turnTook(long nanos) {
        // capped: one turn the OS pre-empted must not make short turns look long
        long t = Math.min(nanos, 2 * SPREAD_TURN_NANOS);
        turnNanos += (t - turnNanos) >> 2;
        if (turnNanos < SPREAD_TURN_NANOS) {
            sawChance();                 // short turns, idle worker or not: see Concentration
        }
    }

    /**
     * Whether the worker's buffered activations should be made stealable now: some worker is idle, and the worker's
     * turns are long, or short turns are spread now ({@link Spreading#holdsShortTurns}; not asked for data-driven
     * tasks, see below) and either spread activations lately started long chains where they went or this chance is
     * a {@linkplain #probe probe}. A chance with short turns tells the watchdog to look more often
     * ({@link #sawShortTurnChance}): activations held back wait for it if the turn now running turns out long, and
     * its looks time the trials of {@link SpreadingTrials}.
     * <p>
     * {@code actors} is false when the chance comes from a data-driven task ({@link Worker#handoffNext}, or one
     * about to run): a wavefront of such tasks is short (milliseconds), shares its two cores with the thread still
     * building it, and gains the other worker through spread tasks whose chains are long, so it keeps that rule
     * alone; a trial, a few milliseconds in the other mode, and the watchdog's every-millisecond looks would be a
     * large part of its run. Such a chance tells the watchdog only when it holds activations back.
     */
    boolean spreadNow(boolean actors) {
        if (!scheduler.idleSpin.idleWorkers()) {
            return false;
        }
        if (actors && scheduler.concentration.keeps(worker)) {
            sawChance();                         // the trials go on timing the modes
            return false;                        // held: the owner keeps its actors, long turns too (R3)
        }
        if (turnNanos >= SPREAD_TURN_NANOS) {
            spreadingPaid();
            return true;
        }
        if (actors) {
            sawChance();
            if (scheduler.spreading.holdsShortTurns()) {
                return false;
            }
        }
        if (scheduler.spreading.spreadingPays()) {
            spreadingPaid();
            return true;
        }
        if (probe()) {
            return true;
        }
        sawChance();
        return false;
    }

    /**
     * Work waits behind what the worker runs first and may turn out long (a monitor's continuation): while another
     * worker is idle, the watchdog is told to look often ({@link Scheduler#activateBehind}).
     */
    void sawWorkBehind() {
        if (!sawShortTurnChance && scheduler.idleSpin.idleWorkers()) {
            sawShortTurnChance = true;
        }
    }

    /** Sets {@link #sawShortTurnChance}, writing it only when it is clear (the watchdog reads its line). */
    private void sawChance() {
        if (!sawShortTurnChance) {
            sawShortTurnChance = true;
        }
    }

    /** For the watchdog, at each look: whether the worker had a chance since the last look; clears the hint. */
    boolean takeChance() {
        if (sawShortTurnChance) {
            sawShortTurnChance = false;
            return true;
        }
        return false;
    }

    /**
     * Counts a chance to spread short turns that do not pay; returns whether it is a probe, which doubles the
     * period of the next one (up to {@value #MAX_PROBE_PERIOD}): each probe makes buffered activations stealable
     * and wakes a parked worker, which for the clients of a busy server never pays, so a workload that keeps not
     * paying is probed ever more rarely.
     */
    boolean probe() {
        if (++probes < probePeriod) {
            return false;
        }
        probes = 0;
        if (probePeriod < MAX_PROBE_PERIOD) {
            probePeriod <<= 1;
        }
        return true;
    }

    /** Spreading pays again: probing, when it stops paying, starts over at {@value #PROBE_PERIOD} chances. */
    void spreadingPaid() {
        probes = 0;
        probePeriod = PROBE_PERIOD;
    }
}

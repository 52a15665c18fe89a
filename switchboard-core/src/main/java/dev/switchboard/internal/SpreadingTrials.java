package dev.switchboard.internal;

/**
 * Decides, by trial, whether the workers spread short turns to idle workers at all, or keep them where they are.
 *
 * <h2>Overview</h2>
 * Whether it pays to move short turns to an idle worker depends on the program more than on the turns. The clients
 * of one busy server lose by it: a stolen client runs one short turn, its request goes back to the server's worker,
 * and every such move costs a wake-up and cross-core transfers while the server's work stays serial. The branches
 * of a split-join pipeline gain the second core by it. The workers' own rule ({@link SpreadRule}) estimates from
 * the turns how far a spread activation gets, and that estimate tells the two apart only roughly
 * (docs/decisions/004-hot-server.md). This class measures what the choice is for: the work the
 * runtime's workers do per unit of time (tasks run and messages processed), with short turns spread by that rule
 * ({@code SPREAD}) and with short turns kept on their worker and the actors on one worker ({@code HOLD}, see
 * {@link Concentration}), and keeps the mode that did more.
 *
 * <p>The watchdog calls {@link #look} at each of its looks, every millisecond while workers have chances to spread
 * short turns ({@link SpreadRule#sawShortTurnChance}). A program starts spreading, as the workers' rule does (its
 * first fan-out spreads at once), and the mode then goes through three phases:
 * <pre>
 *   STAY    stay looks in the current mode; the last TRIAL_LOOKS intervals are the baseline
 *   SETTLE  SETTLE_LOOKS looks in the other mode, not measured (the work moves between the workers)
 *   TRIAL   TRIAL_LOOKS looks in the other mode, then the verdict:
 *             the trial's best interval did more than MARGIN more work a nanosecond than the baseline's best:
 *               the other mode stays, and the next stay is MIN_STAY looks
 *             (a central program held: more than a quarter more, CENTRAL_MARGIN_SHIFT)
 *             otherwise: the mode before the trial returns, and the next stay is twice as long, up to MAX_STAY
 *               (MAX_HELD_STAY if the mode is HOLD; MAX_CENTRAL_HELD_STAY if the held program is central;
 *               MAX_SPREAD_STAY if SPREAD returns because holding did less than two thirds of its work)
 * </pre>
 * So a program that settles in SPREAD tries holding once in about {@value #MAX_STAY} looks, or once in about
 * {@value #MAX_SPREAD_STAY} if held it does less than two thirds of the work; one that settles in HOLD tries
 * spreading once in about {@value #MAX_HELD_STAY} (or {@value #MAX_CENTRAL_HELD_STAY}, below); and a trial that
 * loses costs {@code SETTLE_LOOKS + TRIAL_LOOKS} looks in the worse mode. The stays are uneven because the losses
 * are: a program that needs both workers runs two or three times slower held, so each of its trials of holding
 * costs it two or three looks' work, while a server's clients spread run about a fifth slower than held; and a held
 * program can give way to one that needs both workers (a program's phases, or another program on the same
 * runtime), which then gets the second worker within {@value #MAX_HELD_STAY} looks (within about
 * {@code CENTRAL_LOOKS + MIN_STAY} looks after a central program, below), while a program that comes to gain from
 * holding after one that needed both workers waits up to {@value #MAX_SPREAD_STAY} looks for its trial.
 * An interval in which no worker had such a chance, or that was longer than {@value #MAX_INTERVAL_NANOS} ns (the
 * watchdog was not looking at the short period), says nothing about the modes (the program paused, ended, or does
 * other work now), and is skipped: the baseline, a trial in progress and the votes on a central node wait for
 * their next looks. A program that runs for a few milliseconds at a time, again and again (a benchmark's runs, a
 * batch job's rounds), has only a few short looks each time: the first look after a pause comes at the idle
 * period ({@code Watchdog.WATCHDOG_PERIOD_NANOS}, 10 ms) and says nothing, and a trial needs {@code TRIAL_LOOKS}
 * looks of baseline and {@code SETTLE_LOOKS + TRIAL_LOOKS} looks in the other mode. Were a pause to end the
 * trial or empty the baseline, such a program would never finish a trial, and would keep whichever mode the
 * program before it left. Across a pause the looks may come from another program; a verdict on such looks may be
 * wrong, and a mode it changes to is tried against the other again after {@value #MIN_STAY} looks.
 * <p>
 * The best interval of each side is compared, not their sums: what disturbs an interval (a garbage collection, the
 * host taking the CPU away, another program on the machine) only ever makes it slower, so the fastest of a few is
 * the one nearest what the mode can do, and a pause in the baseline does not make a trial look better.
 *
 * <h2>Programs with a central actor</h2>
 * While short turns are held, the watchdog also learns whether one node (an actor, nearly always) does a large part
 * of the work: the workers' turns vote for the node they ran, about one turn in {@value Worker#VOTE_PERIOD},
 * weighted by the work they did ({@link TurnVotes#vote}), and the watchdog compares the work of each look's clear
 * leader (one with at least twice the work of the next) with the work of all votes, over the last
 * {@value #CENTRAL_LOOKS} looks. A program is <em>central</em> once that share reaches a quarter, and stays so
 * until it falls below an eighth, or until those looks have too few votes to tell: a server and its request-reply
 * clients (the server does half of the messages), a broker and the creatures it pairs, an adder that joins its
 * sources. Short
 * turns of such a program gain little from a second worker, since everything waits for that one actor, and moving
 * its partners' turns between the cores costs every message a transfer: its trials of spreading keep losing, and
 * each costs a few looks spread. So while a central program is held,
 * <ul>
 *   <li>its stays between trials of spreading grow up to {@value #MAX_CENTRAL_HELD_STAY} looks instead of
 *       {@value #MAX_HELD_STAY}, and</li>
 *   <li>a trial of spreading must do a quarter more work to win ({@link #CENTRAL_MARGIN_SHIFT}), not a sixteenth:
 *       a few looks of a server's clients spread sometimes run a tenth faster by noise;</li>
 * </ul>
 * and once the held program is no longer central (a pipeline started after the server, say), the stay ends within
 * {@value #MIN_STAY} more looks, so that a program that needs both workers does not wait out a server's long
 * stay. The share is judged only from looks while short turns are held: then one worker runs nearly everything,
 * and its votes see the whole program; spread, each worker sees its part (a pipeline's sink, alone on one worker
 * while it drains, would look central).
 *
 * <h2>Implementation notes</h2>
 * Everything but {@link #hold} is confined to the watchdog thread. {@link #hold} is volatile so that a worker
 * reads a mode the watchdog set within a turn or two; a worker reads it only when it has a chance to spread short
 * turns, and on x86 a volatile read costs what a plain one does. The unit of work is a task or a message
 * ({@link Node#runTurn}), not a turn: an actor's turn processes what its mailbox holds, up to the throughput
 * budget, and how much that is depends on the mode (kept on one worker, a pipeline's stages take one message a
 * turn; spread, their mailboxes fill while they wait for a core, and a turn takes many), so turns would count
 * the same work differently in the two modes.
 */
final class SpreadingTrials {
    /** Looks in a mode before the first trial of the other, and after a trial that changed the mode. */
    static final int MIN_STAY = 4;
    /**
     * The longest stay between trials: a trial that loses costs {@code SETTLE_LOOKS + TRIAL_LOOKS} looks in the
     * worse mode.
     */
    static final int MAX_STAY = 128;
    /**
     * The longest stay while short turns are held: a program that needs both workers, coming after one that was
     * kept on one, gets the second within about this many looks.
     */
    static final int MAX_HELD_STAY = 32;
    /**
     * The longest stay in SPREAD after trials of holding that did less than two thirds of the baseline's work
     * ({@link #LOSS_SHIFT}): each such trial costs a program that needs both workers two or three looks' work.
     */
    static final int MAX_SPREAD_STAY = 512;
    /** A trial lost clearly when the baseline did more than half as much again ({@code 1 / 2^1}) as the trial. */
    static final int LOSS_SHIFT = 1;
    /** Looks after a change of mode that are not measured: the work takes a while to move between the workers. */
    static final int SETTLE_LOOKS = 1;
    /** Intervals measured on each side of a trial. */
    static final int TRIAL_LOOKS = 3;
    /** How much faster a trial must run to change the mode: one sixteenth, above the noise of a few looks. */
    static final int MARGIN_SHIFT = 4;
    /**
     * The longest stay while short turns are held in a {@linkplain #central central} program: a server's clients
     * lose every trial of spreading, and each trial costs them a few looks spread.
     */
    static final int MAX_CENTRAL_HELD_STAY = 256;
    /** How much faster a trial of spreading must run to change the mode of a central program: a quarter. */
    static final int CENTRAL_MARGIN_SHIFT = 2;
    /** Looks over which the leading node's share of the work is measured. */
    static final int CENTRAL_LOOKS = 4;
    /** Voted work those looks need before the share decides anything. */
    static final long CENTRAL_MIN_WORK = 64;
    /** A program becomes central when the leading node does at least this share: a quarter. */
    static final int CENTRAL_SHIFT = 2;
    /** A central program stops being central when that share falls below an eighth. */
    static final int NOT_CENTRAL_SHIFT = 3;
    /** An interval longer than this was not one of the watchdog's short looks and says nothing. */
    static final long MAX_INTERVAL_NANOS = 4 * Watchdog.HOLDING_WATCHDOG_PERIOD_NANOS;

    private static final int STAY = 0;
    private static final int SETTLE = 1;
    private static final int TRIAL = 2;

    /** Whether workers keep short turns on their own worker now (HOLD) instead of spreading them (SPREAD). */
    private volatile boolean hold;

    private int phase = STAY;
    /** Looks left in the phase. */
    private int left = MIN_STAY;
    /**
     * The current length of a stay: {@link #MIN_STAY}, doubled by each trial that loses, up to {@link #MAX_STAY}
     * ({@link #MAX_HELD_STAY} while short turns are held, {@link #MAX_CENTRAL_HELD_STAY} in a central program,
     * {@link #MAX_SPREAD_STAY} after a trial of holding that lost clearly).
     */
    private int stay = MIN_STAY;
    /** The work rates (per nanosecond) of the last looks of the stay, a ring of {@link #TRIAL_LOOKS}. */
    private final double[] baseRates = new double[TRIAL_LOOKS];
    private int baseCount;
    /** The best work rate of the trial's looks so far. */
    private double trialBest;
    /** The workers' work and the clock at the previous look; {@code lastNanos == 0} before the first. */
    private long lastWork;
    private long lastNanos;
    /** The workers' voted work and the leading nodes' part of it at the previous look. */
    private long lastVoted;
    private long lastLeading;
    /** Both of the last {@link #CENTRAL_LOOKS} intervals (while held), in rings. */
    private final long[] votedRing = new long[CENTRAL_LOOKS];
    private final long[] leadingRing = new long[CENTRAL_LOOKS];
    private int ringCount;
    /** Whether the program has a central node (see {@link #central()}). */
    private boolean central;
    /** Trials run and trials that changed the mode, for tests and diagnostics (written by the watchdog only). */
    private volatile long trials;
    private volatile long changes;

    /** Set by {@link #pin}: the mode no longer changes. Tests only. */
    private volatile boolean pinned;

    /** Whether workers keep short turns where they are (read by the workers at each chance to spread them). */
    boolean holdsShortTurns() {
        return hold;
    }

    /** For tests: fixes the mode ({@code hold} or not); the looks no longer change it. */
    void pin(boolean hold) {
        pinned = true;
        this.hold = hold;
    }

    /**
     * The watchdog looks: at {@code nanos} the workers have done {@code work} in all, and {@code chances} says
     * whether any of them had a chance to spread short turns since the previous look; their votes so far did
     * {@code voted} work, of which the node leading each window of votes did {@code leading}
     * ({@link TurnVotes#votedWork}, {@link TurnVotes#leadingWork}).
     */
    void look(long nanos, long work, boolean chances, long voted, long leading) {
        long dt = nanos - lastNanos;
        long dwork = work - lastWork;
        long dvoted = voted - lastVoted;
        long dleading = leading - lastLeading;
        boolean first = lastNanos == 0;
        lastNanos = nanos;
        lastWork = work;
        lastVoted = voted;
        lastLeading = leading;
        if (first || !chances || dt <= 0 || dt > MAX_INTERVAL_NANOS || dwork < 0 || pinned) {
            return;                           // skipped: the phase waits for its next looks (see the class comment)
        }
        if (hold && phase == STAY) {
            judgeCentral(dvoted, dleading);
        } else {
            ringCount = 0;                    // measured only while held (see the class comment)
        }
        double rate = (double) dwork / dt;
        switch (phase) {
            case STAY -> {
                baseRates[baseCount++ % TRIAL_LOOKS] = rate;
                if (--left <= 0 && baseCount >= TRIAL_LOOKS) {
                    hold = !hold;
                    phase = SETTLE;
                    left = SETTLE_LOOKS;
                    trials++;
                }
            }
            case SETTLE -> {
                if (--left <= 0) {
                    phase = TRIAL;
                    left = TRIAL_LOOKS;
                    trialBest = 0;
                }
            }
            default -> {
                trialBest = Math.max(trialBest, rate);
                if (--left > 0) {
                    return;
                }
                double baseBest = 0;
                for (double r : baseRates) {
                    baseBest = Math.max(baseBest, r);
                }
                if (faster(trialBest, baseBest, hold || !central ? MARGIN_SHIFT : CENTRAL_MARGIN_SHIFT)) {
                    changes++;
                    stay = MIN_STAY;
                } else {
                    hold = !hold;
                    int longest = hold ? (central ? MAX_CENTRAL_HELD_STAY : MAX_HELD_STAY)
                            : faster(baseBest, trialBest, LOSS_SHIFT) ? MAX_SPREAD_STAY : MAX_STAY;
                    stay = Math.min(stay << 1, longest);
                }
                phase = STAY;
                left = stay;
                baseCount = 0;
            }
        }
    }

    /**
     * A look while held, whose votes did {@code voted} work and whose leading nodes {@code leading}: updates
     * {@link #central} from the last {@link #CENTRAL_LOOKS} such looks, and ends the stay within
     * {@link #MIN_STAY} looks when the program stops being central.
     */
    private void judgeCentral(long voted, long leading) {
        if (voted < 0 || leading < 0) {
            ringCount = 0;                    // a worker ended, and its counts left the sums: start over
            return;
        }
        int i = ringCount++ % CENTRAL_LOOKS;
        votedRing[i] = voted;
        leadingRing[i] = leading;
        if (ringCount < CENTRAL_LOOKS) {
            return;                           // after a trial, what the other worker ran meanwhile still counts
        }
        long v = 0;
        long l = 0;
        for (int k = 0; k < CENTRAL_LOOKS; k++) {
            v += votedRing[k];
            l += leadingRing[k];
        }
        // too few votes to tell (turns long enough to be few, yet short): not central, the rule without votes
        boolean now = v >= CENTRAL_MIN_WORK && l >= v >> (central ? NOT_CENTRAL_SHIFT : CENTRAL_SHIFT);
        if (now != central) {
            central = now;
            if (!now) {
                stay = MIN_STAY;              // most likely another program now: try spreading soon
                left = Math.min(left, MIN_STAY);
            }
        }
    }

    /**
     * Whether the program held lately has a central node (see the class comment): one that clearly led the votes
     * with at least a quarter of their work, until its share fell below an eighth.
     */
    boolean central() {
        return central;
    }

    /** Whether the work rate {@code rate} beats {@code base} by more than the margin. */
    static boolean faster(double rate, double base) {
        return faster(rate, base, MARGIN_SHIFT);
    }

    /** Whether the work rate {@code rate} beats {@code base} by more than {@code 1 / 2^shift} of it. */
    private static boolean faster(double rate, double base, int shift) {
        return rate > base + base / (1 << shift);
    }

    /** Trials run so far. */
    long trials() {
        return trials;
    }

    /** Trials that changed the mode. */
    long changes() {
        return changes;
    }
}

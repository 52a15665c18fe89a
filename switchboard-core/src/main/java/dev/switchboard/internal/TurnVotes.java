package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's votes for the node whose work leads: about one turn in {@link Worker#VOTE_PERIOD} of its worker
 * votes for the node it ran with the work it did ({@link #vote}), and the votes of one watchdog look form a window
 * whose total and clear leader are published for the watchdog, which compares them in {@link SpreadingTrials}
 * ({@link SpreadingTrials#central()}). Owns the open window and the published sums; written only by its worker's
 * thread, the sums read by the watchdog's.
 */
final class TurnVotes {
    /** Nodes a window of votes keeps count of (space-saving: the least counted gives its slot to a new one). */
    static final int VOTE_SLOTS = 4;
    /** A window's leader counts only with at least this many times the work of the next ({@link #closeWindow}). */
    static final int CLEAR_LEAD = 2;
    private static final VarHandle VOTED_WORK;
    private static final VarHandle LEADING_WORK;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            VOTED_WORK = l.findVarHandle(TurnVotes.class, "votedWork", long.class);
            LEADING_WORK = l.findVarHandle(TurnVotes.class, "leadingWork", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Scheduler scheduler;
    /**
     * The work of the turns that voted, in all, and the part of it done by the node that led each window of votes
     * clearly (see {@link #closeWindow}), summed over the windows closed. Read by the watchdog, leading first
     * (written only by the worker: votedWork with an opaque store, then leadingWork with a release store, so a
     * watchdog that reads leadingWork with acquire and then votedWork sees all the voted work of the windows whose
     * leaders it counted, and never a share too high).
     */
    private long votedWork;
    private long leadingWork;
    /**
     * The open window of votes: the nodes counted (by identity hash, so that an ended actor is not kept
     * reachable), their work, and the work their slot already had when they took it over (space-saving's
     * overestimate: a node's own work in the window is at least {@code voteCounts[i] - voteErrors[i]}).
     */
    private final int[] voteIds = new int[VOTE_SLOTS];
    private final long[] voteCounts = new long[VOTE_SLOTS];
    private final long[] voteErrors = new long[VOTE_SLOTS];
    /** The work of the open window's votes. */
    private long windowWork;
    /** The watchdog's look that the open window belongs to ({@link Watchdog#lookEpoch()}). */
    private int windowEpoch;
    /** The state of the generator of {@link #nextGap} (xorshift; never zero). */
    private int voteSeed = (int) Clock.system().nanoTime() | 1;
    /** Work of turns that went on ({@link #wentOn}) that has not voted yet: less than VOTE_PERIOD. */
    private int goneOnUnits;

    TurnVotes(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A turn of {@code n} that did {@code units} of work votes for it. The votes of one watchdog look form a
     * window that counts the work of each node in it (at most {@value #VOTE_SLOTS} nodes: the space-saving
     * algorithm of Metwally, Agrawal and El Abbadi, which never loses a node that does more than a
     * {@value #VOTE_SLOTS}th of the window's work); when the look changes, the window closes and publishes its
     * work and a lower bound of its leading node's, which is what the watchdog compares. Turns vote in either
     * mode; the watchdog uses the votes only while short turns are held.
     */
    void vote(Node n, int units) {
        int epoch = scheduler.watchdog.lookEpoch();
        if (epoch != windowEpoch) {
            // a window older than the last look (this worker was idle, or in one long turn) is not published:
            // it would count work of another time, perhaps of the other mode, in the looks that come now
            closeWindow(epoch - windowEpoch == 1);
            windowEpoch = epoch;
        }
        int id = System.identityHashCode(n);
        int[] ids = voteIds;
        long[] counts = voteCounts;
        int slot = -1;
        for (int i = 0; i < VOTE_SLOTS; i++) {
            if (ids[i] == id && counts[i] != 0) {
                slot = i;
                break;
            }
        }
        if (slot < 0) {
            slot = 0;
            for (int i = 1; i < VOTE_SLOTS; i++) {
                if (counts[i] < counts[slot]) {
                    slot = i;
                }
            }
            ids[slot] = id;
            voteErrors[slot] = counts[slot];
        }
        counts[slot] += units;
        windowWork += units;
    }

    /**
     * A turn of {@code n} that goes on after using up its budget of {@code units} ({@link Worker#turnGoesOn}).
     * A turn votes once in VOTE_PERIOD turns with all its work; a turn that goes on votes every time it does (it
     * may never end), with its work divided by that period, so that both weigh the same per unit.
     */
    void wentOn(Node n, int units) {
        goneOnUnits += units;
        if (goneOnUnits >= Worker.VOTE_PERIOD) {
            vote(n, goneOnUnits / Worker.VOTE_PERIOD);
            goneOnUnits %= Worker.VOTE_PERIOD;
        }
    }

    /** Turns from one vote to the next: uniform from 1 to twice {@link Worker#VOTE_PERIOD}. */
    int nextGap() {
        int x = voteSeed;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        voteSeed = x;
        return 1 + (x & (2 * Worker.VOTE_PERIOD - 1));
    }

    /**
     * Publishes the open window of votes if {@code publish}, and starts an empty one. The window's leader counts
     * (with the lower bound of its work) only if it leads clearly, with at least {@link #CLEAR_LEAD} times the work
     * of the next: in a program of two to four equally busy actors (a short pipeline), each does a quarter or more
     * of the work, but none is a node the others wait for.
     */
    private void closeWindow(boolean publish) {
        long first = 0;
        long second = 0;
        long[] counts = voteCounts;
        for (int i = 0; i < VOTE_SLOTS; i++) {
            long least = counts[i] - voteErrors[i];
            if (least > first) {
                second = first;
                first = least;
            } else if (least > second) {
                second = least;
            }
            counts[i] = 0;
            voteErrors[i] = 0;
        }
        if (publish && windowWork > 0) {
            VOTED_WORK.setOpaque(this, votedWork + windowWork);
            LEADING_WORK.setRelease(this, leadingWork + (first >= CLEAR_LEAD * second ? first : 0));
        }
        windowWork = 0;
    }

    /** For the watchdog: the work of the votes in the windows closed so far. */
    long votedWork() {
        return (long) VOTED_WORK.getOpaque(this);
    }

    /** For the watchdog, read before {@link #votedWork}: what each window's clear leader did (at least). */
    long leadingWork() {
        return (long) LEADING_WORK.getAcquire(this);
    }
}

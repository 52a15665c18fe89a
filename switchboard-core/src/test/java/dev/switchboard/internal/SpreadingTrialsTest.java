package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SpreadingTrials} fed with looks of a simulated program whose work rate depends on the mode: the verdicts,
 * how often trials run, and what an interval that says nothing does. One look is a millisecond, as the watchdog
 * looks while workers have chances to spread short turns.
 */
class SpreadingTrialsTest {
    static final long LOOK = 1_000_000;

    /** Drives a {@link SpreadingTrials} with a rate (work per millisecond) for each mode. */
    static final class Program {
        final SpreadingTrials trials = new SpreadingTrials();
        long now = 1;
        long work;
        double spreadRate;
        double holdRate;
        int looksHeld;

        /** The share of the voted work that the leading node does ({@link SpreadingTrials#central()}). */
        double leadingShare;
        /** Voted work per look. */
        long votedPerLook = 1_000;
        long voted;
        long leading;

        Program(double spreadRate, double holdRate) {
            this.spreadRate = spreadRate;
            this.holdRate = holdRate;
            trials.look(now, work, true, voted, leading);    // the first look only sets the clock
        }

        /** A program whose leading node does {@code leadingShare} of the work. */
        Program(double spreadRate, double holdRate, double leadingShare) {
            this(spreadRate, holdRate);
            this.leadingShare = leadingShare;
        }

        /** One look {@code nanos} after the last, the workers having done {@code done} more work meanwhile. */
        void look(long nanos, long done, boolean chances) {
            now += nanos;
            work += done;
            trials.look(now, work, chances, voted, leading);
        }

        /** {@code looks} looks a millisecond apart, {@code done} work each, with chances. */
        void looks(int looks, long done) {
            for (int i = 0; i < looks; i++) {
                look(LOOK, done, true);
            }
        }

        void run(int looks) {
            for (int i = 0; i < looks; i++) {
                boolean hold = trials.holdsShortTurns();
                if (hold) {
                    looksHeld++;
                }
                now += LOOK;
                work += (long) (hold ? holdRate : spreadRate);
                voted += votedPerLook;
                leading += (long) (votedPerLook * leadingShare);
                trials.look(now, work, true, voted, leading);
            }
        }

        /** Runs until a trial starts or {@code limit} looks have passed; returns the looks run. */
        int runUntilATrial(int limit) {
            long before = trials.trials();
            int looks = 0;
            while (trials.trials() == before && looks < limit) {
                run(1);
                looks++;
            }
            return looks;
        }
    }

    @Test
    void startsBySpreading() {
        assertThat(new SpreadingTrials().holdsShortTurns()).isFalse();
    }

    @Test
    void aProgramThatRunsFasterHeldIsHeldAndTriesSpreadingLessOften() {
        // the clients of one busy server: a fifth faster with short turns kept where they are
        Program p = new Program(1_000, 1_200);
        p.run(20);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        assertThat(p.trials.changes()).isEqualTo(1);
        long trials = p.trials.trials();
        p.run(10_000);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        assertThat(p.trials.changes()).isEqualTo(1);
        // once the stays reach their longest, one trial per MAX_HELD_STAY + SETTLE_LOOKS + TRIAL_LOOKS looks
        long perTrial = SpreadingTrials.MAX_HELD_STAY + SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS;
        assertThat(p.trials.trials() - trials).isBetween(10_000 / perTrial, 10_000 / perTrial + 4);
        // the looks spent spreading are the trials' (settle and measure): one in nine
        assertThat(10_000 + 20 - p.looksHeld).isLessThan(10_000 * 12 / 100);
    }

    @Test
    void aProgramThatRunsFasterSpreadKeepsSpreading() {
        // the branches of a split-join pipeline: three times faster with the second core
        Program p = new Program(3_000, 1_000);
        p.run(10_000);
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.trials.changes()).isZero();
        assertThat(p.looksHeld).isLessThan(10_000 * 35 / 1_000);
    }

    @Test
    void trialsOfHoldingThatLoseClearlyComeLessOften() {
        // the branches of a split-join pipeline, three times faster spread: one trial of holding per longest
        // spread stay, so its trials cost it under one per cent of its looks held
        long perTrial = SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS;
        Program clear = new Program(3_000, 1_000);
        clear.run(2_000);
        long before = clear.trials.trials();
        clear.run(20_000);
        long n = clear.trials.trials() - before;
        assertThat(n).isBetween(20_000L / (SpreadingTrials.MAX_SPREAD_STAY + perTrial),
                20_000L / (SpreadingTrials.MAX_SPREAD_STAY + perTrial) + 2);
        assertThat(clear.trials.holdsShortTurns()).isFalse();
        // held at nine tenths of its spread speed, the loss is not clear: a trial per MAX_STAY, and the program
        // that changes to gain by holding is tried within that
        Program close = new Program(1_000, 900);
        close.run(2_000);
        before = close.trials.trials();
        close.run(20_000);
        n = close.trials.trials() - before;
        assertThat(n).isBetween(20_000L / (SpreadingTrials.MAX_STAY + perTrial),
                20_000L / (SpreadingTrials.MAX_STAY + perTrial) + 2);
        assertThat(close.trials.changes()).isZero();
    }

    @Test
    void modesWithinTheMarginDoNotFlap() {
        Program p = new Program(1_000, 1_040);   // 4 %: below the margin of one sixteenth
        p.run(5_000);
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.trials.changes()).isZero();
    }

    @Test
    void aProgramThatChangesIsFollowedWithinTheLongestStay() {
        Program p = new Program(1_000, 1_300);
        p.run(2_000);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        p.spreadRate = 3_000;                    // now spreading pays: tried within the longest held stay
        p.run(SpreadingTrials.MAX_HELD_STAY + SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS);
        assertThat(p.trials.holdsShortTurns()).isFalse();
        p.run(5_000);
        p.holdRate = 5_000;                      // and now holding does: tried within the longest stay after
        // trials of holding that lost clearly (1,300 against 3,000)
        p.run(SpreadingTrials.MAX_SPREAD_STAY + SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS);
        assertThat(p.trials.holdsShortTurns()).isTrue();
    }

    @Test
    void anIntervalWithoutChancesPausesATrial() {
        Program p = new Program(0, 0);
        p.looks(SpreadingTrials.MIN_STAY, 1_000);
        SpreadingTrials t = p.trials;
        assertThat(t.holdsShortTurns()).as("the first trial holds").isTrue();
        assertThat(t.trials()).isEqualTo(1);
        // the program stops deciding about short turns (its workers are all busy, or it paused): not judged
        p.look(LOOK, 5_000, false);
        p.look(LOOK, 5_000, false);
        assertThat(t.holdsShortTurns()).as("the trial waits, in its mode").isTrue();
        // it comes back: the trial takes its remaining looks and is judged (held: a fifth faster, so it stays)
        p.looks(SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS - 1, 1_000);
        assertThat(t.holdsShortTurns()).isTrue();
        assertThat(t.changes()).isZero();
        p.looks(1, 1_200);
        assertThat(t.holdsShortTurns()).isTrue();
        assertThat(t.changes()).isEqualTo(1);
        assertThat(t.trials()).isEqualTo(1);
    }

    @Test
    void aProgramRunInShortBurstsReachesTheModeThatPays() {
        // A central program held for long (a busy server's clients), then one that runs for three short looks at a
        // time with a pause between (a benchmark of a few milliseconds, run after another runtime's turn; the first
        // look after a pause comes at the idle period and says nothing) and goes twice as fast spread. A trial
        // needs more looks than one burst has.
        Program p = new Program(1_000, 1_300, 0.5);
        p.run(2_000);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        assertThat(p.trials.central()).isTrue();
        p.spreadRate = 2_000;
        p.holdRate = 1_000;
        p.leadingShare = 0;                               // eight pairs: no node leads
        int bursts = 0;
        while (p.trials.holdsShortTurns() && bursts < 100) {
            p.look(20 * LOOK, 0, false);                  // the pause: long, and no chances
            p.run(3);
            bursts++;
        }
        // no longer central after CENTRAL_LOOKS held looks, then MIN_STAY looks, a settle and a trial
        int looks = SpreadingTrials.CENTRAL_LOOKS + SpreadingTrials.MIN_STAY + SpreadingTrials.SETTLE_LOOKS
                + SpreadingTrials.TRIAL_LOOKS;
        assertThat(p.trials.holdsShortTurns()).as("spread after %d bursts", bursts).isFalse();
        assertThat(bursts * 3).isLessThanOrEqualTo(looks + 3);
        // and it stays spread: its trials of holding lose, across the pauses too
        int heldBefore = p.looksHeld;
        for (int i = 0; i < 200; i++) {
            p.look(20 * LOOK, 0, false);
            p.run(3);
        }
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.looksHeld - heldBefore).as("held looks in 600").isLessThan(600 / 16);
    }

    @Test
    void intervalsWithoutChancesDoNotShortenTheStay() {
        Program p = new Program(3_000, 1_000);
        p.run(2_000);
        long trials = p.trials.trials();
        for (int i = 0; i < 100; i++) {                 // a look without chances in every ten
            p.run(9);
            p.trials.look(p.now += LOOK, p.work += 3_000, false, p.voted, p.leading);
        }
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.trials.trials() - trials).as("trials in 1,000 looks").isLessThan(1_000 / 64);
    }

    @Test
    void aLongIntervalSaysNothing() {
        Program p = new Program(0, 0);
        p.looks(SpreadingTrials.MIN_STAY + SpreadingTrials.SETTLE_LOOKS, 1_000);
        assertThat(p.trials.trials()).isEqualTo(1);
        // the trial's measured look comes 10 ms later (the program paused), ten times as fast: not judged
        p.look(10 * LOOK, 100_000, true);
        p.looks(SpreadingTrials.TRIAL_LOOKS, 1_000);
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.trials.changes()).isZero();
    }

    @Test
    void aPauseInTheBaselineDoesNotMakeATrialWin() {
        Program p = new Program(0, 0);
        // the stay: its last look but one is half as fast (a collection paused the workers)
        p.looks(SpreadingTrials.MIN_STAY - 2, 1_000);
        p.looks(1, 500);
        p.looks(1, 1_000);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        p.looks(SpreadingTrials.SETTLE_LOOKS, 1_000);
        p.looks(SpreadingTrials.TRIAL_LOOKS, 1_050);         // held: 5 % faster, within the margin
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.trials.changes()).isZero();
    }

    @Test
    void aCentralProgramHeldTriesSpreadingOnceInTheLongestCentralStay() {
        // a server whose clients are a fifth faster held, the server doing half of the work
        Program p = new Program(1_000, 1_200, 0.5);
        p.run(20);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        p.run(3_000);                            // the stays grow to their longest
        assertThat(p.trials.central()).isTrue();
        long trials = p.trials.trials();
        int held = p.looksHeld;
        p.run(20_000);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        assertThat(p.trials.changes()).isEqualTo(1);
        long perTrial = SpreadingTrials.MAX_CENTRAL_HELD_STAY + SpreadingTrials.SETTLE_LOOKS
                + SpreadingTrials.TRIAL_LOOKS;
        assertThat(p.trials.trials() - trials).isBetween(20_000 / perTrial, 20_000 / perTrial + 2);
        // the looks spent spreading: about one in 65, against one in nine without a central node
        assertThat(20_000 - (p.looksHeld - held)).isLessThan(20_000 * 2 / 100);
    }

    @Test
    void aTrialOfSpreadingInACentralProgramMustWinByAQuarter() {
        Program central = new Program(1_000, 1_200, 0.5);
        Program plain = new Program(1_000, 1_200, 0.02);
        for (Program p : List.of(central, plain)) {
            p.run(3_000);
            assertThat(p.trials.holdsShortTurns()).isTrue();
            assertThat(p.trials.changes()).isEqualTo(1);
            p.spreadRate = 1_200 * 1.15;         // spreading now does 15 % more work
            p.run(2 * (SpreadingTrials.MAX_CENTRAL_HELD_STAY + SpreadingTrials.SETTLE_LOOKS
                    + SpreadingTrials.TRIAL_LOOKS));
        }
        assertThat(central.trials.changes()).as("central: 15 % is below the margin").isEqualTo(1);
        assertThat(plain.trials.changes()).as("not central: 15 % is above the margin").isGreaterThan(1);
        central.spreadRate = 1_200 * 1.3;        // a third more: spreading wins the next trial
        central.run(SpreadingTrials.MAX_CENTRAL_HELD_STAY + SpreadingTrials.SETTLE_LOOKS
                + SpreadingTrials.TRIAL_LOOKS);
        assertThat(central.trials.changes()).isGreaterThan(1);
    }

    @Test
    void aHeldProgramThatStopsBeingCentralTriesSpreadingWithinAFewLooks() {
        Program p = new Program(1_000, 1_200, 0.5);
        p.run(5_000);                            // held, with the longest central stays
        assertThat(p.trials.holdsShortTurns()).isTrue();
        p.runUntilATrial(1_000);                 // a trial of spreading has just lost: a full stay starts
        p.run(SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        // now a pipeline runs: no node leads, and it is three times faster spread
        p.leadingShare = 0.02;
        p.spreadRate = 3_600;
        int looks = p.runUntilATrial(1_000);
        assertThat(looks).as("looks until spreading is tried").isLessThanOrEqualTo(
                SpreadingTrials.CENTRAL_LOOKS + SpreadingTrials.MIN_STAY);
        assertThat(p.trials.central()).isFalse();
        p.run(SpreadingTrials.SETTLE_LOOKS + SpreadingTrials.TRIAL_LOOKS);
        assertThat(p.trials.holdsShortTurns()).isFalse();
    }

    @Test
    void aProgramIsCentralFromAQuarterUntilItsShareFallsBelowAnEighth() {
        Program p = new Program(1_000, 1_200, 0.2);
        p.run(200);
        assertThat(p.trials.holdsShortTurns()).isTrue();
        assertThat(p.trials.central()).as("a fifth").isFalse();
        p.leadingShare = 0.3;
        p.run(200);
        assertThat(p.trials.central()).as("three tenths").isTrue();
        p.leadingShare = 0.15;
        p.run(200);
        assertThat(p.trials.central()).as("three twentieths, after three tenths").isTrue();
        p.leadingShare = 0.1;
        p.run(200);
        assertThat(p.trials.central()).as("a tenth").isFalse();
    }

    @Test
    void tooFewVotesToTellAreNotCentral() {
        Program p = new Program(1_000, 1_200, 0.5);
        p.run(200);
        assertThat(p.trials.central()).isTrue();
        // the program's turns get long (few votes), while still short enough to be held: its share is not known
        p.votedPerLook = SpreadingTrials.CENTRAL_MIN_WORK / SpreadingTrials.CENTRAL_LOOKS / 2;
        p.run(200);
        assertThat(p.trials.central()).isFalse();
    }

    @Test
    void theShareIsNotMeasuredWhileShortTurnsAreSpread() {
        // a pipeline whose sink, alone on one worker while it drains, does all of that worker's voted work
        Program p = new Program(3_000, 1_000, 1.0);
        p.run(2_000);
        assertThat(p.trials.holdsShortTurns()).isFalse();
        assertThat(p.trials.central()).isFalse();
    }

    @Test
    void theMarginIsOneSixteenth() {
        assertThat(SpreadingTrials.faster(1.063, 1.0)).isTrue();
        assertThat(SpreadingTrials.faster(1.062, 1.0)).isFalse();
        assertThat(SpreadingTrials.faster(0, 0)).isFalse();   // nothing on either side: keep
    }
}

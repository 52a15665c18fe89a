package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.Scheduler;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How often the token's holder times the messages it processes without the policy
 * ({@link LetterPlacement#gapAfter}): every one until the first choice; then about one in
 * {@link LetterPlacement#LEFT_OUT_SAMPLE_PERIOD} while they are cheap; every one from the first that would have the
 * messages run elsewhere (or could, for a spare worker) until the next choice, whatever comes between; none on one
 * worker.
 */
class LetterPlacementTest {
    /** Far below the least a hand-over is taken to cost. */
    static final long CHEAP = 100;
    /** Far above twice the most a hand-over is taken to cost. */
    static final long LONG = 1_000_000;

    /** Between the least a hand-over is taken to cost and twice that: inline, unless a worker is spare. */
    static final long MIDDLING = 3_000;

    /** Gives {@code placement} {@link LetterPlacement#TRIAL} samples of {@code nanos} and lets it choose. */
    static boolean choiceAfter(LetterPlacement placement, long nanos) {
        return choiceAfter(placement, nanos, 0);
    }

    /**
     * Gives {@code placement} {@link LetterPlacement#TRIAL} samples of {@code nanos}, the first {@code waiting} of
     * them with another message waiting, and lets it choose.
     */
    static boolean choiceAfter(LetterPlacement placement, long nanos, int waiting) {
        for (int i = 0; i < LetterPlacement.TRIAL; i++) {
            placement.messageTook(nanos, i < waiting);
        }
        return placement.choose();
    }

    @Test
    void cheapMessagesAreTimedRarelyAndALongOneHasEveryOneTimedUntilTheNextChoice() {
        Scheduler s = new Scheduler("placement", 2, 64, 64, 0);
        try {
            LetterPlacement p = new LetterPlacement(s);
            assertThat(p.gapAfter(CHEAP)).as("before the first choice").isEqualTo(1);
            assertThat(choiceAfter(p, CHEAP)).as("cheap: inline").isTrue();

            int longest = 0;
            long sum = 0;
            for (int i = 0; i < 10_000; i++) {
                int gap = p.gapAfter(CHEAP);
                assertThat(gap).isBetween(1, 2 * LetterPlacement.LEFT_OUT_SAMPLE_PERIOD - 1);
                longest = Math.max(longest, gap);
                sum += gap;
            }
            assertThat(longest).as("the longest of 10,000 gaps").isGreaterThan(LetterPlacement.LEFT_OUT_SAMPLE_PERIOD);
            int period = LetterPlacement.LEFT_OUT_SAMPLE_PERIOD;
            assertThat(sum / 10_000.0).as("the mean gap").isBetween(period * 0.8, period * 1.2);

            assertThat(p.gapAfter(LONG)).as("a message that would run elsewhere").isEqualTo(1);
            assertThat(p.gapAfter(CHEAP)).as("a cheap one before the next choice").isEqualTo(1);
            assertThat(choiceAfter(p, CHEAP)).as("the next choice: still cheap, still inline").isTrue();
            assertThat(p.gapAfter(CHEAP)).as("after that choice").isGreaterThanOrEqualTo(1);
            int gaps = 0;
            for (int i = 0; i < 100; i++) {
                gaps += p.gapAfter(CHEAP);
            }
            assertThat(gaps).as("100 gaps after the choice: no longer one each").isGreaterThan(100);

            assertThat(p.gapAfter(MIDDLING)).as("one that a spare worker could take").isEqualTo(1);
            assertThat(p.gapAfter(CHEAP)).as("and a cheap one after it, before the next choice").isEqualTo(1);
            assertThat(choiceAfter(p, CHEAP)).as("no spare worker seen: inline").isTrue();

            assertThat(p.gapAfter(LONG)).isEqualTo(1);
            assertThat(choiceAfter(p, LONG)).as("long: to tasks").isFalse();
        } finally {
            s.close(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A scheduler that runs nothing has both workers idle: every sample taken with another message waiting sees a
     * spare worker.
     */
    @Test
    void middlingMessagesGoToTasksWhenOthersWaitAndAWorkerIsSpareAndComeBackOnlyWhenCheap() {
        Scheduler s = new Scheduler("placement-spare", 2, 64, 64, 0);
        try {
            LetterPlacement p = new LetterPlacement(s);
            assertThat(choiceAfter(p, MIDDLING)).as("nothing waits: no use for a spare worker").isTrue();
            int half = LetterPlacement.TRIAL / 2;
            assertThat(choiceAfter(p, MIDDLING, half - 1)).as("fewer than half saw one waiting").isTrue();
            assertThat(choiceAfter(p, MIDDLING, half)).as("half saw one waiting and a worker spare").isFalse();
            assertThat(choiceAfter(p, LetterPlacement.MIN_ELSEWHERE - 200))
                    .as("a little under a hand-over: still in tasks for the spare worker").isFalse();
            assertThat(choiceAfter(p, LetterPlacement.SPARE_WORKER_BACK - 200)).as("cheap: inline again").isTrue();
            assertThat(choiceAfter(p, LetterPlacement.MIN_ELSEWHERE - 200, LetterPlacement.TRIAL))
                    .as("shorter than a hand-over, a spare worker is no reason").isTrue();
            assertThat(choiceAfter(p, LONG)).as("long: to tasks").isFalse();
            assertThat(choiceAfter(p, LetterPlacement.MIN_ELSEWHERE - 200))
                    .as("gone to tasks for their length: back below one hand-over").isTrue();
        } finally {
            s.close(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void onOneWorkerNothingIsTimedAgain() {
        Scheduler s = new Scheduler("placement-1w", 1, 64, 64, 0);
        try {
            LetterPlacement p = new LetterPlacement(s);
            assertThat(p.gapAfter(LONG)).isEqualTo(Integer.MAX_VALUE);
            assertThat(p.choose()).isTrue();
        } finally {
            s.close(10, TimeUnit.SECONDS);
        }
    }
}

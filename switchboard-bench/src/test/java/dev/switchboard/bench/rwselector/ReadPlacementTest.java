package dev.switchboard.bench.rwselector;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The choice of where a reader-writer selector's reads run, fed with batch lengths by hand. */
class ReadPlacementTest {

    /** Starts {@code batches} batches, each timed one taking {@code nanos}; returns the last placement. */
    private static boolean feed(ReadPlacement p, int batches, long nanos) {
        boolean inline = p.inline();
        for (int i = 0; i < batches; i++) {
            inline = p.runInline();
            if (p.timeNext()) {
                p.batchTook(nanos);
            }
        }
        return inline;
    }

    @Test
    void batchesStartAsTasksAndEveryOneIsTimedUntilTheFirstChoice() {
        ReadPlacement p = new ReadPlacement(2);
        for (int i = 0; i < ReadPlacement.TRIAL; i++) {
            assertThat(p.runInline()).as("batch %d", i).isFalse();
            assertThat(p.timeNext()).as("batch %d", i).isTrue();
            p.batchTook(20_000);
        }
        assertThat(p.runInline()).as("after a trial of long batches").isFalse();
    }

    @Test
    void cheapBatchesComeInlineAndLongOnesGoBackToTasks() {
        ReadPlacement p = new ReadPlacement(2);
        assertThat(feed(p, ReadPlacement.TRIAL + 1, 500)).isTrue();
        // After the first choice about one batch in SAMPLE_PERIOD is timed: enough batches for another trial.
        assertThat(feed(p, 64 * ReadPlacement.TRIAL * ReadPlacement.SAMPLE_PERIOD, 30_000)).isFalse();
        assertThat(feed(p, 64 * ReadPlacement.TRIAL * ReadPlacement.SAMPLE_PERIOD, 500)).isTrue();
    }

    @Test
    void batchesBetweenTheTwoLinesStayWhereTheyAre() {
        long between = (ReadPlacement.INLINE_BELOW_NANOS + ReadPlacement.TASKS_ABOVE_NANOS) / 2;
        ReadPlacement tasks = new ReadPlacement(2);
        assertThat(feed(tasks, 64 * ReadPlacement.TRIAL * ReadPlacement.SAMPLE_PERIOD, between)).isFalse();
        ReadPlacement inline = new ReadPlacement(2);
        assertThat(feed(inline, ReadPlacement.TRIAL + 1, 500)).isTrue();
        assertThat(feed(inline, 64 * ReadPlacement.TRIAL * ReadPlacement.SAMPLE_PERIOD, between)).isTrue();
    }

    @Test
    void aFewLongBatchesAmongCheapOnesDoNotMoveThem() {
        ReadPlacement p = new ReadPlacement(2);
        for (int i = 0; i < 20 * ReadPlacement.TRIAL; i++) {
            p.runInline();
            p.timeNext();
            p.batchTook(i % 4 == 0 ? 1_000_000 : 300);      // a quarter pre-empted: the median stays cheap
        }
        assertThat(p.runInline()).isTrue();
    }

    @Test
    void afterTheFirstChoiceAboutOneBatchInTheSamplePeriodIsTimed() {
        ReadPlacement p = new ReadPlacement(2);
        feed(p, ReadPlacement.TRIAL + 1, 500);
        int batches = 64_000;
        int timed = 0;
        for (int i = 0; i < batches; i++) {
            p.runInline();
            if (p.timeNext()) {
                timed++;
                p.batchTook(500);
            }
        }
        int expected = batches / ReadPlacement.SAMPLE_PERIOD;
        assertThat(timed).isBetween(expected / 2, expected * 2);
    }

    @Test
    void onOneWorkerEveryBatchRunsInlineAndNoneIsTimed() {
        ReadPlacement p = new ReadPlacement(1);
        for (int i = 0; i < 10 * ReadPlacement.TRIAL; i++) {
            assertThat(p.runInline()).isTrue();
            assertThat(p.timeNext()).isFalse();
        }
    }

    @Test
    void theMedianOfTheRing() {
        assertThat(ReadPlacement.median(new int[] {5, 1, 9, 3})).isEqualTo(5);
        assertThat(ReadPlacement.median(new int[] {7})).isEqualTo(7);
    }
}

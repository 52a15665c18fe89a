package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The ground counts dead letters by the number of their reason ({@code DeadLetter.Reason}, which it does not name):
 * it has a count for every reason, and one out of range counts as the last.
 */
class DeadLetterReasonsTest {
    @Test
    void everyReasonHasACountOfItsOwn() throws Exception {
        int reasons = Class.forName("dev.switchboard.actor.DeadLetter$Reason").getEnumConstants().length;
        assertThat(DeadLetters.REASONS).isGreaterThanOrEqualTo(reasons);
    }

    @Test
    void countsAreKeptApartAndSummed() {
        Scheduler s = new Scheduler("dead-letter-reasons", 1, 64, 64, 0);
        try {
            DeadLetters d = s.deadLetters();
            d.countOne(0);
            d.countOne(2);
            d.count(2, 5);
            d.countOne(-1);                              // out of range: the last count
            assertThat(d.counted(0)).isEqualTo(1);
            assertThat(d.counted(2)).isEqualTo(6);
            assertThat(d.counted(DeadLetters.REASONS - 1)).isEqualTo(1);
            assertThat(d.counted()).isEqualTo(8);
        } finally {
            s.close(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}

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
            s.countDeadLetter(0);
            s.countDeadLetter(2);
            s.countDeadLetters(2, 5);
            s.countDeadLetter(-1);                       // out of range: the last count
            assertThat(s.deadLetterCount(0)).isEqualTo(1);
            assertThat(s.deadLetterCount(2)).isEqualTo(6);
            assertThat(s.deadLetterCount(DeadLetters.REASONS - 1)).isEqualTo(1);
            assertThat(s.deadLetterCount()).isEqualTo(8);
        } finally {
            s.close(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}

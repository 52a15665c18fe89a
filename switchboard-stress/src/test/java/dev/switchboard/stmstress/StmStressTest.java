package dev.switchboard.stmstress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A short run of the stm stress: exact final states of a bank and a sorted list of transactional actors. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StmStressTest {
    @Test
    void transfersKeepTheTotalAndTheListStaysSortedAndCounted() {
        StmStress.Outcome o = StmStress.run(40_000, 42);
        assertThat(o.problems()).isEmpty();
        assertThat(o.bankCommits()).isEqualTo(40_001);
        assertThat(o.audits()).isEqualTo(20);
        assertThat(o.listOps()).isEqualTo(4_000 / 4 * 4 + 1);
    }
}

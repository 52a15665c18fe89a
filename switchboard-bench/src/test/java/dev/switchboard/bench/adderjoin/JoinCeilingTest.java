package dev.switchboard.bench.adderjoin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link JoinCeiling} joins the driver's numbers to the benchmark's sum on every side. Not a timing test. */
class JoinCeilingTest {
    @Test
    @Timeout(60)
    void oneThreadAndTwoThreadsSumEveryRound() throws Exception {
        for (int sources : new int[] {1, 3, 8}) {
            long expected = new AdderJoin(sources, 5_000, false).expected();
            assertThat(JoinCeiling.oneThread(sources, 5_000)).as("one thread, %d sources", sources).isEqualTo(expected);
            for (int batch : new int[] {1, 7, 5_000, JoinCeiling.LARGE_BATCH}) {
                assertThat(JoinCeiling.twoThreads(sources, 5_000, batch))
                        .as("two threads, %d sources, batches of %d rounds", sources, batch).isEqualTo(expected);
            }
        }
    }

    @Test
    @Timeout(120)
    void everySideIsCheckedAndTimed() throws Exception {
        JoinCeiling.Result r = JoinCeiling.measure(8, 2_000, 2);
        assertThat(List.of(r.oneThreadMs(), r.twoThreadsMs(), r.twoThreadsBatchedMs(), r.oneWorkerMs(),
                r.twoWorkersMs()))
                .allSatisfy(ms -> assertThat(ms).isPositive());
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> JoinCeiling.main(new String[] {"0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SOURCES").hasMessageContaining("'0'");
        assertThatThrownBy(() -> JoinCeiling.main(new String[] {"8", "x"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ROUNDS").hasMessageContaining("'x'");
    }
}

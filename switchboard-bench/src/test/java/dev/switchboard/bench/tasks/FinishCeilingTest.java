package dev.switchboard.bench.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link FinishCeiling} runs its three sides to the checksum; the least finish computes fib. Not a timing test. */
class FinishCeilingTest {
    @Test
    @Timeout(60)
    void everySideComputesFib() throws Exception {
        FinishCeiling.Result r = FinishCeiling.measure(new FibFinish(20, 6), 2, 6);
        assertThat(List.of(r.switchboardMs(), r.poolMs(), r.leastFinishMs()))
                .allSatisfy(ms -> assertThat(ms).isPositive());
        assertThat(r.workers()).isEqualTo(2);
        assertThat(r.ofCeiling()).isEqualTo(r.ratio() / r.ceiling(), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    @Timeout(60)
    void theLeastFinishWaitsForEveryTaskOfItsTree() {
        // fib(25) with a finish from n = 3 up: thousands of nested finishes, each of whose async may be stolen; a
        // finish that returned before its async ended would leave r[0] at 0 and the sum short
        try (ForkJoinPool pool = new ForkJoinPool(2)) {
            for (int run = 0; run < 20; run++) {
                long[] result = new long[1];
                pool.invoke(new CountedCompleter<Void>() {
                    @Override
                    public void compute() {
                        result[0] = FinishCeiling.leastFinish(25, 3, this);
                        tryComplete();
                    }
                });
                assertThat(result[0]).isEqualTo(Fib.iterative(25));
            }
        }
    }

    @Test
    void aBadArgumentIsNamed() {
        assertThatThrownBy(() -> FinishCeiling.main(new String[] {"0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ROUNDS").hasMessageContaining("0");
    }
}

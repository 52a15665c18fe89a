package dev.switchboard.bench.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LoopCeiling} runs its four sides to the checksum on a small loop and times every chunk. Not a timing test. */
class LoopCeilingTest {
    @Test
    @Timeout(60)
    void everySideSumsTheChecksumAndTheTimedSidesTimeTheirLoops() throws Exception {
        LoopCeiling.Result r = LoopCeiling.measure(new ParallelLoop(1 << 14, 1 << 10), 2, 4, 1);
        assertThat(List.of(r.switchboardMs(), r.poolMs(), r.timedSwitchboardMs(), r.switchboardLoopMs(),
                r.timedPoolMs(), r.poolLoopMs())).allSatisfy(ms -> assertThat(ms).isPositive());
        assertThat(r.iterations()).isEqualTo(1 << 14);
        assertThat(r.switchboardNsPerIteration()).isPositive();
        assertThat(r.poolNsPerIteration()).isPositive();
    }

    @Test
    @Timeout(60)
    void switchboardNeverReachesMoreThanItsCeiling() throws Exception {
        // Without the warm-up nothing blocks a worker, so only the two workers run the chunks, one at a time each,
        // within the run: the loops' time is at most twice the run's in every round, and medians keep that order.
        LoopCeiling.Result r = LoopCeiling.measure(new ParallelLoop(1 << 14, 1 << 10), 2, 6, 0);
        assertThat(r.switchboardOfCeiling()).isPositive().isLessThanOrEqualTo(1.0);
        assertThat(r.poolOfCeiling()).isPositive();
    }

    @Test
    void aBadArgumentIsNamed() {
        assertThatThrownBy(() -> LoopCeiling.main(new String[] {"-3"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ROUNDS").hasMessageContaining("-3");
    }
}

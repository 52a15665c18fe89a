package dev.switchboard.bench.monitordict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ReadCeiling} runs its four sides to the checksum on a small list. Not a timing test. */
class ReadCeilingTest {
    @Test
    @Timeout(60)
    void everySideReadsTheChecksumAndIsTimed() throws Exception {
        ReadCeiling.Result r = ReadCeiling.measure(new Workload(2_000, 400, 0), 4);
        assertThat(java.util.List.of(r.actorMs(), r.monitorMs(), r.oneThreadMs(), r.twoThreadsMs()))
                .allSatisfy(ms -> assertThat(ms).isPositive());
    }

    @Test
    void aBadArgumentIsNamed() {
        assertThatThrownBy(() -> ReadCeiling.main(new String[] {"150000", "-3"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ROUNDS").hasMessageContaining("-3");
    }
}

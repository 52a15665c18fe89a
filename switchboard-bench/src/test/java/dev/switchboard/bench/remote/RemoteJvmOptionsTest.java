package dev.switchboard.bench.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The remote benchmarks' child JVMs run the harness's collector, with a heap of their own. */
class RemoteJvmOptionsTest {
    @Test
    void childrenTakeTheCollectorFlagsAndNothingElseOfTheParent() {
        assertThat(Remote.heapAndCollector(List.of("-Xms2g", "-XX:+UseZGC", "-XX:+ZGenerational", "-Dx=y")))
                .containsExactly("-Xms1g", "-Xmx1g", "-XX:+UseZGC", "-XX:+ZGenerational");
        assertThat(Remote.heapAndCollector(List.of("-Xmx2g", "-XX:+UseParallelGC")))
                .containsExactly("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
        assertThat(Remote.heapAndCollector(List.of("-Xmx2g"))).containsExactly("-Xms1g", "-Xmx1g");
    }
}

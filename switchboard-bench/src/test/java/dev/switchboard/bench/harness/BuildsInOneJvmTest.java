package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BuildsInOneJvm} with this build as both builds: each in a class loader of its own, with a runtime of its
 * own. The test's class path stands for a build's jar.
 */
@Timeout(120)
class BuildsInOneJvmTest {
    /** This build, as a class path a class loader of its own can load it from. */
    private static final String THIS_BUILD = Stream.of(System.getProperty("java.class.path"),
            System.getProperty("jdk.module.path")).filter(p -> p != null && !p.isEmpty())
            .collect(Collectors.joining(File.pathSeparator));

    @Test
    void runsEachBenchmarkOnBothBuildsAndPrintsTheSecondOverTheFirst() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<BuildsInOneJvm.Row> rows = BuildsInOneJvm.compare(THIS_BUILD, THIS_BUILD, List.of("PingPong", "counting"),
                3, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(rows).extracting(BuildsInOneJvm.Row::benchmark).containsExactly("PingPong", "counting");
        for (BuildsInOneJvm.Row r : rows) {
            assertThat(r.firstMs()).isPositive();
            assertThat(r.secondMs()).isPositive();
            assertThat(r.ratio()).isEqualTo(r.secondMs() / r.firstMs());
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out.lines().toList()).hasSize(3);
        assertThat(out.lines().skip(1).map(l -> l.split("\\s+")[0]).toList()).containsExactly("PingPong", "counting");
    }

    @Test
    void eachBuildHasItsOwnClassesAndRuntime() throws Exception {
        try (BuildsInOneJvm.Build a = new BuildsInOneJvm.Build(THIS_BUILD, List.of("PingPong"), 1);
                BuildsInOneJvm.Build b = new BuildsInOneJvm.Build(THIS_BUILD, List.of("PingPong"), 1)) {
            Class<?> ours = dev.switchboard.task.TaskRuntime.class;
            assertThat(a.runtime.getClass().getName()).isEqualTo(ours.getName());
            assertThat(a.runtime.getClass()).isNotSameAs(ours).isNotSameAs(b.runtime.getClass());
            assertThat(a.runtime.getClass().getClassLoader()).isSameAs(a.loader);
            assertThat(b.benchmarks.get(0).getClass().getClassLoader()).isSameAs(b.loader);
            assertThat(a.runOnce(0, "PingPong")).isPositive();
        }
    }

    @Test
    void aBenchmarkABuildDoesNotHaveIsNamed() {
        assertThatThrownBy(() -> BuildsInOneJvm.compare(THIS_BUILD, THIS_BUILD, List.of("NoSuchBenchmark"), 3, 1,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no benchmark NoSuchBenchmark");
    }

    @Test
    void fewerThanThreeRoundsAreRefused() {
        assertThatThrownBy(() -> BuildsInOneJvm.compare(THIS_BUILD, THIS_BUILD, List.of("PingPong"), 2, 1,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 3 rounds");
    }

    @Test
    void theMedianLeavesTheWarmUpOut() {
        assertThat(BuildsInOneJvm.median(new double[] {100, 100, 100, 3, 1, 2}, 3)).isEqualTo(2);
        assertThat(BuildsInOneJvm.median(new double[] {100, 4, 1, 3, 2}, 1)).isEqualTo(2.5);
    }
}

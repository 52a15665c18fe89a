package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testing.ClassPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real OutOfMemoryError, injected by exhausting the heap of a JVM of its own ({@link OutOfMemoryScenario}):
 * the finish fails with it instead of hanging, the watchdog lives on, closing frees what the actors held, and
 * the runtime runs its workload again, exactly, once memory is back (so its workers survived, or were replaced
 * without losing work; the scenario prints how many died, which is none in practice).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class OutOfMemoryTest {

    @Test
    void theRuntimeContainsARealOutOfMemoryError() throws Exception {
        Path out = Files.createTempFile("switchboard-oom", ".txt");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", ClassPaths.everything(),
                OutOfMemoryScenario.class.getName())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean exited = p.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        List<String> lines = read(out);
        String all = String.join("\n", lines);
        assertThat(exited).as("the scenario ended (a hang would not): %s", all).isTrue();
        Map<String, String> facts = lines.stream().filter(l -> l.matches("[a-zA-Z.]+: .*"))
                .collect(Collectors.toMap(l -> l.substring(0, l.indexOf(':')), l -> l.substring(l.indexOf(':') + 2),
                        (a, b) -> a));
        assertThat(facts).as(all)
                .containsEntry("fill.finish", "threw OutOfMemoryError")
                .containsEntry("fill.watchdogAlive", "true")
                .containsEntry("fill.closed", "true")
                .containsEntry("survive.second.processed", "400000")
                .containsEntry("survive.watchdogAlive", "true")
                .containsEntry("survive.closed", "true")
                .containsEntry("done", "true");
        assertThat(facts.get("survive.first")).as(all).startsWith("threw");
        assertThat(p.exitValue()).isZero();
        Files.deleteIfExists(out);
    }

    private static List<String> read(Path p) throws IOException {
        return Files.readAllLines(p, StandardCharsets.UTF_8);
    }
}

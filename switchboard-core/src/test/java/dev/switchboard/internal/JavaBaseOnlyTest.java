package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The core runs on java.base alone: in a JVM limited to it ({@code --limit-modules java.base}, the core on the class
 * path), the JFR events are off (their classes are never loaded) and a runtime runs an actor.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JavaBaseOnlyTest {
    @Test
    void aRuntimeRunsWithJavaBaseAloneAndNoJfr() throws Exception {
        String classes = location(JfrHook.class);
        String testClasses = location(JavaBaseOnlyMain.class);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "--limit-modules", "java.base", "-cp",
                classes + File.pathSeparator + testClasses, JavaBaseOnlyMain.class.getName()))
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(100, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("jfr false, processed 42");
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}

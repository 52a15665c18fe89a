package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The embedded default with real child JVMs: places start, connect in a full mesh and end; a launcher killed
 * (SIGKILL) or stopped (SIGTERM) leaves no child behind; a child that cannot start fails the launch, saying why.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlaceLauncherTest {

    @Test
    void placesStartConnectAnswerAndEnd() throws Exception {
        List<ProcessHandle> children;
        try (PlaceLauncher launcher = PlaceLauncher.launch(3, List.of("-Xmx64m"), List.of(), PlaceLauncherTest::transport,
                Duration.ofSeconds(60))) {
            children = launcher.children();
            assertThat(children).hasSize(2).allSatisfy(h -> assertThat(h.isAlive()).isTrue());
            // the places' secret went through each child's standard input: no command line shows it
            assertThat(children).allSatisfy(h -> assertThat(h.info().arguments().orElseThrow())
                    .noneMatch(a -> a.toLowerCase(java.util.Locale.ROOT).contains("secret"))
                    .allMatch(a -> a.length() < 40 || !a.matches("[A-Za-z0-9+/]+={0,2}")));
            assertThat(launcher.names()).containsExactly("p0", "p1", "p2");
            // the data path to each child, handshake done: its transport answers a ping
            for (int place = 1; place <= 2; place++) {
                assertThat(launcher.transport().isConnected(place)).isTrue();
                assertThat(launcher.transport().ping(place, Duration.ofSeconds(20))).isPositive();
            }
        }
        for (ProcessHandle h : children) {
            assertThat(h.onExit().get(20, TimeUnit.SECONDS).isAlive()).isFalse();
        }
    }

    @Test
    void aKilledLauncherLeavesNoChildBehind() throws Exception {
        assertChildrenEndWhenTheLauncherIs(true);
    }

    @Test
    void aStoppedLauncherLeavesNoChildBehind() throws Exception {
        assertChildrenEndWhenTheLauncherIs(false);
    }

    private static void assertChildrenEndWhenTheLauncherIs(boolean killed) throws Exception {
        String classPath = Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator));
        Process launcher = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", classPath, PlaceLauncher.class.getName(), "--places", "3")
                .redirectErrorStream(true).start();
        try {
            List<Long> pids = null;
            BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                    StandardCharsets.UTF_8));
            StringBuilder seen = new StringBuilder();
            for (String line; pids == null && (line = out.readLine()) != null; ) {
                seen.append(line).append('\n');
                if (line.startsWith("switchboard-launcher children ")) {
                    pids = Arrays.stream(line.substring("switchboard-launcher children ".length()).split(" "))
                            .map(Long::parseLong).toList();
                }
            }
            assertThat(pids).as("the launcher's children; it printed:%n%s", seen).isNotNull().hasSize(2);
            for (long pid : pids) {
                assertThat(ProcessHandle.of(pid)).as("child %d", pid).hasValueSatisfying(h ->
                        assertThat(h.isAlive()).isTrue());
            }
            if (killed) {
                launcher.destroyForcibly();                   // SIGKILL: no hook runs; the pipes close
            } else {
                launcher.destroy();                           // SIGTERM: its shutdown hook runs
            }
            assertThat(launcher.waitFor(20, TimeUnit.SECONDS)).isTrue();
            for (long pid : pids) {
                Optional<ProcessHandle> child = ProcessHandle.of(pid);
                if (child.isPresent()) {
                    child.get().onExit().get(20, TimeUnit.SECONDS);
                }
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("child %d", pid)
                        .isIn(Optional.empty(), Optional.of(false));
            }
        } finally {
            launcher.destroyForcibly();
        }
    }

    @Test
    void aChildThatCannotStartFailsTheLaunchSayingWhy() {
        assertThatThrownBy(() -> PlaceLauncher.launch(2, List.of("-XX:+NoSuchSwitchboardOption"), List.of(),
                PlaceLauncherTest::transport,
                Duration.ofSeconds(60))).isInstanceOf(PlaceConnectionException.class)
                .hasMessageMatching("(?s)place p1 \\(pid \\d+\\) exited with status 1 before 'switchboard-place"
                        + " ready 1'.*NoSuchSwitchboardOption.*");
    }

    /** A JVM that cannot start says why on its standard output: that is what the failure quotes then. */
    @Test
    void aChildJvmThatSaysWhyOnItsOutputIsQuoted() {
        assertThatThrownBy(() -> PlaceLauncher.launch(2, List.of("-Xmx1k"), List.of(), PlaceLauncherTest::transport,
                Duration.ofSeconds(60))).isInstanceOf(PlaceConnectionException.class)
                .hasMessageMatching("(?s)place p1 \\(pid \\d+\\) exited with status 1 before 'switchboard-place"
                        + " ready 1': \\(no error output; its output ended with: .*Too small maximum heap.*\\)");
    }

    /** At its place, writes to {@code System.err}, and logs a failure (which the JDK's logging writes there). */
    record NewLoud() implements ActorRecipe<String> {
        @Override
        public dev.switchboard.actor.Actor<String> create() {
            return new dev.switchboard.actor.Actor<>() {
                @Override
                protected void process(String m) {
                    System.err.println("loud says " + m + " on its error output");
                    System.getLogger("dev.switchboard.test").log(System.Logger.Level.ERROR, "loud logs a failure",
                            new IllegalStateException("loud failed on " + m));
                    exit();
                }
            };
        }
    }

    @Test
    void whatAChildWritesToItsErrorOutputAndLogsIsSeenOnTheLaunchersPrefixedWithItsName() throws Exception {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
        java.io.PrintStream both = new java.io.PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                synchronized (seen) {
                    seen.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                synchronized (seen) {
                    seen.write(b, off, len);
                }
            }
        }, true, StandardCharsets.UTF_8);
        System.setErr(both);
        try {
            Places.builder().places(2).workers(1).messages(NewLoud.class).run(places ->
                    places.<String>start(1, new NewLoud()).send("hello"));
            java.util.function.Supplier<String> text = () -> {
                synchronized (seen) {
                    return seen.toString(StandardCharsets.UTF_8);
                }
            };
            TransportTest.waitUntil("p1's error output is on this JVM's, prefixed with its name", () -> {
                String err = text.get();
                return err.contains("[p1] loud says hello on its error output\n")
                        && err.contains("[p1] SEVERE: loud logs a failure\n")
                        && err.contains("[p1] java.lang.IllegalStateException: loud failed on hello\n");
            }, () -> "; this JVM's error output was:\n" + text.get());
        } finally {
            System.setErr(original);
        }
    }

    /** Place 0's transport for a launch that sends nothing. */
    private static Transport transport(String run, List<String> names, Authentication auth) {
        return new Transport(0, run, names, new MessageCodec(List.of(), "the launcher"), (from, m) -> { },
                TransportSettings.DEFAULTS, auth);
    }
}

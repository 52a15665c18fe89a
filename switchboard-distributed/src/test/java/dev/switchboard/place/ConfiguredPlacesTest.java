package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paper's "manually start up each place": every place a JVM started by some process manager (here: this test)
 * with the configuration file and its place's name, all running the same {@code main}. Place 0 runs the program's
 * body; the others serve until global termination, then their {@code main} returns and their JVM ends.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConfiguredPlacesTest {
    record Hop(int left, ActorRef<Hop> back) {
    }

    record NewBouncer() implements ActorRecipe<Hop> {
        @Override
        public Actor<Hop> create() {
            return new Actor<>() {
                @Override
                protected void process(Hop h) {
                    h.back().send(new Hop(h.left(), self()));
                    if (h.left() == 0) {
                        exit();
                    }
                }
            };
        }
    }

    /** Place 0's side: bounces a hop off an actor at every other place, {@code rounds} times each. */
    static final class Thrower extends Actor<Hop> {
        volatile int answers;                 // read by tests while it runs
        private int open;

        Thrower(List<ActorRef<Hop>> bouncers, int rounds) {
            this.open = bouncers.size();
            for (ActorRef<Hop> b : bouncers) {
                b.send(new Hop(rounds, self()));
            }
        }

        @Override
        protected void process(Hop h) {
            answers++;
            if (h.left() > 0) {
                h.back().send(new Hop(h.left() - 1, self()));
            } else if (--open == 0) {
                exit();
            }
        }
    }

    static Thrower thrower;

    /** The program every place runs; the places' arguments say which place this JVM is. */
    public static void main(String[] args) throws Exception {
        PlacesReport report = launch(args);
        System.out.println("served: " + report.places());
        // a served place's report is its own: its bootstrap, then its part of the program
        System.out.println("its part timed: " + (report.body().compareTo(java.time.Duration.ZERO) > 0));
    }

    static PlacesReport launch(String... args) throws InterruptedException {
        return Places.builder().workers(1).messages(Hop.class, NewBouncer.class).args(args).run(places -> {
            List<ActorRef<Hop>> bouncers = new ArrayList<>();
            for (int p = 1; p < places.count(); p++) {
                bouncers.add(places.start(p, new NewBouncer()));
            }
            thrower = new Thrower(bouncers, 100);
            thrower.start();
        });
    }

    @Test
    void placesStartedOneByOneFromTheFileRunTheProgramAndEndAtGlobalTermination(@TempDir Path dir)
            throws Exception {
        int[] ports = TestPorts.free(3);
        Path conf = dir.resolve("places.conf");
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "the places' shared secret, 32 b.");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.writeString(conf, threePlaces(ports, "secretFile: secret"));          // beside this file
        List<Process> others = new ArrayList<>();
        try {
            for (String name : List.of("right", "left")) {          // any order: each waits for the others
                others.add(new ProcessBuilder(java(), "-cp", classPath(), ConfiguredPlacesTest.class.getName(),
                        "--config", conf.toString(), "--place", name).redirectErrorStream(true)
                        .redirectOutput(dir.resolve(name + ".out").toFile()).start());
            }
            PlacesReport report = launch("--config", conf.toString());
            assertThat(report.places()).containsExactly("master", "left", "right");
            assertThat(thrower.answers).isEqualTo(2 * 101);
            assertThat(report.totalDeadLetters()).isZero();
            for (Process p : others) {
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("a served place's JVM ends").isTrue();
                assertThat(p.exitValue()).isZero();
            }
            assertThat(Files.readString(dir.resolve("left.out"))).contains("served: [master, left, right]")
                    .contains("its part timed: true");
        } finally {
            others.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void aPlaceWaitsForTheOthersAsLongAsTheFilesBootstrapTimeoutSays(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("places.conf");
        Files.writeString(conf, threePlaces(TestPorts.free(3), "mode: unauthenticated-insecure")
                .replace("security {", "bootstrapTimeout: 1500ms\n  security {"));
        assertThatThrownBy(() -> launch("--config", conf.toString()))          // left and right never start
                .isInstanceOf(PlaceConnectionException.class).hasMessageContaining("1500 ms")
                .hasMessageContaining("the bootstrap timeout");
    }

    /**
     * Place left never starts; place right, whose bootstrap timeout is the file's 5 s, gives up on it while place 0
     * (60 s, the builder's) still waits. Place 0 hears why right left, at once; right never ran the program, and
     * does not say it lost place 0 "while the program ran" as it closes its own connections.
     */
    @Test
    void aPlaceThatGivesUpJoiningTellsThePlacesItReachedWhy(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("places.conf");
        Files.writeString(conf, threePlaces(TestPorts.free(3), "mode: unauthenticated-insecure")
                .replace("security {", "bootstrapTimeout: 5s\n  security {"));
        Process right = new ProcessBuilder(java(), "-cp", classPath(), ConfiguredPlacesTest.class.getName(),
                "--config", conf.toString(), "--place", "right").redirectErrorStream(true)
                .redirectOutput(dir.resolve("right.out").toFile()).start();
        try {
            assertThatThrownBy(() -> Places.builder().workers(1).messages(Hop.class, NewBouncer.class)
                    .bootstrapTimeout(java.time.Duration.ofSeconds(60)).args("--config", conf.toString())
                    .run(places -> { }))
                    .isInstanceOf(PlaceConnectionException.class)
                    .hasMessageStartingWith("place master cannot join: place right was lost while the places joined:"
                            + " it gave up joining the places: place right is not connected to left after 5000 ms,"
                            + " the bootstrap timeout");
            assertThat(right.waitFor(60, TimeUnit.SECONDS)).as("place right's JVM ends").isTrue();
            assertThat(Files.readString(dir.resolve("right.out")))
                    .contains("place right is not connected to left after 5000 ms, the bootstrap timeout")
                    .doesNotContain("while the program ran");
        } finally {
            right.destroyForcibly();
        }
    }

    /** An actor that fails on its first message. */
    record NewQuitter() implements ActorRecipe<Hop> {
        @Override
        public Actor<Hop> create() {
            return new Actor<>() {
                @Override
                protected void process(Hop h) {
                    throw new IllegalStateException("the quitter gave up at hop " + h.left());
                }
            };
        }
    }

    /** A program that fails on place 1: every place's {@code run} throws, so every place's JVM ends with status 1. */
    public static final class FailingProgram {
        public static void main(String[] args) throws Exception {
            Places.builder().workers(1).messages(Hop.class, NewQuitter.class).args(args)
                    .run(places -> places.start(1, new NewQuitter()).send(new Hop(7, null)));
        }
    }

    @Test
    void whenTheProgramFailsEveryPlacesRunThrowsItsFailures(@TempDir Path dir) throws Exception {
        int[] ports = TestPorts.free(3);
        Path conf = dir.resolve("places.conf");
        Files.writeString(conf, threePlaces(ports, "mode: unauthenticated-insecure"));
        List<Process> places = new ArrayList<>();
        try {
            for (String name : List.of("master", "left", "right")) {
                places.add(new ProcessBuilder(java(), "-cp", classPath(), FailingProgram.class.getName(),
                        "--config", conf.toString(), "--place", name).redirectErrorStream(true)
                        .redirectOutput(dir.resolve(name + ".out").toFile()).start());
            }
            for (int i = 0; i < 3; i++) {
                assertThat(places.get(i).waitFor(60, TimeUnit.SECONDS)).as("place %d's JVM ends", i).isTrue();
            }
            for (String name : List.of("master", "left", "right")) {
                assertThat(Files.readString(dir.resolve(name + ".out"))).as(name + "'s output")
                        .contains("MultiException: 1 failure in finish")
                        .contains("on place left: java.lang.IllegalStateException: the quitter gave up at hop 7");
            }
            assertThat(places).as("every place's exit status").allSatisfy(p -> assertThat(p.exitValue()).isOne());
        } finally {
            places.forEach(Process::destroyForcibly);
        }
    }

    /**
     * The same program started as a Slurm job step would start it: three processes with nothing but the
     * environment Slurm gives its tasks (here, three tasks on one node, 127.0.0.1), no configuration file.
     */
    @Test
    void placesStartedByASlurmStepFindEachOtherFromTheirEnvironment(@TempDir Path dir) throws Exception {
        int base = TestPorts.consecutive(3);
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "the job's shared secret, 32 byte");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        List<Process> tasks = new ArrayList<>();
        try {
            for (int rank = 2; rank >= 0; rank--) {                  // any order
                ProcessBuilder pb = new ProcessBuilder(java(), "-cp", classPath(), ConfiguredPlacesTest.class.getName())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("task-" + rank + ".out").toFile());
                pb.environment().putAll(java.util.Map.of("SWITCHBOARD_ENVIRONMENT", "slurm", "SLURM_PROCID",
                        String.valueOf(rank), "SLURM_NTASKS", "3", "SLURM_JOB_NODELIST", "127.0.0.1",
                        "SLURM_TASKS_PER_NODE", "3", "SWITCHBOARD_PORT", String.valueOf(base),
                        "SWITCHBOARD_SECRET_FILE", secret.toString()));
                tasks.add(pb.start());
            }
            for (Process p : tasks) {
                assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("a task's JVM ends").isTrue();
            }
            for (int rank = 0; rank < 3; rank++) {
                assertThat(Files.readString(dir.resolve("task-" + rank + ".out")))
                        .contains("served: [task-0, task-1, task-2]");
            }
            assertThat(tasks).allSatisfy(p -> assertThat(p.exitValue()).isZero());
        } finally {
            tasks.forEach(Process::destroyForcibly);
        }
    }

    /** A configuration of the places master, left and right at {@code ports}, with {@code security}. */
    private static String threePlaces(int[] ports, String security) {
        return """
                selectorSystem {
                  init { place: master, hostname: "127.0.0.1", port: %d }
                  remote: [
                    { place: left, hostname: "127.0.0.1", port: %d },
                    { place: right, hostname: "127.0.0.1", port: %d }
                  ]
                  security { %s }
                }
                """.formatted(ports[0], ports[1], ports[2], security);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String classPath() {
        return Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator));
    }
}

package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Places on three hosts of their own: Linux network namespaces, each with its own address on a bridge (veth
 * pairs), configured by address as real hosts are, every place listening on the same port of its own host. The
 * program is {@link ConfiguredPlacesTest}'s, each place a JVM started inside its namespace. It needs root and
 * iproute2 ({@code ip netns}), which CI has; where the machine does not allow it, the test is skipped, saying why.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MultiHostPlacesTest {
    /** Three namespaces on a bridge, torn down by {@link #close}, whatever was set up. */
    private static final class Hosts implements AutoCloseable {
        final String tag = HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
        final int subnet = 1 + ThreadLocalRandom.current().nextInt(250);
        final String bridge = "swb" + tag + "br";
        final List<String> namespaces = new ArrayList<>();

        String namespace(int host) {
            return "swb-" + tag + "-h" + host;
        }

        String address(int host) {
            return "10.77." + subnet + "." + (host + 1);
        }

        /** This (the test's) namespace's address on the bridge: a host of its own too. */
        String rootAddress() {
            return "10.77." + subnet + ".254";
        }

        void create(int hosts) throws Exception {
            ip("link", "add", bridge, "type", "bridge");
            ip("link", "set", bridge, "up");
            ip("addr", "add", rootAddress() + "/24", "dev", bridge);
            for (int h = 0; h < hosts; h++) {
                String ns = namespace(h);
                String outside = "swb" + tag + h + "a";
                String inside = "swb" + tag + h + "b";
                ip("netns", "add", ns);
                namespaces.add(ns);
                ip("link", "add", outside, "type", "veth", "peer", "name", inside);
                ip("link", "set", outside, "master", bridge);
                ip("link", "set", outside, "up");
                ip("link", "set", inside, "netns", ns);
                ip("netns", "exec", ns, "ip", "addr", "add", address(h) + "/24", "dev", inside);
                ip("netns", "exec", ns, "ip", "link", "set", inside, "up");
                ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
            }
        }

        @Override
        public void close() {
            for (String ns : namespaces) {
                quietly("netns", "del", ns);              // takes its end of the veth pair, and so the pair
            }
            quietly("link", "del", bridge);
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out.trim());
        }
    }

    private static void quietly(String... args) {
        try {
            ip(args);
        } catch (IOException | InterruptedException e) {
            // gone already, or never made
        }
    }

    /** Why this machine cannot run the test, or null if it can. */
    private static String cannotUseNamespaces() {
        String probe = "swb-probe-" + ProcessHandle.current().pid();
        try {
            ip("netns", "add", probe);
            ip("netns", "del", probe);
            return null;
        } catch (IOException | InterruptedException e) {
            return "network namespaces are not available here (root and iproute2 are needed): " + e.getMessage();
        }
    }

    @Test
    void placesOnThreeHostsConfiguredByAddressRunTheProgram(@TempDir Path dir) throws Exception {
        String why = cannotUseNamespaces();
        Assumptions.assumeTrue(why == null, why);
        try (Hosts hosts = new Hosts()) {
            hosts.create(3);
            secretFile(dir);
            Path conf = dir.resolve("places.conf");
            Files.writeString(conf, """
                    selectorSystem {
                      init { place: master, hostname: "%s", port: 7100 }
                      remote: [
                        { place: left, hostname: "%s", port: 7100 },
                        { place: right, hostname: "%s", port: 7100 }
                      ]
                      security { secretFile: secret }
                    }
                    """.formatted(hosts.address(0), hosts.address(1), hosts.address(2)));
            List<String> names = List.of("master", "left", "right");
            List<Process> places = new ArrayList<>();
            try {
                for (int h = 2; h >= 0; h--) {                       // any order
                    places.add(0, new ProcessBuilder("ip", "netns", "exec", hosts.namespace(h),
                            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath(),
                            ConfiguredPlacesTest.class.getName(), "--config", conf.toString(), "--place",
                            names.get(h)).redirectErrorStream(true)
                            .redirectOutput(dir.resolve(names.get(h) + ".out").toFile()).start());
                }
                for (int h = 0; h < 3; h++) {
                    assertThat(places.get(h).waitFor(120, TimeUnit.SECONDS)).as("%s's JVM ends", names.get(h))
                            .isTrue();
                    assertThat(Files.readString(dir.resolve(names.get(h) + ".out")))
                            .as("what %s printed", names.get(h)).contains("served: [master, left, right]");
                    assertThat(places.get(h).exitValue()).isZero();
                }
            } finally {
                places.forEach(Process::destroyForcibly);
            }
        }
    }

    /**
     * Faults between hosts: this JVM is place 0 on a host of its own (the test's namespace), and every connection to
     * the place on the third host goes through a {@link FaultProxy} here (the place listens at its own address, the
     * others reach it at the proxy: its {@code bind}). First the proxy delays every chunk by 20 ms and the program
     * runs on, slower; then it drops everything, as a link that loses every packet, and the program fails, naming
     * the place (the time from the drop to the failure, against the failure timeout of 2 s, is printed).
     */
    @Test
    void aSlowLinkSlowsTheProgramAndALinkThatLosesEverythingFailsItNamingThePlace(@TempDir Path dir)
            throws Exception {
        String why = cannotUseNamespaces();
        Assumptions.assumeTrue(why == null, why);
        try (Hosts hosts = new Hosts()) {
            hosts.create(3);
            secretFile(dir);
            int master = TestPorts.free(1)[0];
            try (FaultProxy proxy = new FaultProxy(new InetSocketAddress(hosts.address(2), 7100),
                    InetAddress.getByName(hosts.rootAddress()))) {
                Path conf = dir.resolve("places.conf");
                Files.writeString(conf, """
                        selectorSystem {
                          init { place: master, hostname: "%s", port: %d }
                          remote: [
                            { place: left, hostname: "%s", port: 7100 },
                            { place: right, hostname: "%s", port: %d, bind: "%s:7100" }
                          ]
                          security { secretFile: secret }
                          failureTimeout: 2s
                        }
                        """.formatted(hosts.rootAddress(), master, hosts.address(1), hosts.rootAddress(),
                        proxy.address().getPort(), hosts.address(2)));
                proxy.delay(20);
                List<Process> others = new ArrayList<>();
                try {
                    for (int h = 1; h <= 2; h++) {
                        String name = h == 1 ? "left" : "right";
                        others.add(new ProcessBuilder("ip", "netns", "exec", hosts.namespace(h),
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                                classPath(), ConfiguredPlacesTest.class.getName(), "--config", conf.toString(),
                                "--place", name).redirectErrorStream(true)
                                .redirectOutput(dir.resolve(name + ".out").toFile()).start());
                    }
                    ConfiguredPlacesTest.Thrower[] thrower = new ConfiguredPlacesTest.Thrower[1];
                    java.util.concurrent.CompletableFuture<Throwable> run = new java.util.concurrent
                            .CompletableFuture<>();
                    Thread program = new Thread(() -> {
                        try {
                            Places.builder().workers(1).messages(ConfiguredPlacesTest.Hop.class,
                                    ConfiguredPlacesTest.NewBouncer.class).args("--config", conf.toString())
                                    .run(places -> {
                                        List<dev.switchboard.actor.ActorRef<ConfiguredPlacesTest.Hop>> bouncers =
                                                new ArrayList<>();
                                        for (int p = 1; p < places.count(); p++) {
                                            bouncers.add(places.start(p, new ConfiguredPlacesTest.NewBouncer()));
                                        }
                                        thrower[0] = new ConfiguredPlacesTest.Thrower(bouncers, 1_000_000);
                                        thrower[0].start();
                                    });
                            run.complete(null);
                        } catch (Throwable t) {
                            run.complete(t);
                        }
                    }, "multi-host-program");
                    program.setDaemon(true);              // it ends when the places do, in the finally below
                    program.start();
                    long slowStart = System.nanoTime();
                    long deadline = slowStart + TimeUnit.SECONDS.toNanos(90);
                    while (thrower[0] == null || thrower[0].answers < 100) {
                        assertThat(run).as("the program runs on over the slow link").isNotDone();
                        assertThat(System.nanoTime()).as("100 answers within 90 s").isLessThan(deadline);
                        Thread.sleep(10);                      // polling a counter the program raises
                    }
                    long slow = System.nanoTime() - slowStart;
                    proxy.drop();
                    long dropped = System.nanoTime();
                    Throwable failure = run.get(60, TimeUnit.SECONDS);
                    long detected = System.nanoTime() - dropped;
                    assertThat(failure).as("the program fails").isInstanceOf(dev.switchboard.task.MultiException.class);
                    assertThat(failure.getMessage()).contains("right");
                    System.out.printf("multi-host: 100 answers over a 20 ms link in %d ms; a link that loses"
                            + " everything failed the program in %d ms (failure timeout 2000 ms): %s%n",
                            TimeUnit.NANOSECONDS.toMillis(slow), TimeUnit.NANOSECONDS.toMillis(detected),
                            failure.getMessage().lines().findFirst().orElse(""));
                } finally {
                    others.forEach(Process::destroyForcibly);
                }
            }
        }
    }

    /** The places' secret, beside the configuration: {@code secretFile: secret}. */
    private static void secretFile(Path dir) throws IOException {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "the hosts' shared secret, 32 b..");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    private static String classPath() {
        return Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator));
    }
}

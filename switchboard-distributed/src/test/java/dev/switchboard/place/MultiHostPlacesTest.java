package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
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

        void create(int hosts) throws Exception {
            ip("link", "add", bridge, "type", "bridge");
            ip("link", "set", bridge, "up");
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
            Path secret = dir.resolve("secret");
            Files.writeString(secret, "the hosts' shared secret, 32 b..");
            Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
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

    private static String classPath() {
        return Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator));
    }
}

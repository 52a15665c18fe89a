package dev.switchboard.place;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for tests whose places listen on addresses fixed before they start (a configuration file, a Slurm
 * environment), or that need an address where nobody listens.
 *
 * <p>A port the kernel hands out for {@code bind(0)} comes from its ephemeral range, the same range every outgoing
 * connection on the machine draws its local port from: on a busy machine (a CI run beside other builds) such a port,
 * free when probed, can be taken by someone's connection before the child JVM binds it. These ports are drawn at
 * random from below that range, where only a program that names its port binds, and each is probed free first.
 */
final class TestPorts {
    /** The lowest port drawn: above the registered services a test machine runs. */
    private static final int LOWEST = 10_000;

    private TestPorts() {
    }

    /** {@code n} distinct ports, each free now on every address, none in the ephemeral range. */
    static int[] free(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = bindOutsideEphemeral(1);
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            closeAll(held);
        }
        return ports;
    }

    /** The first of {@code n} consecutive ports, each free now on every address, none in the ephemeral range. */
    static int consecutive(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            held.add(bindOutsideEphemeral(n));
            return held.get(0).getLocalPort();
        } finally {
            closeAll(held);
        }
    }

    /**
     * Binds the first of {@code span} consecutive free ports below the ephemeral range (checking the other
     * {@code span - 1} are free too) and returns its socket, which the caller closes.
     */
    private static ServerSocket bindOutsideEphemeral(int span) throws IOException {
        int below = ephemeralLow();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = LOWEST + random.nextInt(below - LOWEST - span);
            List<ServerSocket> probes = new ArrayList<>();
            try {
                for (int i = 0; i < span; i++) {
                    probes.add(new ServerSocket(base + i));
                }
                ServerSocket first = probes.remove(0);
                return first;
            } catch (IOException taken) {
                // another draw
            } finally {
                closeAll(probes);
            }
        }
        throw new IOException("no " + span + " consecutive free ports found between " + LOWEST + " and " + below);
    }

    /** The lowest port of the kernel's ephemeral range (Linux's default, 32768, where it cannot be read). */
    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST + 1_000 ? low : 32_768;
        } catch (IOException | RuntimeException unreadable) {
            return 32_768;
        }
    }

    private static void closeAll(List<ServerSocket> sockets) throws IOException {
        for (ServerSocket s : sockets) {
            s.close();
        }
    }
}

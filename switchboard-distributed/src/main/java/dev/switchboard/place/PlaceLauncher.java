package dev.switchboard.place;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The embedded default: this JVM is place 0 (the master), and the other places are child JVMs on this host
 * ({@link PlaceMain}), on loopback with free ports, started with this JVM's java and class path. {@link #launch}
 * returns once every place is connected to every other (handshakes done); {@link #close} ends them.
 *
 * <p>The places of a launch share a secret, fresh from a {@code SecureRandom} for each launch, with which each
 * connection's handshake proves that both sides belong to it ({@link Authentication}). A child gets it as the
 * first line on its standard input, a pipe only the two processes hold: never on a command line, which any local
 * user can read.
 *
 * <p>No child outlives its launcher: a child halts when its standard input, a pipe from this JVM, ends — which
 * the operating system does when this JVM ends, however it ends (killed, crashed); a shutdown hook also ends
 * them on a normal exit or Ctrl-C. A child that fails before it is ready fails the launch with its exit status and
 * the end of its error output; one that is not ready within the timeout fails it too, and every child started is
 * ended.
 */
final class PlaceLauncher implements AutoCloseable {
    private final List<String> names;
    private final Transport transport;
    private final List<Child> children;
    private final Thread hook;
    /** Set when the program failed: {@link #close} waits a second for each child, not ten. */
    private volatile boolean programFailed;

    /** One child JVM: its process, its standard input, and the lines it prints, one after the other. */
    private record Child(int place, String name, Process process, Writer stdin, BlockingQueue<String> lines,
                         Path errors) {
    }

    /** Makes place 0's transport, given the run's id, the places' names and their authentication. */
    @FunctionalInterface
    interface MasterTransport {
        Transport create(String program, List<String> names, Authentication authentication);
    }

    private PlaceLauncher(List<String> names, Transport transport, List<Child> children, Thread hook) {
        this.names = names;
        this.transport = transport;
        this.children = children;
        this.hook = hook;
    }

    /**
     * Starts {@code places} − 1 child places and connects all of them, this JVM being place 0.
     *
     * @param jvmOptions options for the children's JVMs
     * @param childArgs  more arguments for the children's {@link PlaceMain}
     * @param transports makes place 0's transport, given the run's id and the places' names
     * @throws PlaceConnectionException if a child fails or is not ready within {@code timeout} (every child is
     *         ended then)
     */
    static PlaceLauncher launch(int places, List<String> jvmOptions, List<String> childArgs,
                                MasterTransport transports, Duration timeout)
            throws IOException, InterruptedException {
        if (places < 1 || places > GlobalId.MAX_PLACES) {
            throw new IllegalArgumentException("places are 1 to " + GlobalId.MAX_PLACES + ", not " + places);
        }
        String program = UUID.randomUUID().toString();
        byte[] secret = Authentication.newSecret();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < places; i++) {
            names.add("p" + i);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Child> children = new CopyOnWriteArrayList<>();   // the hook reads it
        Thread hook = new Thread(() -> children.forEach(c -> c.process().destroyForcibly()), "place-launcher-hook");
        Runtime.getRuntime().addShutdownHook(hook);
        Transport transport;
        try {
            for (int i = 1; i < places; i++) {                // they start while this place sets itself up
                children.add(start(i, program, names, jvmOptions, childArgs, secret));
            }
            transport = transports.create(program, List.copyOf(names), Authentication.hmac(secret));
        } catch (IOException | RuntimeException | Error e) {
            children.forEach(c -> c.process().destroyForcibly());
            Runtime.getRuntime().removeShutdownHook(hook);
            throw e;
        }
        PlaceLauncher launcher = new PlaceLauncher(names, transport, children, hook);
        try {
            InetSocketAddress self = transport.bind(new InetSocketAddress("127.0.0.1", 0));
            List<String> addresses = new ArrayList<>();
            addresses.add("127.0.0.1:" + self.getPort());
            for (Child c : children) {
                String ready = awaitLine(c, PlaceMain.READY + " " + c.place() + " ", deadline);
                addresses.add("127.0.0.1:" + ready.substring(ready.lastIndexOf(' ') + 1));
            }
            for (Child c : children) {
                c.stdin().write("addresses " + String.join(",", addresses) + "\n");
                c.stdin().flush();
            }
            List<InetSocketAddress> sockets = addresses.stream().map(a -> new InetSocketAddress("127.0.0.1",
                    Integer.parseInt(a.substring(a.indexOf(':') + 1)))).toList();
            transport.connect(sockets, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            for (Child c : children) {
                awaitLine(c, PlaceMain.CONNECTED + " " + c.place(), deadline);
            }
            return launcher;
        } catch (IOException | InterruptedException | RuntimeException e) {
            launcher.close();
            throw e;
        }
    }

    private static Child start(int place, String program, List<String> names, List<String> jvmOptions,
                               List<String> childArgs, byte[] secret) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow");    // Kryo's unsafe buffers, without a warning
        }
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator)));
        command.add(PlaceMain.class.getName());
        command.addAll(List.of("--program", program, "--place", String.valueOf(place), "--names",
                String.join(",", names)));
        command.addAll(childArgs);
        Path errors = Files.createTempFile("switchboard-place-" + names.get(place) + "-", ".err");
        errors.toFile().deleteOnExit();
        Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("switchboard-place ")) {
                        lines.add(line);
                    } else {
                        System.out.println("[" + names.get(place) + "] " + line);
                    }
                }
            } catch (IOException e) {
                // the child is gone; awaitLine reports how it ended
            }
        }, "place-" + names.get(place) + "-output");
        pump.setDaemon(true);
        pump.start();
        Writer stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        stdin.write(PlaceMain.SECRET + " " + Base64.getEncoder().encodeToString(secret) + "\n");
        stdin.flush();
        return new Child(place, names.get(place), process, stdin, lines, errors);
    }

    /** The child's next control line, which must start with {@code expected}. */
    private static String awaitLine(Child c, String expected, long deadline) throws InterruptedException {
        while (true) {
            String line = c.lines().poll(20, TimeUnit.MILLISECONDS);
            if (line != null) {
                if (line.startsWith(expected)) {
                    return line;
                }
                throw new PlaceConnectionException("place " + c.name() + " said '" + line + "', expected '"
                        + expected.trim() + "'");
            }
            if (!c.process().isAlive() && c.lines().isEmpty()) {
                throw new PlaceConnectionException("place " + c.name() + " (pid " + c.process().pid()
                        + ") exited with status " + c.process().exitValue() + " before '" + expected.trim() + "': "
                        + tail(c.errors()));
            }
            if (System.nanoTime() > deadline) {
                throw new PlaceConnectionException("place " + c.name() + " (pid " + c.process().pid()
                        + ") did not say '" + expected.trim() + "' in time: " + tail(c.errors()));
            }
        }
    }

    private static String tail(Path errors) {
        try {
            List<String> lines = Files.readAllLines(errors, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "(no error output)"
                    : String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(its error output cannot be read: " + e + ")";
        }
    }

    /** This place's transport (place 0). */
    Transport transport() {
        return transport;
    }

    /** The child places' processes, by index from 1. */
    List<ProcessHandle> children() {
        return children.stream().map(c -> c.process().toHandle()).toList();
    }

    /** The places' names, by index. */
    List<String> names() {
        return names;
    }

    /** The program failed: a child may be frozen, and {@link #close} waits a second for each, not ten. */
    void programFailed() {
        programFailed = true;
    }

    /**
     * Asks every child to exit, waits for them (at most 10 s, or 1 s for one whose connection is lost or when the
     * program failed, then ends them), and closes this place.
     */
    @Override
    public void close() {
        for (Child c : children) {
            try {
                c.stdin().write("exit\n");
                c.stdin().close();                        // the child's reader ends, so its JVM exits at once
            } catch (IOException e) {
                // gone already
            }
        }
        for (Child c : children) {
            try {
                // a place still connected is ending as it was told; one that is not may be frozen: a second, then
                // it is ended (SIGKILL ends a stopped process too)
                boolean patient = !programFailed && transport.isConnected(c.place());
                if (!c.process().waitFor(patient ? 10 : 1, TimeUnit.SECONDS)) {
                    c.process().destroyForcibly();
                }
            } catch (InterruptedException e) {
                c.process().destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        transport.close();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    /**
     * Starts {@code --places N} places (this JVM the master), prints the children's process ids as
     * {@code switchboard-launcher children <pid> <pid> ...}, then waits for a line on its standard input and
     * ends them (a test drives it; the command line comes with the places' programs).
     */
    public static void main(String[] args) throws Exception {
        int places = args.length == 2 && args[0].equals("--places") ? Integer.parseInt(args[1]) : 3;
        try (PlaceLauncher launcher = launch(places, List.of(), List.of(), (run, names, auth) -> new Transport(0, run,
                names, new MessageCodec(List.of(), "the launcher"), (from, m) -> { }, Transport.Settings.DEFAULTS,
                auth), Duration.ofSeconds(60))) {
            System.out.println("switchboard-launcher children " + launcher.children().stream()
                    .map(h -> String.valueOf(h.pid())).collect(Collectors.joining(" ")));
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}

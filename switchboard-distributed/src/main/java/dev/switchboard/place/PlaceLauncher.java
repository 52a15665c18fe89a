package dev.switchboard.place;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
 * Starts the places of a program from place 0 and ends them: by default (the embedded launch) the other places are
 * child JVMs on this host ({@link PlaceMain}), on loopback with free ports, started with this JVM's java and class
 * path; with a configuration's {@code ssh} section they are JVMs on their hosts, started over SSH
 * ({@link SshPlaces}). {@link #launch} returns once every place is connected to every other (handshakes done);
 * {@link #close} ends them.
 *
 * <p>The places of a launch share a secret, fresh from a {@code SecureRandom} for each launch, with which each
 * connection's handshake proves that both sides belong to it ({@link Authentication}). A child gets it as the
 * first line on its standard input, a pipe only the two processes hold: never on a command line, which any local
 * user can read.
 *
 * <p>No child outlives its launcher: a child halts when its standard input, a pipe from this JVM (or an SSH
 * channel), ends — which the operating system does when this JVM ends, however it ends (killed, crashed); a shutdown
 * hook also ends them on a normal exit or Ctrl-C. A child that fails before it is ready fails the launch with its exit
 * status and the end of its error output; one that is not ready within the timeout fails it too, and every child
 * started is ended.
 *
 * <p>What a child prints and logs is seen here: each line of its standard output goes to this JVM's standard output,
 * and each line of its error output to this JVM's standard error ({@link ErrorOutputRelay}), prefixed with the
 * place's name ({@code [p1] ...}).
 */
final class PlaceLauncher implements AutoCloseable {
    private final List<String> names;
    private final Transport transport;
    private final List<Child> children;
    private final Thread hook;
    /** Set when the program failed: {@link #close} waits a second for each child, not ten. */
    private volatile boolean programFailed;

    /** One child place: its process, and the lines it prints, one after the other. */
    /** A child place: its process, its control lines, and the last lines of its other output (at most five). */
    private record Child(int place, String name, PlaceProcess process, Writer stdin, BlockingQueue<String> lines,
                         java.util.Deque<String> lastOutput, Thread pump) {
        /**
         * What its error output ended with; if nothing, what its standard output ended with (a JVM that cannot
         * start says why there).
         */
        String whatItSaid() throws InterruptedException {
            if (!process.isAlive()) {
                pump.join(2_000);                    // its output read to the end (a bound: a grandchild may hold it)
            }
            String errors = process.errorTail();
            return !errors.equals(NO_ERROR_OUTPUT) || lastOutput.isEmpty() ? errors
                    : "(no error output; its output ended with: " + String.join(" | ", lastOutput) + ")";
        }
    }

    /** How many lines of a child's output, besides its control lines, are kept for a failure's message. */
    private static final int KEPT_OUTPUT = 5;
    /** A child's {@link PlaceProcess#errorTail()} when it wrote no error output. */
    static final String NO_ERROR_OUTPUT = "(no error output)";

    /** Makes place 0's transport, given the run's id, the places' names and their authentication. */
    @FunctionalInterface
    interface MasterTransport {
        Transport create(String program, List<String> names, Authentication authentication);
    }

    /**
     * Where the places are: their names, the host and port each is reached at (port 0: the free one it finds and
     * reports), and where each listens ({@code host:port}), place 0 first.
     */
    record Layout(List<String> names, List<String> hosts, List<Integer> ports, List<String> binds) {
        /** {@code places} places on this host, on loopback, on free ports. */
        static Layout local(int places) {
            if (places < 1 || places > GlobalId.MAX_PLACES) {
                throw new IllegalArgumentException("places are 1 to " + GlobalId.MAX_PLACES + ", not " + places);
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < places; i++) {
                names.add("p" + i);
            }
            return new Layout(names, java.util.Collections.nCopies(places, "127.0.0.1"),
                    java.util.Collections.nCopies(places, 0), java.util.Collections.nCopies(places, "127.0.0.1:0"));
        }

        /** The places of a configuration. */
        static Layout of(PlacesConfig config) {
            List<PlacesConfig.Place> places = config.places();
            return new Layout(places.stream().map(PlacesConfig.Place::name).toList(),
                    places.stream().map(PlacesConfig.Place::hostname).toList(),
                    places.stream().map(PlacesConfig.Place::port).toList(),
                    places.stream().map(p -> p.bindHostname() + ":" + p.bindPort()).toList());
        }

        /** Where place {@code i} listens. */
        InetSocketAddress bind(int i) {
            String b = binds.get(i);
            int colon = b.lastIndexOf(':');
            return new InetSocketAddress(b.substring(0, colon), Integer.parseInt(b.substring(colon + 1)));
        }

        /** Where the others reach place {@code i}, which reported that it listens on {@code port}. */
        String address(int i, int port) {
            return hosts.get(i) + ":" + (ports.get(i) != 0 ? ports.get(i) : port);
        }
    }

    /** Starts place {@code place}'s JVM, running {@link PlaceMain} with {@code arguments}. */
    @FunctionalInterface
    interface Starter {
        PlaceProcess start(int place, String name, List<String> arguments) throws IOException;
    }

    private PlaceLauncher(List<String> names, Transport transport, List<Child> children, Thread hook) {
        this.names = names;
        this.transport = transport;
        this.children = children;
        this.hook = hook;
    }

    /**
     * Starts {@code places} − 1 child places on this host and connects all of them, this JVM being place 0.
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
        return launch(Layout.local(places), (place, name, arguments) -> startLocal(name, jvmOptions, arguments),
                childArgs, transports, timeout);
    }

    /**
     * Starts every place of {@code layout} but place 0 with {@code starter} and connects all of them, this JVM being
     * place 0 (listening at its host and port).
     *
     * @throws PlaceConnectionException if a place fails or is not ready within {@code timeout} (every place started
     *         is ended then)
     */
    static PlaceLauncher launch(Layout layout, Starter starter, List<String> childArgs, MasterTransport transports,
                                Duration timeout) throws IOException, InterruptedException {
        String program = UUID.randomUUID().toString();
        byte[] secret = Authentication.newSecret();
        List<String> names = layout.names();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Child> children = new CopyOnWriteArrayList<>();   // the hook reads it
        Thread hook = new Thread(() -> children.forEach(c -> c.process().kill()), "place-launcher-hook");
        Runtime.getRuntime().addShutdownHook(hook);
        Transport transport;
        try {
            for (int i = 1; i < names.size(); i++) {          // they start while this place sets itself up
                List<String> arguments = new ArrayList<>(List.of("--program", program, "--place", String.valueOf(i),
                        "--names", String.join(",", names), "--bind", layout.binds().get(i)));
                arguments.addAll(childArgs);
                children.add(child(i, names.get(i), starter.start(i, names.get(i), arguments), secret));
            }
            transport = transports.create(program, List.copyOf(names), Authentication.hmac(secret));
        } catch (IOException | RuntimeException | Error e) {
            children.forEach(c -> c.process().kill());
            Runtime.getRuntime().removeShutdownHook(hook);
            throw e;
        }
        PlaceLauncher launcher = new PlaceLauncher(names, transport, children, hook);
        try {
            InetSocketAddress self = transport.bind(layout.bind(0));
            List<String> addresses = new ArrayList<>();
            addresses.add(layout.address(0, self.getPort()));
            for (Child c : children) {
                String ready = awaitLine(c, PlaceMain.READY + " " + c.place() + " ", deadline);
                addresses.add(layout.address(c.place(), Integer.parseInt(ready.substring(ready.lastIndexOf(' ') + 1))));
            }
            for (Child c : children) {
                c.stdin().write("addresses " + String.join(",", addresses) + "\n");
                c.stdin().flush();
            }
            List<InetSocketAddress> sockets = addresses.stream().map(a -> new InetSocketAddress(
                    a.substring(0, a.lastIndexOf(':')), Integer.parseInt(a.substring(a.lastIndexOf(':') + 1))))
                    .toList();
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

    /** Hands a started place the secret and follows its lines. */
    private static Child child(int place, String name, PlaceProcess process, byte[] secret) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        java.util.Deque<String> lastOutput = new java.util.concurrent.ConcurrentLinkedDeque<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.stdout(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("switchboard-place ")) {
                        lines.add(line);
                    } else {
                        System.out.println("[" + name + "] " + line);
                        lastOutput.addLast(line);
                        while (lastOutput.size() > KEPT_OUTPUT) {
                            lastOutput.pollFirst();
                        }
                    }
                }
            } catch (IOException e) {
                // the place is gone; awaitLine reports how it ended
            }
        }, "place-" + name + "-output");
        pump.setDaemon(true);
        pump.start();
        Writer stdin = new OutputStreamWriter(process.stdin(), StandardCharsets.UTF_8);
        try {
            stdin.write(PlaceMain.SECRET + " " + Base64.getEncoder().encodeToString(secret) + "\n");
            stdin.flush();
        } catch (IOException e) {
            // it ended already: awaitLine reports how, with its status and error output
        }
        return new Child(place, name, process, stdin, lines, lastOutput, pump);
    }

    /** A child JVM on this host, with this JVM's java and class path. */
    static PlaceProcess startLocal(String name, List<String> jvmOptions, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(placeJvmOptions(Runtime.version().feature()));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator)));
        command.add(PlaceMain.class.getName());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).start();
        return new LocalPlace(process, new ErrorOutputRelay(process.getErrorStream(), name,
                "place-" + name + "-errors"));
    }

    /** What a place's JVM of Java {@code feature} needs besides the user's options. */
    static List<String> placeJvmOptions(int feature) {
        return feature >= 24 ? List.of("--sun-misc-unsafe-memory-access=allow")   // Kryo's Unsafe, without a warning
                : List.of();
    }

    /** A place that is a child process of this JVM; its error output is relayed to this JVM's. */
    private record LocalPlace(Process process, ErrorOutputRelay errors) implements PlaceProcess {
        @Override
        public OutputStream stdin() {
            return process.getOutputStream();
        }

        @Override
        public java.io.InputStream stdout() {
            return process.getInputStream();
        }

        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public int exitStatus() {
            return process.isAlive() ? -1 : process.exitValue();
        }

        @Override
        public String errorTail() {
            return errors.tail(!process.isAlive(), 2_000);
        }

        @Override
        public boolean waitFor(long seconds) throws InterruptedException {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        }

        @Override
        public void kill() {
            process.destroyForcibly();
        }

        @Override
        public String describe() {
            return "pid " + process.pid();
        }

        @Override
        public java.util.Optional<ProcessHandle> handle() {
            return java.util.Optional.of(process.toHandle());
        }
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
                throw new PlaceConnectionException("place " + c.name() + " (" + c.process().describe()
                        + ") exited with status " + c.process().exitStatus() + " before '" + expected.trim() + "': "
                        + c.whatItSaid());
            }
            if (System.nanoTime() > deadline) {
                throw new PlaceConnectionException("place " + c.name() + " (" + c.process().describe()
                        + ") did not say '" + expected.trim() + "' in time: " + c.whatItSaid());
            }
        }
    }

    /** This place's transport (place 0). */
    Transport transport() {
        return transport;
    }

    /** The child places' processes, by index from 1. */
    List<ProcessHandle> children() {
        return children.stream().flatMap(c -> c.process().handle().stream()).toList();
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
                if (!c.process().waitFor(patient ? 10 : 1)) {
                    c.process().kill();
                }
            } catch (InterruptedException e) {
                c.process().kill();
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
                names, new MessageCodec(List.of(), "the launcher"), (from, m) -> { }, TransportSettings.DEFAULTS,
                auth), Duration.ofSeconds(60))) {
            System.out.println("switchboard-launcher children " + launcher.children().stream()
                    .map(h -> String.valueOf(h.pid())).collect(Collectors.joining(" ")));
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}

package dev.switchboard.place;

import dev.switchboard.task.MultiException;
import dev.switchboard.task.TaskRuntime;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The entry point of a place JVM that a {@link PlaceLauncher} starts on this host. It talks to its launcher over
 * its standard input and output, one line each way per step, and to the other places over the {@link Transport}:
 * <ol>
 *   <li>it reads {@code secret <base64>}: the secret the places of this launch share ({@link Authentication});</li>
 *   <li>it listens (at {@code --bind host:port}; by default a free loopback port) and prints
 *       {@code switchboard-place ready <index> <port>};</li>
 *   <li>it reads {@code addresses <host:port>,<host:port>,...} (every place's, by index), connects to every other
 *       place (the full mesh, handshakes done) and prints {@code switchboard-place connected <index>};</li>
 *   <li>it runs its place ({@link PlaceRuntime}) until place 0 says the program has ended, or the launcher sends
 *       {@code exit}; then it closes its connections and exits with status 0, or {@value #PROGRAM_FAILED} if the
 *       program failed.</li>
 * </ol>
 * <b>It never outlives its launcher</b>: a thread reads its standard input for the whole run, and when that ends
 * (the launcher's process is gone, however it ended: killed, crashed, or Ctrl-C) it halts at once with status
 * {@value #ORPHANED}, whatever step it is at. Arguments:
 * {@code --program <run id> --place <index> --names <name,name,...>}, and optionally {@code --workers <n>},
 * {@code --throughput <n>}, {@code --messages <class,class,...>} (the message classes, in every place's order) and
 * {@code --limits <n,n,n,n,n>} ({@link DecodingLimits}), {@code --failure-timeout <ms>},
 * {@code --hang-report-after <ms>}, {@code --bind <host:port>}, and {@code --tls-key-store <file>},
 * {@code --tls-trust-store <file>} and their {@code --tls-...-password-file <file>}, or
 * {@code --unauthenticated-insecure true}, instead of the secret (which is read all the same).
 */
public final class PlaceMain {
    /** The exit status of a place whose launcher went away. */
    public static final int ORPHANED = 3;
    /** The exit status of a place whose program failed (place 0 throws the failures). */
    public static final int PROGRAM_FAILED = 4;
    static final String READY = "switchboard-place ready";
    static final String CONNECTED = "switchboard-place connected";
    static final String SECRET = "switchboard-place secret";

    private PlaceMain() {
    }

    public static void main(String[] args) throws Exception {
        NettyLogging.configure();
        try {
            run(args);
        } catch (PlacesConfigException | PlaceConnectionException e) {     // anything else: its stack trace
            // one line, the last its launcher reads: what went wrong, not where in this class
            System.err.println("place " + name(args) + " cannot run: " + e.getMessage());
            System.exit(1);
        } catch (MultiException e) {                                          // place 0 reports them in full
            System.err.println("place " + name(args) + ": the program failed: " + e.getMessage());
            System.exit(PROGRAM_FAILED);
        }
        System.exit(0);
    }

    /** The place's name, as far as its arguments say. */
    private static String name(String[] args) {
        String index = "?";
        String[] names = {};
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--place")) {
                index = args[i + 1];
            } else if (args[i].equals("--names")) {
                names = args[i + 1].split(",");
            }
        }
        try {
            return names[Integer.parseInt(index)];
        } catch (RuntimeException e) {
            return index;
        }
    }

    private static void run(String[] args) throws Exception {
        String program = null;
        int place = -1;
        List<String> names = null;
        int workers = Runtime.getRuntime().availableProcessors();
        int throughput = TaskRuntime.DEFAULT_THROUGHPUT;
        List<Class<?>> messages = new ArrayList<>();
        DecodingLimits limits = DecodingLimits.DEFAULTS;
        Duration failureTimeout = Places.Builder.DEFAULT_FAILURE_TIMEOUT;
        Duration hangReportAfter = null;
        InetSocketAddress bind = new InetSocketAddress("127.0.0.1", 0);
        PlacesSecurity security = null;
        String[] tls = new String[4];
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--program" -> program = args[i + 1];
                case "--place" -> place = Integer.parseInt(args[i + 1]);
                case "--names" -> names = Arrays.asList(args[i + 1].split(","));
                case "--workers" -> workers = Integer.parseInt(args[i + 1]);
                case "--throughput" -> throughput = Integer.parseInt(args[i + 1]);
                case "--limits" -> limits = DecodingLimits.fromArgument(args[i + 1]);
                case "--failure-timeout" -> failureTimeout = Duration.ofMillis(Long.parseLong(args[i + 1]));
                case "--hang-report-after" -> hangReportAfter = Duration.ofMillis(Long.parseLong(args[i + 1]));
                case "--bind" -> {
                    int colon = args[i + 1].lastIndexOf(':');
                    bind = new InetSocketAddress(args[i + 1].substring(0, colon),
                            Integer.parseInt(args[i + 1].substring(colon + 1)));
                }
                case "--tls-key-store" -> tls[0] = args[i + 1];
                case "--tls-key-store-password-file" -> tls[1] = args[i + 1];
                case "--tls-trust-store" -> tls[2] = args[i + 1];
                case "--tls-trust-store-password-file" -> tls[3] = args[i + 1];
                case "--unauthenticated-insecure" -> security = new PlacesSecurity(
                        PlacesSecurity.Mode.UNAUTHENTICATED_INSECURE, null, null, null, null, null);
                case "--messages" -> {
                    for (String c : args[i + 1].split(",")) {
                        if (!c.isBlank()) {
                            messages.add(Class.forName(c.trim(), false, PlaceMain.class.getClassLoader()));
                        }
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (usage: --program <run id> --place <index> --names <name,name,...>)");
            }
        }
        if (tls[0] != null) {
            security = new PlacesSecurity(PlacesSecurity.Mode.TLS, null, Path.of(tls[0]),
                    tls[1] == null ? null : Path.of(tls[1]), Path.of(tls[2]), tls[3] == null ? null : Path.of(tls[3]));
        }
        if (program == null || place < 0 || names == null || place >= names.size()) {
            throw new IllegalArgumentException("usage: --program <run id> --place <index> --names <name,name,...>,"
                    + " got " + String.join(" ", args));
        }
        BlockingQueue<String> in = watchLauncher();
        String secret = in.take();
        if (!secret.startsWith(SECRET + " ")) {
            throw new IllegalStateException("place " + names.get(place) + " expected the places' secret first on its"
                    + " standard input");
        }
        Authentication authentication = security != null
                ? security.authentication(names.get(place), "place " + names.get(place) + "'s arguments")
                : Authentication.hmac(Base64.getDecoder().decode(secret.substring(SECRET.length() + 1)));
        try (PlaceRuntime runtime = new PlaceRuntime(place, names, messages,
                "pass it to Places.builder().messages(...)", new PlaceRuntime.Settings(workers, throughput, limits,
                hangReportAfter, null));
             Transport transport = new Transport(place, program, names, runtime.codec, runtime,
                     Places.Builder.transportSettings(failureTimeout), authentication)) {
            runtime.attach(transport);
            Places.install(new Places(runtime));              // before the others can send it a creation
            InetSocketAddress at;
            try {
                at = transport.bind(bind);
            } catch (PlaceConnectionException e) {
                System.err.println(e.getMessage());
                System.exit(2);
                return;
            }
            System.out.println(READY + " " + place + " " + at.getPort());
            System.out.flush();
            runtime.warmUp();                                 // while the launcher waits for the others
            String line = in.take();
            if (!line.startsWith("addresses ")) {
                throw new IllegalStateException("place " + names.get(place) + " expected the addresses of the places,"
                        + " got: " + line);
            }
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (String a : line.substring("addresses ".length()).split(",")) {
                int colon = a.lastIndexOf(':');
                addresses.add(new InetSocketAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1))));
            }
            transport.connect(addresses, Duration.ofSeconds(60));   // the launcher's own timeout ends it sooner
            System.out.println(CONNECTED + " " + place);
            System.out.flush();
            Thread exit = new Thread(() -> {
                try {
                    while (!in.take().equals("exit")) {
                        // nothing else is asked of a place
                    }
                    runtime.shutdown.countDown();
                } catch (InterruptedException e) {
                    // the place is ending
                }
            }, "place-launcher-exit");
            exit.setDaemon(true);
            exit.start();
            runtime.awaitShutdown();
        }
    }

    /**
     * Reads the launcher's lines for the whole run, on a thread of their own, and halts this JVM as soon as they
     * end (the launcher is gone), whatever the place is doing then (connecting, say) — unless the launcher said
     * {@code exit} first: it closes the pipe right after, so that this thread is not left reading in native code,
     * which would hold up the JVM's exit by 300 ms.
     */
    private static BlockingQueue<String> watchLauncher() {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread watcher = new Thread(() -> {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            boolean exit = false;
            try {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line.trim());
                    exit |= line.trim().equals("exit");
                }
            } catch (IOException e) {
                // the launcher's end of the pipe is gone too
            }
            if (!exit) {
                Runtime.getRuntime().halt(ORPHANED);
            }
        }, "place-launcher-watch");
        watcher.setDaemon(true);
        watcher.start();
        return lines;
    }
}

package dev.switchboard.bench.remote;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.bench.remote.Remote.Go;
import dev.switchboard.bench.remote.Remote.Kind;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.event.Logging;
import scala.concurrent.Await;

/**
 * The Pekko side of the remote benchmarks: an actor system with Artery TCP on 127.0.0.1 (a free port) in this JVM,
 * and a child JVM ({@link PekkoRemoteMain}) running a second one that hosts the sink and the ponger; both started
 * at the first run and kept until {@link #close}. The sender and the pinger here are long-lived too (as are the
 * Switchboard side's): a run is a local {@link Go} to one of them. The remote actors are found by
 * {@code actorSelection(...).resolveOne}, as Pekko's documentation describes for remote lookup.
 *
 * <p>Both systems run the harness configuration's dispatcher settings ({@link PekkoSettings#matched}: the
 * default configuration is the one with Pekko's throughput 5) and Pekko's defaults for everything else,
 * remoting included: only the provider and the canonical address are set. Messages between the systems use
 * Pekko's built-in serializers: {@code byte[]} (ByteArraySerializer), {@code Integer}, {@code Long},
 * {@code String}. The payloads go without a sender, as in Pekko's own throughput test; the flow-control
 * messages, the end and the pings carry their sender, which the remote side answers.
 */
final class PekkoRemote implements AutoCloseable {
    /** The line the child prints when its system is up: followed by its port. */
    static final String READY = "pekko-remote ready";
    /**
     * Remoting with Artery TCP (Pekko's default transport) on loopback, on a free port. The systems start with
     * errors logged only ({@link #create}): a system with remoting and without Pekko Cluster warns at start that
     * Cluster is recommended, unconditionally.
     */
    static final String REMOTE_CONFIG = """
            pekko.actor.provider = remote
            pekko.remote.artery.transport = tcp
            pekko.remote.artery.canonical.hostname = "127.0.0.1"
            pekko.remote.artery.canonical.port = 0
            pekko.loglevel = ERROR
            pekko.stdout-loglevel = ERROR
            """;
    static final String CHILD_SYSTEM = "remote";

    private final int workers;
    private final int throughput;
    private final ActorSystem system;
    private final Process child;
    private final ActorRef sender;
    private final ActorRef pinger;

    /**
     * The configuration of both systems: remoting over Artery TCP, and the harness's Pekko settings with
     * {@code workers} threads and the default dispatcher's {@code throughput}.
     */
    static Config config(int workers, int throughput) {
        return ConfigFactory.parseString(REMOTE_CONFIG).withFallback(PekkoSettings.matched(workers, throughput));
    }

    /**
     * {@link #config} with Artery's {@code tls-tcp} transport: mutual TLS with the key store {@code keyStore} and the
     * trust store of {@link RemoteCertificates}, Pekko's defaults for the rest (TLSv1.3, AES-GCM 128 or 256, no host
     * name check), as the places' TLS has. Its threads are daemons: its shutdown may stall ({@link #close}).
     */
    static Config tlsConfig(int workers, int throughput, Path keyStore) {
        Path trust = keyStore.resolveSibling("trust.p12");
        return ConfigFactory.parseString("""
                pekko.daemonic = on
                pekko.remote.artery.transport = tls-tcp
                pekko.remote.artery.ssl.config-ssl-engine {
                  key-store = "%s"
                  trust-store = "%s"
                  key-store-password = "%s"
                  key-password = "%s"
                  trust-store-password = "%s"
                }
                """.formatted(keyStore, trust, RemoteCertificates.PASSWORD, RemoteCertificates.PASSWORD,
                RemoteCertificates.PASSWORD)).withFallback(config(workers, throughput));
    }

    /**
     * A system called {@code name} with {@link #config} (with {@link #tlsConfig} and {@code keyStore} unless it is
     * null): it starts with errors logged only, then logs warnings as
     * the harness's systems do.
     */
    static ActorSystem create(String name, int workers, int throughput, Path keyStore) {
        ActorSystem system = ActorSystem.create(name, keyStore == null ? config(workers, throughput)
                : tlsConfig(workers, throughput, keyStore));
        system.eventStream().setLogLevel(Logging.WarningLevel());
        return system;
    }

    /**
     * Starts the child JVM and this JVM's system, and finds the child's actors.
     *
     * @param workers    the default dispatcher's threads, on both systems
     * @param throughput its throughput
     * @param tls        whether the systems talk over Artery's {@code tls-tcp}
     */
    PekkoRemote(int workers, int throughput, boolean tls) throws Exception {
        this.workers = workers;
        this.throughput = throughput;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Remote.pekkoChildJvmOptions());
        command.add("-cp");
        command.add(Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(File.pathSeparator)));
        command.add(PekkoRemoteMain.class.getName());
        command.add(String.valueOf(workers));
        command.add(String.valueOf(throughput));
        Path certificates = tls ? RemoteCertificates.directory() : null;
        if (tls) {
            command.add(certificates.resolve("p1.p12").toString());
        }
        Path errors = Files.createTempFile("switchboard-bench-pekko-remote-", ".err");
        errors.toFile().deleteOnExit();
        child = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        ActorSystem local = null;
        try {
            local = create("local", workers, throughput, tls ? certificates.resolve("p0.p12") : null);  // as it starts
            int port = awaitReady(child, errors);
            String remote = "pekko://" + CHILD_SYSTEM + "@127.0.0.1:" + port + "/user/";
            CompletableFuture<ActorRef> sinkFound = local.actorSelection(remote + "sink")
                    .resolveOne(Duration.ofSeconds(30)).toCompletableFuture();
            CompletableFuture<ActorRef> pongerFound = local.actorSelection(remote + "ponger")
                    .resolveOne(Duration.ofSeconds(30)).toCompletableFuture();
            ActorRef sink = sinkFound.get(40, TimeUnit.SECONDS);
            ActorRef ponger = pongerFound.get(40, TimeUnit.SECONDS);
            this.sender = local.actorOf(Props.create(Sender.class, () -> new Sender(sink)), "sender");
            this.pinger = local.actorOf(Props.create(Pinger.class, () -> new Pinger(ponger)), "pinger");
            this.system = local;
        } catch (Exception | Error e) {
            if (local != null) {
                terminate(local);
            }
            end(child);
            throw e;
        }
    }

    int workers() {
        return workers;
    }

    int throughput() {
        return throughput;
    }

    /** Runs {@code count} messages or round trips of {@code kind} and returns the checksum. */
    long run(Kind kind, int count) throws Exception {
        CompletableFuture<Long> result = new CompletableFuture<>();
        (kind == Kind.THROUGHPUT ? sender : pinger).tell(new Go(count, result), ActorRef.noSender());
        return Remote.await(result, "Pekko " + kind + " run");
    }

    /** Ends this JVM's system, then the child (its standard input closes: it halts). */
    @Override
    public void close() {
        try {
            terminate(system);
        } finally {
            end(child);
        }
    }

    private static void terminate(ActorSystem system) {
        // the connections to the child end with the system, and its streams say so as warnings: errors only
        system.eventStream().setLogLevel(Logging.ErrorLevel());
        system.terminate();
        try {
            Await.result(system.whenTerminated(), scala.concurrent.duration.Duration.apply(30, TimeUnit.SECONDS));
        } catch (java.util.concurrent.TimeoutException e) {
            if (!system.settings().config().getString("pekko.remote.artery.transport").equals("tls-tcp")) {
                throw new IllegalStateException("the remote benchmark's Pekko system did not terminate in 30 s", e);
            }
            // Artery's TLS streams may stall its shutdown (apache/pekko#3247, bounded in a later Pekko by
            // shutdown-streams-timeout): the runs are measured already, and this system's threads are daemons
            System.out.println("[pekko-remote] the tls-tcp system did not terminate in 30 s (Artery's shutdown"
                    + " stall); going on");
        } catch (Exception e) {
            throw new IllegalStateException("the remote benchmark's Pekko system did not terminate", e);
        }
    }

    private static void end(Process child) {
        try {
            child.getOutputStream().close();
        } catch (IOException e) {
            // gone already
        }
        try {
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the child's output until it says it is ready, and returns its port; copies other lines to ours. */
    private static int awaitReady(Process child, Path errors) throws Exception {
        BlockingQueue<String> ready = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith(READY + " ")) {
                        ready.add(line);
                    } else {
                        System.out.println("[pekko-remote] " + line);
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "pekko-remote-output");
        pump.setDaemon(true);
        pump.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String line = ready.poll(20, TimeUnit.MILLISECONDS);
            if (line != null) {
                return Integer.parseInt(line.substring(READY.length() + 1).trim());
            }
            if (!child.isAlive()) {
                throw new IllegalStateException("the Pekko child JVM exited with status " + child.exitValue()
                        + " before it was ready: " + tail(errors));
            }
        }
        throw new IllegalStateException("the Pekko child JVM was not ready within 60 s: " + tail(errors));
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

    // ---------------------------------------------------------------------------------------------- actors

    /** This JVM: sends the payload to the sink in bursts, each followed by a flow-control message. */
    static final class Sender extends AbstractActor {
        private final ActorRef sink;
        private final byte[] payload = Remote.payload();
        private CompletableFuture<Long> result;
        private int remaining;
        private int flowControlId;

        Sender(ActorRef sink) {
            this.sink = sink;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, go -> {
                        result = go.result();
                        remaining = go.count();
                        for (int i = 0; i < Remote.BURSTS_IN_FLIGHT && remaining > 0; i++) {
                            sendBurst();
                        }
                    })
                    .match(Integer.class, echo -> {
                        if (remaining > 0) {
                            sendBurst();
                        }
                    })
                    .match(Long.class, received -> result.complete(received))
                    .build();
        }

        private void sendBurst() {
            int n = Math.min(remaining, Remote.BURST);
            for (int i = 0; i < n; i++) {
                sink.tell(payload, ActorRef.noSender());
            }
            remaining -= n;
            if (remaining > 0) {
                sink.tell(++flowControlId, getSelf());
            } else {
                sink.tell(Remote.END, getSelf());
            }
        }
    }

    /** The child: counts the payloads, echoes the flow-control messages, answers the end with its count. */
    static final class Sink extends AbstractActor {
        private long received;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(byte[].class, payload -> {
                        if (payload.length != Remote.PAYLOAD_BYTES) {
                            throw new IllegalStateException("a payload of " + payload.length + " bytes");
                        }
                        received++;
                    })
                    .match(Integer.class, flowControl -> getSender().tell(flowControl, getSelf()))
                    .matchEquals(Remote.END, end -> {
                        getSender().tell(received, getSelf());
                        received = 0;
                    })
                    .build();
        }
    }

    /** This JVM: sends the payload to the ponger and again each time it comes back, {@code count} times. */
    static final class Pinger extends AbstractActor {
        private final ActorRef ponger;
        private final byte[] payload = Remote.payload();
        private CompletableFuture<Long> result;
        private int count;
        private long roundTrips;

        Pinger(ActorRef ponger) {
            this.ponger = ponger;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, go -> {
                        result = go.result();
                        count = go.count();
                        roundTrips = 0;
                        ponger.tell(payload, getSelf());
                    })
                    .match(byte[].class, back -> {
                        if (++roundTrips == count) {
                            result.complete(roundTrips);
                        } else {
                            ponger.tell(back, getSelf());
                        }
                    })
                    .build();
        }
    }

    /** The child: sends every payload back to its sender. */
    static final class Ponger extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(byte[].class, ping -> getSender().tell(ping, getSelf()))
                    .build();
        }
    }
}

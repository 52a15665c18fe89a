package dev.switchboard.bench.remote;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.remote.Remote.Go;
import dev.switchboard.bench.remote.Remote.Kind;
import dev.switchboard.place.ActorRecipe;
import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesSecurity;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Switchboard side of the remote benchmarks: one program on two places ({@link Places}), this JVM place 0 and
 * a child JVM place 1 on loopback, started at the first run and kept until {@link #close}. The program's body runs
 * on a thread of its own, inside the program's finish: it starts the long-lived actors (the sink and the ponger at
 * place 1, the sender and the pinger here), then takes one command per run from a queue, starts the run at its
 * local actor, waits for the checksum and hands it back; {@link #close} ends the actors, the body returns, and
 * the program ends (global termination, the child JVM exits).
 *
 * <p>Messages across places: the 100-byte {@code byte[]} payload, the {@code Integer} flow-control messages and
 * {@code Long} counts (built in, as Pekko's are), the strings {@code "end"} and {@code "stop"}, and {@link Begin},
 * which tells a remote actor once per run whom to answer (a Pekko message carries its sender; a Switchboard
 * message does not).
 */
final class SwitchboardRemote implements AutoCloseable {
    /** To the sink or the ponger, once per run: the actor to answer during this run. */
    record Begin(ActorRef<Object> replyTo) {
    }

    /** Makes the sink at place 1. */
    record NewSink() implements ActorRecipe<Object> {
        @Override
        public Actor<Object> create() {
            return new Sink();
        }
    }

    /** Makes the ponger at place 1. */
    record NewPonger() implements ActorRecipe<Object> {
        @Override
        public Actor<Object> create() {
            return new Ponger();
        }
    }

    /** The classes messages between the places carry, besides the built-in ones. */
    static final List<Class<?>> MESSAGES = List.of(Begin.class, NewSink.class, NewPonger.class);

    private static final Object CLOSE = new Object();

    /** One run: its kind, its size, and where its checksum goes. */
    private record Command(Kind kind, int count, CompletableFuture<Long> result) {
    }

    private final int workers;
    private final int throughput;
    private final boolean tls;
    private final BlockingQueue<Object> commands = new LinkedBlockingQueue<>();
    /** Completed when the body has started its actors; failed if the program could not start. */
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    /** Completed when the program has ended, failed with its failure. */
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final Thread program;

    /**
     * Starts the program with {@code workers} workers on each place, its places on mutual TLS if {@code tls} (else
     * HMAC, the embedded launch's default); returns when its actors are started.
     */
    SwitchboardRemote(int workers, int throughput, boolean tls) throws Exception {
        this.workers = workers;
        this.throughput = throughput;
        this.tls = tls;
        this.program = new Thread(this::runProgram, "remote-bench-places");
        program.setDaemon(true);
        program.start();
        try {
            ready.get(90, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("the places of the remote benchmark did not start: " + e, e);
        }
    }

    int throughput() {
        return throughput;
    }

    int workers() {
        return workers;
    }

    /** Runs {@code count} messages or round trips of {@code kind} and returns the checksum. */
    long run(Kind kind, int count) throws Exception {
        if (ended.isDone()) {
            throw new IllegalStateException("the places of the remote benchmark have ended");
        }
        CompletableFuture<Long> result = new CompletableFuture<>();
        commands.add(new Command(kind, count, result));
        if (ended.isDone() && commands.remove(new Command(kind, count, result))) {
            throw new IllegalStateException("the places of the remote benchmark have ended");
        }
        return Remote.await(result, "Switchboard " + kind + " run");
    }

    private void runProgram() {
        try {
            Places.Builder launch = Places.builder().places(2).workers(workers).throughput(throughput)
                    .messages(MESSAGES.toArray(Class<?>[]::new))
                    .jvmOptions(Remote.childJvmOptions().toArray(String[]::new));
            if (tls) {
                java.nio.file.Path certificates = RemoteCertificates.directory();
                java.nio.file.Path password = certificates.resolve("password");
                launch.security(new PlacesSecurity(PlacesSecurity.Mode.TLS, null, certificates.resolve("{place}.p12"),
                        password, certificates.resolve("trust.p12"), password));
            }
            launch.run(this::body);
            ended.complete(null);
        } catch (Throwable t) {
            ended.completeExceptionally(t);
        } finally {
            ready.completeExceptionally(new IllegalStateException("the program ended before it was ready"));
            for (Object c; (c = commands.poll()) != null; ) {
                if (c instanceof Command command) {
                    command.result().completeExceptionally(new IllegalStateException("the program has ended"));
                }
            }
        }
    }

    /** The program's body, on place 0 inside the program's finish. */
    private void body(Places places) throws InterruptedException {
        ActorRef<Object> sink = places.start(1, "sink", new NewSink());
        ActorRef<Object> ponger = places.start(1, "ponger", new NewPonger());
        ActorRef<Object> sender = new Sender(sink).start("sender");
        ActorRef<Object> pinger = new Pinger(ponger).start("pinger");
        ready.complete(null);
        try {
            for (Object c = commands.take(); c != CLOSE; c = commands.take()) {
                Command command = (Command) c;
                CompletableFuture<Long> result = new CompletableFuture<>();
                (command.kind() == Kind.THROUGHPUT ? sender : pinger).send(new Go(command.count(), result));
                try {
                    command.result().complete(Remote.await(result, "Switchboard " + command.kind() + " run"));
                } catch (Exception e) {
                    command.result().completeExceptionally(e);
                }
            }
        } finally {
            sender.send(Remote.STOP);            // each ends its remote partner, then itself
            pinger.send(Remote.STOP);
        }
    }

    /** Ends the actors and the program, and waits for the child JVM to exit (at most a minute). */
    @Override
    public void close() throws Exception {
        commands.add(CLOSE);
        try {
            ended.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (ready.isDone() && !ready.isCompletedExceptionally()) {
                throw new IllegalStateException("the places of the remote benchmark failed: " + e.getCause(),
                        e.getCause());
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- actors

    /** Place 0: sends the payload to the sink in bursts, each followed by a flow-control message. */
    static final class Sender extends Actor<Object> {
        private final ActorRef<Object> sink;
        private final byte[] payload = Remote.payload();
        private CompletableFuture<Long> result;
        private int remaining;
        private int flowControlId;

        Sender(ActorRef<Object> sink) {
            this.sink = sink;
        }

        @Override
        protected void process(Object m) {
            switch (m) {
                case Go go -> {
                    result = go.result();
                    remaining = go.count();
                    sink.send(new Begin(self()));
                    for (int i = 0; i < Remote.BURSTS_IN_FLIGHT && remaining > 0; i++) {
                        sendBurst();
                    }
                }
                case Integer echo -> {
                    if (remaining > 0) {
                        sendBurst();
                    }
                }
                case Long received -> result.complete(received);
                case String s when s.equals(Remote.STOP) -> {
                    sink.send(Remote.STOP);
                    exit();
                }
                default -> throw new IllegalStateException("the sender got " + m);
            }
        }

        private void sendBurst() {
            int n = Math.min(remaining, Remote.BURST);
            for (int i = 0; i < n; i++) {
                sink.send(payload);
            }
            remaining -= n;
            if (remaining > 0) {
                sink.send(++flowControlId);
            } else {
                sink.send(Remote.END);
            }
        }
    }

    /** Place 1: counts the payloads, echoes the flow-control messages, answers the end with its count. */
    static final class Sink extends Actor<Object> {
        private ActorRef<Object> replyTo;
        private long received;

        @Override
        protected void process(Object m) {
            switch (m) {
                case byte[] payload -> {
                    if (payload.length != Remote.PAYLOAD_BYTES) {
                        throw new IllegalStateException("a payload of " + payload.length + " bytes");
                    }
                    received++;
                }
                case Integer flowControl -> replyTo.send(flowControl);
                case Begin b -> {
                    replyTo = b.replyTo();
                    received = 0;
                }
                case String s when s.equals(Remote.END) -> {
                    replyTo.send(received);
                    received = 0;
                }
                case String s when s.equals(Remote.STOP) -> exit();
                default -> throw new IllegalStateException("the sink got " + m);
            }
        }
    }

    /** Place 0: sends the payload to the ponger and again each time it comes back, {@code count} times. */
    static final class Pinger extends Actor<Object> {
        private final ActorRef<Object> ponger;
        private final byte[] payload = Remote.payload();
        private CompletableFuture<Long> result;
        private int count;
        private long roundTrips;

        Pinger(ActorRef<Object> ponger) {
            this.ponger = ponger;
        }

        @Override
        protected void process(Object m) {
            switch (m) {
                case Go go -> {
                    result = go.result();
                    count = go.count();
                    roundTrips = 0;
                    ponger.send(new Begin(self()));
                    ponger.send(payload);
                }
                case byte[] back -> {
                    if (++roundTrips == count) {
                        result.complete(roundTrips);
                    } else {
                        ponger.send(back);
                    }
                }
                case String s when s.equals(Remote.STOP) -> {
                    ponger.send(Remote.STOP);
                    exit();
                }
                default -> throw new IllegalStateException("the pinger got " + m);
            }
        }
    }

    /** Place 1: sends every payload back to the pinger of the run. */
    static final class Ponger extends Actor<Object> {
        private ActorRef<Object> replyTo;

        @Override
        protected void process(Object m) {
            switch (m) {
                case byte[] ping -> replyTo.send(ping);
                case Begin b -> replyTo = b.replyTo();
                case String s when s.equals(Remote.STOP) -> exit();
                default -> throw new IllegalStateException("the ponger got " + m);
            }
        }
    }
}

package dev.switchboard.place;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.spi.RemoteRoute;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.MultiException;
import dev.switchboard.task.TaskRuntime;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One place of a program: its task runtime, its connections to the other places, the actors other places know,
 * and its part in global termination.
 *
 * <h2>Overview</h2>
 * <b>References.</b> A reference in a message is written as the actor's global id, name and mailbox count
 * ({@link References}). The place that reads it gets the actor's own local reference if the actor lives here, and
 * otherwise a remote reference ({@code Seam.remoteRef}) whose sends come to {@link #send}, which writes a
 * {@link Frames.Deliver} to the actor's place. A local actor whose reference is written is <em>exported</em>: kept
 * in {@link ExportedActors} by id, so that the deliveries for it find it, or wait there for its creation.
 * <p>
 * <b>Creation</b> across places is {@link RemoteCreations}'. <b>Global termination</b> is
 * {@link GlobalTermination}'s: waves of counts around the ring of places. Requests and death watch across places
 * are {@link RemoteRequests}'s and {@link RemoteWatches}'s. How a failure of a place reaches place 0, and the program's
 * result, is {@link PlaceFailures}'.
 *
 * <h2>Implementation notes</h2>
 * The transport hands every received frame to {@link #received} on its one I/O thread, so creations, deliveries and
 * the wave's visit of this place happen one after the other.
 */
final class PlaceRuntime implements Transport.Receiver, RemoteRoute, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PlaceRuntime.class.getName());

    final int here;
    final List<String> names;
    final TaskRuntime runtime;
    final MessageCodec codec;
    private volatile Transport transport;
    /** The actors of this place that other places may name, and the messages that wait for their creation. */
    final ExportedActors exports = new ExportedActors(this);
    /** Creation across places, both sides. */
    private final RemoteCreations creations;
    /**
     * Messages that reached this place and nothing to take them: their actor's creation failed, it terminated and
     * left the export table, or its mailbox refused them; answers that came for a handle no longer awaited.
     */
    private final AtomicLong lostDeliveries = new AtomicLong();
    /** The failures of the program's places: reported to place 0, recorded there for the program's result. */
    private final PlaceFailures failures = new PlaceFailures(this);
    /** Another place: set when the connection to place 0 was lost while the program ran. */
    private volatile PlaceConnectionException lostMaster;
    /** Another place: place 0's {@link Frames.Shutdown}, which says how the program ended (null: not told). */
    private volatile Frames.Shutdown toldShutdown;
    /** Place 0: set when a connection to another place was lost while the program ran. */
    private volatile RuntimeException lostPlace;
    /** The program's end, found by waves of counts ({@link GlobalTermination}). */
    final GlobalTermination termination = new GlobalTermination(this);
    /** Counted down when place 0 says the program has ended. */
    final CountDownLatch shutdown = new CountDownLatch(1);
    /** Place 0: gathers the hang reports of every place into one. */
    private final HangReportGathering hangReports;
    /** Requests across places, both sides. */
    final RemoteRequests requests;
    /** Death watch across places, both sides. */
    final RemoteWatches watches = new RemoteWatches(this);

    /**
     * How a place's runtime runs.
     *
     * @param workers         the runtime's workers
     * @param throughput      its budget of messages per activation
     * @param limits          what a frame from another place may make this place read and allocate
     * @param hangReportAfter when a finish that makes no progress is reported (null: the runtime's default)
     * @param hangReporter    place 0: where the program's hang reports, gathered from every place, go (null: logged)
     */
    record Settings(int workers, int throughput, DecodingLimits limits, Duration hangReportAfter,
                    Consumer<String> hangReporter) {
        /** {@code workers} workers, the rest the defaults. */
        static Settings of(int workers) {
            return new Settings(workers, TaskRuntime.DEFAULT_THROUGHPUT, DecodingLimits.DEFAULTS, null, null);
        }
    }

    /**
     * @param messages   the message classes, in every place's order
     * @param register   how a class is registered, for errors
     */
    PlaceRuntime(int here, List<String> names, List<Class<?>> messages, String register, Settings settings) {
        this.here = here;
        this.names = List.copyOf(names);
        if (here != 0) {
            Seam.usePlaceBits(GlobalId.of(here, here, 0).bits());
        }
        this.creations = new RemoteCreations(this);
        this.requests = new RemoteRequests(this);
        this.codec = new MessageCodec(messages, register, new ReferenceSerializer(this), requests.new Handles(),
                settings.limits());
        TaskRuntime.Builder b = TaskRuntime.builder().name("place-" + names.get(here)).workers(settings.workers())
                .throughput(settings.throughput()).onUnscopedFailure(this::failed);
        if (settings.hangReportAfter() != null) {
            b.hangReportAfter(settings.hangReportAfter());
        }
        if (here == 0) {
            this.hangReports = new HangReportGathering(this, settings.hangReporter() != null ? settings.hangReporter()
                    : report -> System.getLogger("dev.switchboard").log(System.Logger.Level.WARNING, report));
            b.hangReporter(hangReports::gather);
        } else {
            this.hangReports = null;
        }
        this.runtime = b.build();
    }

    /**
     * Encodes and decodes one of each frame the places exchange before any is sent: Kryo makes a class's serializer
     * the first time it meets the class, and the JIT compiles the paths, so a place's first messages and first
     * termination wave would otherwise take tens of milliseconds on a fresh JVM. Each thread has its own Kryo: this
     * warms the transport's I/O thread's (the compiled code is everyone's), without holding up the caller. A launch
     * calls it while it waits for the other places (one place alone sends nothing, and does not).
     */
    void warmUp() {
        Transport t = transport;
        if (t != null) {
            t.onIoThread(this::warmUpThisThread);   // the thread that reads every frame
        } else {
            warmUpThisThread();
        }
    }

    private void warmUpThisThread() {
        for (Object frame : List.of(new Frames.Ping(0), new Frames.Pong(0), new Frames.Deliver(0, -1, "warm-up"),
                new Frames.Failed(here, "", "", "", "", false), new Frames.Shutdown(new Frames.Failed[0], 0L),
                new Frames.Wave(0, true, 0, 0, new long[names.size()]))) {
            ByteBuf encoded = codec.frame(frame, () -> "this place", Integer.MAX_VALUE, ByteBufAllocator.DEFAULT);
            try {
                codec.decode(encoded.skipBytes(4));
            } finally {
                encoded.release();
            }
        }
    }

    /** The transport, connected or about to be: this place is its receiver. */
    void attach(Transport t) {
        this.transport = t;
    }

    int count() {
        return names.size();
    }

    // ------------------------------------------------------------------------------------------ creation

    /** Starts the actor {@code recipe} makes at {@code place} ({@link RemoteCreations#start}). */
    <M> ActorRef<M> start(int place, String name, Object recipe, int mailboxes) {
        return creations.start(place, name, recipe, mailboxes);
    }

    // ------------------------------------------------------------------------------------------ messages

    /** A send through a remote reference this place made: to the actor's place, or here if it lives here. */
    @Override
    public void send(ActorRef<?> to, int mailbox, Object message) {
        long id = to.id();
        int place = GlobalId.of(id).residencePlace();
        if (place == here) {
            exports.deliver(new Frames.Deliver(id, mailbox, message), here);
        } else {
            sendFrame(place, new Frames.Deliver(id, mailbox, message), false, () -> "actor " + to);
        }
    }

    /** Sends a frame of the program's traffic, counted as sent before it goes (a failed send uncounts it). */
    void sendProgramFrame(int place, Object frame) {
        sendFrame(place, frame);
    }

    /**
     * {@link #sendProgramFrame}, past a full outbound buffer (the transport's control path): for answers and ends,
     * which must not be lost to backpressure, nor wait for it on the transport's own thread.
     */
    void sendProgramControl(int place, Object frame) {
        sendFrame(place, frame, true);
    }

    /**
     * Runs {@code action} as a task of the runtime's global scope, not on the transport's I/O thread: it completes
     * futures and stages the program's code has chained actions on, which could block, or wait for a frame that only
     * this thread reads. Open work until it has run, so global termination waits for it.
     */
    private void offIoThread(Runnable action) {
        Seam.runUnscoped(runtime, () -> runtime.async(action::run));
    }

    /** Runs {@code task} on the transport's I/O thread, or here if there is no transport. */
    void onIoThread(Runnable task) {
        Transport t = transport;
        if (t != null) {
            t.onIoThread(task);
        } else {
            task.run();
        }
    }

    /** Counts {@code messages} that reached this place and nothing to take them: dead letters of this place. */
    void lostDeliveries(int messages) {
        lostDeliveries.addAndGet(messages);
    }

    /** An answer that came for a handle no longer awaited here: a dead letter of this place. */
    void lostAnswer(Frames.Answer a) {
        lostDeliveries.incrementAndGet();
        LOG.log(System.Logger.Level.DEBUG, () -> "place " + names.get(here) + ": an answer came too late for its"
                + " request (" + (a.failureClass() == null ? String.valueOf(a.reply()) : a.failureClass()) + ")");
    }

    /** How an actor of another place ends, as its place tells ({@link RemoteWatches}). */
    @Override
    public java.util.concurrent.CompletionStage<dev.switchboard.actor.Terminated> whenTerminated(ActorRef<?> ref) {
        return watches.whenTerminated(ref);
    }

    /** The runtime whose timers and dead letters the requests to other places' actors use. */
    @Override
    public TaskRuntime runtime() {
        return runtime;
    }

    /** Sends a frame of the program's traffic, counted as sent before it goes (a failed send uncounts it). */
    private void sendFrame(int place, Object frame) {
        sendFrame(place, frame, false);
    }

    /** {@link #sendFrame(int, Object)}; {@code control}: on the transport's control path, past a full buffer. */
    private void sendFrame(int place, Object frame, boolean control) {
        sendFrame(place, frame, control, null);
    }

    /** {@link #sendFrame(int, Object, boolean)} of a message for {@code recipient}, whom its errors name. */
    private void sendFrame(int place, Object frame, boolean control, java.util.function.Supplier<String> recipient) {
        Transport t = transport;
        if (t == null) {
            throw new IllegalStateException("place " + names.get(here) + " is not connected to the other places");
        }
        termination.sent.incrementAndGet();
        try {
            if (control) {
                t.sendControl(place, frame);
            } else {
                t.send(place, frame, recipient);
            }
        } catch (RuntimeException e) {
            termination.sent.decrementAndGet();
            throw e;
        }
    }

    /** For tests: the termination waves place 0 has started. */
    int wavesRun() {
        return termination.wavesRun;
    }

    /** For tests: this place's transport. */
    Transport transport() {
        return transport;
    }

    /** For tests: the dead letters of this place. */
    long deadLetterCountForTests() {
        return deadLetters();
    }

    /** For tests: the actors this place has exported and not swept out. */
    int exportedActors() {
        return exports.size();
    }

    @Override
    public String recipient(long id) {
        ActorRef<?> ref = exports.get(id);
        return "actor " + (ref != null ? ref.toString() : GlobalId.of(id).toString());
    }

    @Override
    public void received(int from, Object message) {
        switch (message) {
            case Frames.Deliver d -> {
                termination.received.incrementAndGet();
                exports.deliver(d, from);
            }
            case Frames.Create c -> {
                termination.received.incrementAndGet();
                creations.creationRequested(from, c);
            }
            case Frames.Watch w -> {
                termination.received.incrementAndGet();
                watches.watchRequested(from, w.id());
            }
            case Frames.Ended e -> {
                termination.received.incrementAndGet();
                offIoThread(() -> watches.ended(from, e));
            }
            case Frames.Answer a -> {
                termination.received.incrementAndGet();
                offIoThread(() -> requests.answered(from, a));
            }
            case Frames.Failed f -> {
                termination.received.incrementAndGet();
                failures.arrived(f);
            }
            case Frames.Wave w -> termination.passOn(w);
            case Frames.Shutdown s -> {
                toldShutdown = s;
                shutdown.countDown();
            }
            case Frames.ReportRequest r -> answerReportRequest(r);
            case Frames.Report r -> {
                if (hangReports != null) {
                    hangReports.answered(r);
                }
            }
            default -> throw new IllegalStateException("place " + names.get(here) + " got an unknown frame from place "
                    + names.get(from) + ": " + message.getClass().getName());
        }
    }

    /**
     * A connection lost while the program runs: the program cannot end as written (a message or a wave may be lost
     * with it), so it fails. Place 0 records the failure and closes its runtime, which ends the program's finish
     * with what was open; another place that loses place 0 ends itself, and one that loses another place reports
     * it to place 0.
     */
    @Override
    public boolean ending() {
        return shutdown.getCount() == 0 || termination.terminated;
    }

    @Override
    public void lost(int place, String why) {
        if (shutdown.getCount() == 0 || termination.terminated) {
            return;                                     // the places are closing
        }
        Transport t = transport;
        if (t != null && !t.joining().isJoining() && !t.joining().hasJoined()) {
            return;                     // its join failed, and says why: the program never ran here
        }
        PlaceConnectionException e = new PlaceConnectionException("place " + names.get(here) + " lost place "
                + names.get(place) + (t != null && t.joining().isJoining() ? " while the places joined: "
                : " while the program ran: ") + why);
        offIoThread(() -> {
            requests.placeLost(place, why);
            watches.placeLost(place, why);
        });
        if (here == 0) {
            programLost(e);
        } else if (place == 0) {
            LOG.log(System.Logger.Level.ERROR, e.getMessage() + "; this place ends");
            lostMaster = e;
            shutdown.countDown();
        } else {
            failures.report(e, true);
        }
    }

    /**
     * Place 0: the program cannot end as written, since a message or a termination wave may have been lost with a
     * connection: records why, stops waiting for waves and closes this place's runtime, which ends the program's
     * finish with what was still open.
     */
    void programLost(RuntimeException why) {
        if (!failures.recordLost(why)) {
            return;                                     // after the program's result was made: logged
        }
        if (lostPlace != null) {
            return;
        }
        lostPlace = why;
        Thread closer = new Thread(() -> runtime.close(Duration.ofSeconds(1)), "place-" + names.get(here) + "-close");
        closer.setDaemon(true);
        closer.start();                                 // not on the transport's thread: close waits for tasks
    }

    // ------------------------------------------------------------------------------------------ failures

    /** A failure on this place outside every finish: to place 0's list, with this place named. */
    void failed(Throwable failure) {
        failures.report(failure, false);
    }

    /**
     * Another place's answer to place 0's request for its part of a hang report: what keeps its runtime busy
     * ({@code TaskRuntime.diagnose()}) and what it waits for; as a control frame, not the program's traffic.
     */
    private void answerReportRequest(Frames.ReportRequest r) {
        List<String> lines = new ArrayList<>(runtime.diagnose());
        int held = waitingMessages();
        if (held > 0) {
            lines.add(held + " messages wait for the creation of their actor here");
        }
        if (lines.isEmpty()) {
            lines.add("nothing is open here");
        }
        try {
            transport.sendControl(0, new Frames.Report(r.id(), here, String.join("\n", lines)));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "place " + names.get(here) + " could not answer a hang report"
                    + " request: " + e);
        }
    }

    /**
     * Place 0, once the program's body has ended: what its finish threw, held until global termination and named
     * by the hang reports meanwhile.
     */
    volatile List<Throwable> bodyFailures = List.of();

    /**
     * Place 0, once its runtime is closed: the failures recorded, for the program's result
     * ({@link PlaceFailures#takeFailures}). A failure recorded from now on is logged instead.
     */
    List<Throwable> takeFailures() {
        return failures.takeFailures();
    }

    /** Place 0: the failures counted but not kept ({@link #failuresSoFar} holds the others). */
    long failuresNotKept() {
        return failures.failuresNotKept();
    }

    /** Place 0, for a hang report: the failures of other places so far. */
    List<Throwable> failuresSoFar() {
        return failures.failuresSoFar();
    }

    // ------------------------------------------------------------------------------------------ termination

    /** Whether nothing runs here and nothing waits for a creation. */
    boolean idle() {
        if (Seam.openUnscopedWork(runtime) != 0) {
            return false;
        }
        return exports.noneWaiting();
    }

    long deadLetters() {
        return runtime.deadLetterCount() + lostDeliveries.get();
    }

    /** Place 0: why the program cannot end as written (a connection lost while it ran), or null. */
    RuntimeException lostPlace() {
        return lostPlace;
    }

    /** Place 0: the gathering of hang reports (null at other places). */
    HangReportGathering hangReports() {
        return hangReports;
    }

    /** Place 0: runs termination waves until the program has ended everywhere ({@link GlobalTermination}). */
    long[] awaitTermination() throws InterruptedException {
        return termination.await();
    }

    /** Reports {@code failure} to place 0 as a lost connection (a wave could not be passed on). */
    void reportLost(Throwable failure) {
        failures.report(failure, true);
    }

    /**
     * Place 0: tells every other place that the program has ended, and with which failures (each as the place it
     * happened on reported it; the first {@link PlaceFailures#FAILURES_TOLD} of them, and how many there were).
     */
    void shutDownOthers(List<Throwable> programFailures, long failureCount) {
        Frames.Shutdown shutdown = shutdownFrame(programFailures, failureCount);
        for (int p = 1; p < names.size(); p++) {
            try {
                transport.sendControl(p, shutdown);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "place " + names.get(p) + " could not be told to shut down: "
                        + e);
            }
        }
    }

    /** Place 0: the frame that tells the others the program has ended ({@link PlaceFailures#shutdownFrame}). */
    Frames.Shutdown shutdownFrame(List<Throwable> programFailures, long failureCount) {
        return failures.shutdownFrame(programFailures, failureCount);
    }

    /**
     * Waits until place 0 says the program has ended.
     *
     * @throws PlaceConnectionException if the connection to place 0 was lost first
     * @throws MultiException           if the program failed: its failures, as place 0's finish threw them, each a
     *                                  {@link PlaceFailureException} naming the place it happened on
     */
    void awaitShutdown() throws InterruptedException {
        shutdown.await();
        PlaceConnectionException lost = lostMaster;
        if (lost != null) {
            throw lost;
        }
        Frames.Shutdown told = toldShutdown;
        if (told != null && told.failureCount() > 0) {
            List<Throwable> failures = new ArrayList<>();
            for (Frames.Failed f : told.failures()) {
                String where = f.place() >= 0 && f.place() < names.size() ? names.get(f.place()) : "?";
                failures.add(new PlaceFailureException(where, f.exceptionClass(), f.message(), f.actor(),
                        f.stackTrace()));
            }
            throw new MultiException(failures, told.failureCount());
        }
    }

    /**
     * Closes this place's runtime, which terminates the actors still alive (running their {@code onExit}), then
     * ends its time as the current place ({@link Places#uninstall}).
     */
    @Override
    public void close() {
        shutdown.countDown();
        try {
            runtime.close();
        } finally {
            Places.uninstall(this);
        }
    }

    /** For tests: messages waiting for their actor's creation. */
    int waitingMessages() {
        return exports.waitingMessages();
    }

    /** For tests and the report: the program's frames this place has sent and received. */
    long sentFrames() {
        return termination.sent.get();
    }

    long receivedFrames() {
        return termination.received.get();
    }
}

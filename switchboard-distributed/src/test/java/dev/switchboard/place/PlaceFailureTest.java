package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.MultiException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real faults on real places (child JVMs on loopback): a place killed with SIGKILL, one ended with SIGTERM, and one
 * stopped with SIGSTOP, fail the program naming the place and what was last heard from it, and leave no child
 * process behind; a failure at another place reaches place 0 as it happens, and place 0's hang report gathers every
 * place's part.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlaceFailureTest {
    /** Stays until it is told "exit". */
    record NewHolder() implements ActorRecipe<String> {
        @Override
        public Actor<String> create() {
            return new Actor<>() {
                @Override
                protected void process(String m) {
                    if (m.equals("exit")) {
                        exit();
                    }
                }
            };
        }
    }

    /** Never answers: keeps the request. */
    record Hold(dev.switchboard.actor.ReplyTo<String> replyTo) {
    }

    record NewSilent() implements ActorRecipe<Hold> {
        @Override
        public Actor<Hold> create() {
            return new Actor<>() {
                @Override
                protected void process(Hold h) {
                    // kept unanswered: the request waits for the place
                }
            };
        }
    }

    /** A request to an actor of place 2 that never answers. */
    static final AtomicReference<java.util.concurrent.CompletableFuture<String>> ASKED = new AtomicReference<>();

    /** How the holder at place 2 ended, as place 0 heard it. */
    static final AtomicReference<java.util.concurrent.CompletionStage<dev.switchboard.actor.Terminated>> HELD_AT_2 =
            new AtomicReference<>();

    /** A program of three places whose places 1 and 2 each hold an actor until the program fails. */
    private static CompletableFuture<Throwable> holding(CountDownLatch started, Duration failureTimeout) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                Places.builder().places(3).workers(1).failureTimeout(failureTimeout).messages(NewHolder.class,
                        Hold.class, NewSilent.class).run(places -> {
                            places.start(1, new NewHolder());
                            HELD_AT_2.set(places.start(2, new NewHolder()).whenTerminated());
                            ASKED.set(places.start(2, new NewSilent()).ask(Hold::new, Duration.ofMinutes(10)));
                            started.countDown();
                        });
                return null;
            } catch (Throwable e) {
                return e;
            }
        }, TransportTest.OWN_THREAD);
    }

    /** The process of this JVM's child place {@code index}. */
    private static ProcessHandle place(int index) {
        return ProcessHandle.current().children().filter(h -> h.info().arguments().map(a -> {
            List<String> args = List.of(a);
            int at = args.indexOf("--place");
            return args.contains(PlaceMain.class.getName()) && at >= 0 && args.get(at + 1).equals(
                    String.valueOf(index));
        }).orElse(false)).findFirst().orElseThrow(() -> new AssertionError("no child place " + index));
    }

    private static void noChildPlaceIsLeft() throws InterruptedException {
        TransportTest.waitUntil("every child place has ended", () -> ProcessHandle.current().children()
                .noneMatch(h -> h.isAlive() && h.info().arguments().map(a -> List.of(a).contains(
                        PlaceMain.class.getName())).orElse(false)), () -> ProcessHandle.current().children()
                .filter(ProcessHandle::isAlive).map(h -> h.pid() + " " + h.info().commandLine().orElse("?"))
                .toList().toString());
    }

    private static List<String> failures(Throwable t) {
        assertThat(t).isInstanceOf(MultiException.class);
        return ((MultiException) t).failures().stream().map(Throwable::getMessage).toList();
    }

    private static void signal(String signal, ProcessHandle process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
        assertThat(kill.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    @Test
    void aKilledPlaceFailsTheProgramNamingItAndNoChildIsLeft() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Throwable> run = holding(started, Duration.ofSeconds(10));
        assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        place(2).destroyForcibly();                                  // SIGKILL
        List<String> failures = failures(run.get(60, TimeUnit.SECONDS));
        System.out.printf("SIGKILL of place p2: the program failed after %.2f s%n", (System.nanoTime() - t0) / 1e9);
        assertThat(failures).contains("place p0 lost place p2 while the program ran: "
                + Transport.CLOSED_WITHOUT_A_WORD);
        // the loss comes first, before what it caused (the finish ended by the close of place 0's runtime)
        assertThat(failures.get(0)).containsPattern("(place p0|on place p1: .*) lost place p2");
        // a watched actor of the lost place has ended, as far as place 0 can know
        dev.switchboard.actor.Terminated end = HELD_AT_2.get().toCompletableFuture().get(20, TimeUnit.SECONDS);
        assertThat(end.reason()).isEqualTo(dev.switchboard.actor.Terminated.Reason.PLACE_LOST);
        assertThat(end.failure()).hasMessageStartingWith("place p2 was lost: ");
        // and a request to one of its actors is answered at once: no reply will come
        assertThat(ASKED.get()).failsWithin(20, TimeUnit.SECONDS).withThrowableThat()
                .havingCause().isInstanceOf(dev.switchboard.actor.NoReplyException.class)
                // given up on for the lost place, or by the close of place 0's runtime that the loss starts
                .withMessageMatching("(place p2, where Silent@\\d+ lived, was lost before it answered: .*"
                        + "|runtime 'place-p0' was closed before Silent@\\d+ replied to .*)");
        noChildPlaceIsLeft();
    }

    @Test
    void aPlaceStoppedWithSigtermFailsTheProgramSayingItsJvmEnded() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Throwable> run = holding(started, Duration.ofSeconds(10));
        assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(place(2).destroy()).as("SIGTERM sent to place p2").isTrue();   // its shutdown hooks run
        List<String> failures = failures(run.get(60, TimeUnit.SECONDS));
        // not "closed without a word": the place said why as its JVM ended
        assertThat(failures).contains("place p0 lost place p2 while the program ran: " + JvmExitNotice.JVM_ENDED);
        assertThat(failures.get(0)).containsPattern("(place p0|on place p1: .*) lost place p2");
        dev.switchboard.actor.Terminated end = HELD_AT_2.get().toCompletableFuture().get(20, TimeUnit.SECONDS);
        assertThat(end.reason()).isEqualTo(dev.switchboard.actor.Terminated.Reason.PLACE_LOST);
        assertThat(end.failure()).hasMessageContaining(JvmExitNotice.JVM_ENDED);
        noChildPlaceIsLeft();
    }

    @Test
    void aFrozenPlaceFailsTheProgramWithinTheTimeoutNamingWhatWasLastHeard() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Throwable> run = holding(started, Duration.ofSeconds(2));
        assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
        ProcessHandle frozen = place(2);
        try {
            long t0 = System.nanoTime();
            signal("STOP", frozen);
            List<String> failures = failures(run.get(60, TimeUnit.SECONDS));
            System.out.printf("SIGSTOP of place p2: the program failed after %.2f s (failure timeout 2 s)%n",
                    (System.nanoTime() - t0) / 1e9);
            // place 0 or place 1, whichever detects it first, fails the program
            assertThat(failures).anyMatch(f -> f.matches("(place p0|on place p1: " + PlaceConnectionException.class
                    .getName() + ": place p1) lost place p2 while the program ran: nothing came from it for \\d+\\.\\d s \\(the failure timeout is 2000 ms\\); the last frame was (a \\w+|the end of the handshake) at"
                    + " [0-9:.]+: it is frozen, overloaded, or cut off"));
            noChildPlaceIsLeft();                                    // the stopped one too: it was killed
        } finally {
            frozen.destroyForcibly();                                // SIGKILL ends a stopped process too
        }
    }

    // -------------------------------------------------- the close of place 0's runtime after a place is lost

    /** Counted down once place 0's busy actor is busy. */
    static final AtomicReference<CountDownLatch> BUSY = new AtomicReference<>();

    /** What the busy actor's {@code onExit} found: the index of the current place, or what it threw. */
    static final AtomicReference<String> FOUND_ON_EXIT = new AtomicReference<>();

    /**
     * Busy with its one message until the close of its runtime interrupts it, so its {@code onExit} runs during
     * that close: it asks for the current place there, then fails.
     */
    private static final class Busy extends Actor<String> {
        @Override
        protected void process(String m) {
            BUSY.get().countDown();
            try {
                new CountDownLatch(1).await(60, TimeUnit.SECONDS); // ended by the close's interrupt
            } catch (InterruptedException e) {
                // the close of the runtime: this actor is terminated, and its onExit runs next
            }
        }

        @Override
        protected void onExit() {
            try {
                FOUND_ON_EXIT.set("place " + Places.current().here());
            } catch (RuntimeException e) {
                FOUND_ON_EXIT.set(e.toString());
            }
            throw new IllegalStateException("busy's onExit fails");
        }
    }

    /** Runs a program of two places whose place 0 holds a {@link Busy} actor, and kills place 1: what it threw. */
    private static Throwable killPlaceOneWhilePlaceZeroIsBusy() throws Exception {
        BUSY.set(new CountDownLatch(1));
        FOUND_ON_EXIT.set(null);
        CompletableFuture<Throwable> run = running(() -> Places.builder().places(2).workers(2)
                .messages(NewHolder.class).run(places -> {
                    places.start(1, new NewHolder());
                    new Busy().start("busy").send("work");
                }));
        assertThat(BUSY.get().await(60, TimeUnit.SECONDS)).as("place 0's actor is busy").isTrue();
        place(1).destroyForcibly();                                  // SIGKILL
        Throwable thrown = run.get(60, TimeUnit.SECONDS);
        noChildPlaceIsLeft();
        return thrown;
    }

    @Test
    void anActorsOnExitDuringTheCloseOfPlaceZeroAfterALostPlaceStillReachesThePlaces() throws Exception {
        assertThat(failures(killPlaceOneWhilePlaceZeroIsBusy())).contains("place p0 lost place p1 while the program"
                + " ran: " + Transport.CLOSED_WITHOUT_A_WORD);
        assertThat(FOUND_ON_EXIT.get()).isEqualTo("place 0");
        assertThatThrownBy(Places::current).hasMessageStartingWith("this JVM runs no place");  // the run has ended
    }

    @Test
    void aFailureOfAnActorsOnExitDuringTheCloseOfPlaceZeroIsOneOfTheProgramsFailures() throws Exception {
        List<String> failures = failures(killPlaceOneWhilePlaceZeroIsBusy());
        assertThat(failures.get(0)).isEqualTo("place p0 lost place p1 while the program ran: "
                + Transport.CLOSED_WITHOUT_A_WORD);
        assertThat(failures).contains("busy's onExit fails");
    }

    // -------------------------------------------------- a failure at another place, and the gathered hang report

    record Ask(ActorRef<Object> replyTo) {
    }

    /** Not registered: a reply of this class cannot leave place 1. */
    record Unlisted(int x) {
    }

    record NewServer() implements ActorRecipe<Ask> {
        @Override
        public Actor<Ask> create() {
            return new Actor<>() {
                @Override
                protected void process(Ask a) {
                    a.replyTo().send(new Unlisted(1));             // fails at the sender: not registered
                }
            };
        }
    }

    static final AtomicReference<ActorRef<Object>> CLIENT = new AtomicReference<>();

    /** Runs {@code program} on a thread of its own: what it threw, or null. */
    private static CompletableFuture<Throwable> running(java.util.concurrent.Callable<?> program) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                program.call();
                return null;
            } catch (Throwable e) {
                return e;
            }
        }, TransportTest.OWN_THREAD);
    }

    /** What ends a test's program. */
    private interface Ending {
        void run() throws Exception;
    }

    /** The first hang report that contains {@code text}; then, whatever was found, {@code end} ends the program. */
    private static String firstReport(BlockingQueue<String> reports, String text, Ending end) throws Exception {
        try {
            String report;
            do {
                report = reports.poll(60, TimeUnit.SECONDS);
                assertThat(report).as("a hang report within 60 s").isNotNull();
            } while (!report.contains(text));
            return report;
        } finally {
            end.run();
        }
    }

    @Test
    void aFailureAtAnotherPlaceReachesPlaceZeroAndItsHangReportGathersEveryPlace() throws Exception {
        BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        CLIENT.set(null);
        CompletableFuture<Throwable> run = running(() ->
                Places.builder().places(2).workers(1).hangReportAfter(Duration.ofSeconds(1))
                        .hangReporter(reports::add).messages(Ask.class, NewServer.class).run(places -> {
                            ActorRef<Ask> server = places.start(1, new NewServer());
                            Actor<Object> client = new Actor<>() {
                                @Override
                                protected void onStart() {
                                    server.send(new Ask(self()));
                                }

                                @Override
                                protected void process(Object m) {
                                    if (m.equals("stop")) {
                                        exit();
                                    }
                                }
                            };
                            CLIENT.set(client.start("client"));
                        }));
        String report = firstReport(reports, "failure at other places so far", () -> {
            TransportTest.waitUntil("the client has started", () -> CLIENT.get() != null);
            CLIENT.get().send("stop");                           // the program ends, whatever the test found
        });
        assertThat(report).contains("client@").contains("\n  at the other places:\n  - place p1: nothing is open here")
                .contains("1 failure at other places so far:\n  - on place p1: java.lang.IllegalArgumentException:"
                        + " cannot send a " + Unlisted.class.getName() + " to actor " + CLIENT.get()
                        + " at place p0 (from place p1): its class");
        List<String> failures = failures(run.get(60, TimeUnit.SECONDS));
        assertThat(failures).hasSize(1).first().asString().startsWith("on place p1: java.lang.IllegalArgumentException:"
                + " cannot send a " + Unlisted.class.getName());
    }

    record Work(int i) {
    }

    record NewFailer() implements ActorRecipe<Work> {
        @Override
        public Actor<Work> create() {
            return new Actor<>() {
                @Override
                protected void process(Work w) {
                    throw new IllegalStateException("fails on work " + w.i());
                }
            };
        }
    }

    @Test
    void aFailureOfAnActorAtAnotherPlaceNamesTheActorAndWhatItProcessed() throws Exception {
        try (CapturedLog log = new CapturedLog(PlaceRuntime.class)) {
            Throwable thrown = running(() -> Places.builder().places(2).workers(1).messages(Work.class,
                    NewFailer.class).run(places -> places.start(1, "failer", new NewFailer()).send(new Work(3))))
                    .get(60, TimeUnit.SECONDS);
            String failure = "java.lang.IllegalStateException: fails on work 3 \\(failer@\\d+ was terminated: this"
                    + " exception escaped process\\(Work\\[i=3]\\)\\)";
            assertThat(failures(thrown)).singleElement().asString().matches("on place p1: " + failure);
            // the log names the actor, not the contents of the message it processed, as the failure log never does
            assertThat(log.lines).anyMatch(line -> line.matches("a failure at place p1, which the program's finish"
                    + " will throw: java.lang.IllegalStateException: fails on work 3"
                    + " \\(failer@\\d+ was terminated\\)"));
        }
    }

    static final AtomicReference<ActorRef<String>> HOLDER = new AtomicReference<>();

    @Test
    void whileOtherPlacesWorkTheHangReportNamesWhatTheBodyThrew() throws Exception {
        BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        HOLDER.set(null);
        CompletableFuture<Throwable> run = running(() ->
                Places.builder().places(2).workers(1).hangReportAfter(Duration.ofSeconds(1))
                        .hangReporter(reports::add).messages(NewHolder.class).run(places -> {
                            HOLDER.set(places.start(1, new NewHolder()));   // keeps the program open
                            throw new IllegalStateException("the body gives up");
                        }));
        String report = firstReport(reports, "the program's body ended", () -> {
            TransportTest.waitUntil("the holder has started", () -> HOLDER.get() != null);
            HOLDER.get().send("exit");                           // the program ends, whatever the test found
        });
        assertThat(report).containsPattern("the program's body ended \\d+ s ago, failing \\(thrown once every place's"
                + " work has ended: java.lang.IllegalStateException: the body gives up\\); its finish waits");
        assertThat(failures(run.get(60, TimeUnit.SECONDS))).containsExactly("the body gives up");
    }
}

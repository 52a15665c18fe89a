package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.BlockedActor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runtime can say which actors and tasks keep a finish open. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HangDiagnosticTest {

    static final class PongActor extends Actor<String> {
        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    /** Blocks in process on "block" until its latch opens; "stop" exits. */
    static final class Stuck extends Actor<String> {
        volatile CountDownLatch latch;

        @Override
        protected void process(String msg) {
            switch (msg) {
                case "block" -> {
                    try {
                        latch.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                case "stop" -> exit();
                default -> { }
            }
        }
    }

    /** Processes a tick every few milliseconds until "stop": progress elsewhere in the runtime. */
    static final class Ticker extends Actor<String> {
        @Override
        protected void onStart() {
            startTimerAtFixedRate("tick", "tick", Duration.ofMillis(5));
        }

        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    /**
     * A message stuck in the program's code is reported as a stall once it has made no progress for the report's
     * period: while another actor progresses, while the finish's body still runs, and again when it stalls anew.
     */
    @Test
    void aMessageStuckInTheProgramsCodeIsReportedAsAStallWhateverElseProgresses() {
        List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(200))
                .hangReporter(reports::add).build()) {
            Stuck stuck = new Stuck();
            rt.finish(() -> {
                ActorRef<String> ref = stuck.start("stuck");
                ActorRef<String> ticker = new Ticker().start("ticker");
                try {
                    for (int episode = 1; episode <= 2; episode++) {
                        CountDownLatch latch = new CountDownLatch(1);
                        stuck.latch = latch;
                        ref.send("block");
                        int expected = episode;
                        // the body still runs, and the ticker progresses all along
                        Await.until("stall report " + episode, () -> stallsOf(reports, stuck).size() == expected);
                        latch.countDown();
                    }
                } finally {
                    stuck.latch.countDown();                 // a failed wait leaves nothing stuck
                    ref.send("stop");
                    ticker.send("stop");
                }
            });
            // a busy machine that keeps the ticker's worker off its core for a period may add a report of it
            assertThat(stallsOf(reports, stuck)).hasSize(2).allSatisfy(r -> assertThat(r)
                    .startsWith("Switchboard stall: actor " + stuck + " has made no progress for ")
                    .contains("(no message processed, no other work started on its thread); running now on thread '")
                    .contains("(WAITING)"));
        }
    }

    /**
     * A finish's body blocked in a get(): its finish waits for nothing yet, so no hang report covers it; a stall
     * report tells of it once, and diagnose() shows it. Before, neither said anything.
     */
    @Test
    void aFinishBodyBlockedInAGetIsReportedAsAStallAndDiagnosed() {
        List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(200))
                .hangReporter(reports::add).build()) {
            DataDrivenFuture<String> config = new DataDrivenFuture<>();
            List<String> diagnosed = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread putter = new Thread(() -> {
                try {
                    Await.until("the body's stall reported", () -> stalls(reports).size() == 1);
                    diagnosed.addAll(rt.diagnose());
                } finally {
                    config.put("ready");                    // a failed wait leaves nothing blocked
                }
            });
            putter.start();
            rt.finish(() -> assertThat(config.get()).isEqualTo("ready"));
            assertThat(stalls(reports)).singleElement().asString()
                    .startsWith("Switchboard stall: the body of a finish opened by thread '"
                            + Thread.currentThread().getName() + "' on thread '" + Thread.currentThread().getName()
                            + "' has been blocked for ")
                    .contains(" in get() of DataDrivenFuture@")
                    .contains(", called at ").contains("HangDiagnosticTest.lambda$aFinishBodyBlockedInAGet");
            assertThat(diagnosed).anySatisfy(d -> assertThat(d).startsWith("the body of a finish opened by thread")
                    .contains(" in get() of DataDrivenFuture@" + Integer.toHexString(System.identityHashCode(config))
                            + " (not put; created by thread '" + Thread.currentThread().getName() + "'"));
        }
    }

    /**
     * The same for a body blocked on an ask's answer, the commonest start of a service ({@code ask(...).get()}):
     * before, an ask's {@code get()} was a plain {@code CompletableFuture}'s, and nothing told of it.
     */
    @Test
    void aFinishBodyBlockedOnAnAsksAnswerIsReportedAsAStallAndDiagnosed() {
        List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(200))
                .hangReporter(reports::add).build()) {
            AtomicReference<ReplyTo<String>> held = new AtomicReference<>();
            Actor<ReplyTo<String>> holder = new Actor<>() {
                @Override
                protected void process(ReplyTo<String> r) {
                    held.set(r);                            // answered from outside, below
                    exit();
                }
            };
            List<String> diagnosed = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread answerer = new Thread(() -> {
                try {
                    Await.until("the body's stall reported", () -> stalls(reports).size() == 1);
                    diagnosed.addAll(rt.diagnose());
                } finally {
                    Await.until("the request taken", () -> held.get() != null);
                    held.get().reply("ready");              // a failed wait leaves nothing blocked
                }
            });
            answerer.start();
            rt.finish(() -> assertThat(holder.start("config").<String>ask(r -> r, Duration.ofMinutes(5)).get())
                    .isEqualTo("ready"));
            assertThat(stalls(reports)).singleElement().asString()
                    .startsWith("Switchboard stall: the body of a finish opened by thread '"
                            + Thread.currentThread().getName() + "' on thread '" + Thread.currentThread().getName()
                            + "' has been blocked for ")
                    .contains(" in get() of the ask of replyTo(request to config@")
                    .contains("(not answered yet), called at ")
                    .contains("HangDiagnosticTest.lambda$aFinishBodyBlockedOnAnAsksAnswer");
            assertThat(diagnosed).anySatisfy(d -> assertThat(d).startsWith("the body of a finish opened by thread")
                    .contains(" in get() of the ask of "));
        }
    }

    /** Replies to any message by counting down {@code ran}; "stop" exits. */
    static final class Pinged extends Actor<String> {
        final CountDownLatch ran = new CountDownLatch(1);

        @Override
        protected void process(String msg) {
            ran.countDown();
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    /** Sends to an idle actor and waits in process for it to run: its activation sits in this worker's buffer. */
    static final class Pinger extends Actor<String> {
        final Pinged pinged;
        final ActorRef<String> ref;
        volatile Boolean pingedRan;

        Pinger(Pinged pinged, ActorRef<String> ref) {
            this.pinged = pinged;
            this.ref = ref;
        }

        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
                return;
            }
            ref.send("ping");
            try {
                pingedRan = pinged.ran.await(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The reporter runs on a thread of its own: one that takes its time (here, until the test ends) does not keep
     * the watchdog from moving a blocked worker's handed-off activation to another worker.
     */
    @Test
    void aStallReporterThatTakesItsTimeDoesNotHoldTheWatchdog() {
        CountDownLatch reporting = new CountDownLatch(1);
        CountDownLatch releaseReporter = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        try (TaskRuntime rt = TaskRuntime.builder().workers(3).hangReportAfter(Duration.ofMillis(200))
                .hangReporter(r -> {
                    if (r.startsWith("Switchboard stall")) {
                        reporting.countDown();
                        try {
                            releaseReporter.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }).build()) {
            Pinged pinged = new Pinged();
            rt.finish(() -> {
                ActorRef<String> pingedRef = pinged.start("pinged");
                Pinger pinger = new Pinger(pinged, pingedRef);
                ActorRef<String> pingerRef = pinger.start("pinger");
                try {
                    rt.async(() -> blocked.await());            // a stall, whose report takes its time
                    Await.until("the stall is being reported", () -> reporting.getCount() == 0);
                    pingerRef.send("go");
                    Await.until("the pinger's wait ended", () -> pinger.pingedRan != null);
                    assertThat(pinger.pingedRan).as("the watchdog moved the pinged actor to another worker").isTrue();
                } finally {
                    blocked.countDown();
                    releaseReporter.countDown();
                    pingerRef.send("stop");
                    pingedRef.send("stop");
                }
            });
        }
    }

    /** A monitor's message task that goes on with the actor's next messages progresses: it is no stall. */
    @Test
    void aMonitorsTaskThatProcessesOneMessageAfterAnotherIsNoStall() {
        List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofSeconds(2))
                .hangReporter(reports::add).build()) {
            rt.finish(() -> {
                Actor<Integer> slow = new Actor<>() {
                    @Override
                    protected void process(Integer m) {
                        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(40));  // work
                    }
                };
                new dev.switchboard.monitor.MutexMonitor().bind(slow);
                ActorRef<Integer> ref = slow.start("slow");
                for (int i = 0; i < 75; i++) {                    // 3 s of messages, 40 ms each
                    ref.send(i);
                }
                ref.stop();
            });
        }
        assertThat(stalls(reports)).isEmpty();
    }

    private static List<String> stallsOf(List<String> reports, Actor<?> actor) {
        return stalls(reports).stream().filter(r -> r.startsWith("Switchboard stall: actor " + actor + " ")).toList();
    }

    private static List<String> stalls(List<String> reports) {
        return reports.stream().filter(r -> r.startsWith("Switchboard stall")).toList();
    }

    @Test
    void finishWithTimeoutNamesTheActorThatNeverExited() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            PongActor forgotten = new PongActor();
            PongActor fine = new PongActor();
            AtomicReference<ActorRef<String>> forgottenRef = new AtomicReference<>();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
                forgottenRef.set(forgotten.start());
                forgottenRef.get().send("ping");
                ActorRef<String> fineRef = fine.start();
                java.util.concurrent.CompletableFuture<?> fineEnded = fineRef.whenTerminated().toCompletableFuture();
                fineRef.send("stop");
                // the report is taken as the body returns (it took the time): what it shows must have happened
                Await.until("the ping processed and fine ended",
                        () -> forgotten.processedCount() == 1 && fineEnded.isDone());
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("actor " + forgotten + " started by thread '" + Thread.currentThread().getName())
                    .hasMessageContaining("never exited")
                    .hasMessageContaining("1 processed")
                    .hasMessageNotContaining(fine.toString());
            assertThat(((FinishTimeoutException) thrown).openItems()).hasSize(1);
            // the actor is still alive; let it go
            rt.finish(() -> forgottenRef.get().send("stop"));
        }
    }

    /** An actor whose "stop" a full dropping mailbox dropped: the report counts its dead letters. */
    @Test
    void aHangReportCountsTheDeadLettersOfAnActorThatNeverExited() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DroppingPong dropping = new DroppingPong();
            for (int i = 0; i < 3; i++) {
                dropping.ref().send("ping");                  // before start(): the third is dropped
            }
            dropping.ref().send("stop");                      // dropped too
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
                dropping.start();
                Await.until("the two pings processed", () -> dropping.processedCount() == 2);
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("actor " + dropping).hasMessageContaining("2 processed, 2 dead letters)");
            rt.finish(() -> dropping.ref().send("stop"));
        }
    }

    /** A {@link PongActor} whose mailbox holds two messages and drops the rest. */
    static final class DroppingPong extends Actor<String> {
        DroppingPong() {
            super(dev.switchboard.actor.BoundedMailbox.dropping(2));
        }

        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    @Test
    void awaitingTaskOnAFutureThatIsNeverPutIsReported() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200),
                    () -> rt.asyncAwait(never, () -> { })));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("asyncAwait task created by thread")
                    .hasMessageContaining("still waiting for 1 of 1")
                    .hasMessageContaining(never.toString());
            never.put(1);
        }
    }

    /** An input given twice counts twice, and every input of a long list is named, each time it was given. */
    @Test
    void awaitingTasksWithRepeatedAndManyInputsAreReportedWithEveryInput() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> f = new DataDrivenFuture<>();
            DataDrivenFuture<Integer> g = new DataDrivenFuture<>();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
                rt.asyncAwait(f, f, () -> { });
                rt.asyncAwait(List.of(g, f, g, f), () -> { });
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class);
            List<String> items = ((FinishTimeoutException) thrown).openItems();
            assertThat(items).hasSize(2);
            assertThat(items).anySatisfy(i -> assertThat(i).contains("still waiting for 2 of 2: " + f + "; " + f));
            assertThat(items).anySatisfy(i -> assertThat(i)
                    .contains("still waiting for 4 of 4: " + g + "; " + f + "; " + g + "; " + f));
            f.put(1);
            g.put(2);
        }
    }

    /** The report names what created the awaiting task (here a task's body), not the worker thread it ran on. */
    @Test
    void awaitingTaskCreatedByATaskNamesThatTask() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
            java.util.concurrent.atomic.AtomicBoolean made = new java.util.concurrent.atomic.AtomicBoolean();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
                rt.async(new AwaitsNever(rt, never, made));
                Await.until("the awaiting task made", made::get);
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("asyncAwait task created by task running HangDiagnosticTest$AwaitsNever")
                    .hasMessageContaining("still waiting for 1 of 1")
                    .hasMessageNotContaining("created by thread 'switchboard");
            never.put(1);
        }
    }

    private record AwaitsNever(TaskRuntime rt, DataDrivenFuture<Integer> never,
                               java.util.concurrent.atomic.AtomicBoolean made) implements TaskBody {
        @Override
        public void run() {
            rt.asyncAwait(never, () -> { });
            made.set(true);
        }
    }

    /**
     * Two workers; a hang reported after 100 ms goes to {@code reports} and counts down {@code reported} (the stall
     * reports the same reporter hears are left out).
     */
    private static TaskRuntime reporting(ConcurrentLinkedQueue<String> reports, CountDownLatch reported) {
        return TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(100)).hangReporter(r -> {
            if (r.startsWith("Switchboard hang diagnostic")) {
                reports.add(r);
                reported.countDown();
            }
        }).build();
    }

    @Test
    void hangReportAfterReportsOnceAndTheFinishStillCompletes() {
        ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = reporting(reports, reported)) {
            PongActor slow = new PongActor();
            rt.finish(() -> {
                ActorRef<String> ref = slow.start();
                rt.async(() -> {
                    try {
                        reported.await(30, TimeUnit.SECONDS);   // exit only after the report was made
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    ref.send("stop");
                });
            });
            assertThat(reports).hasSize(1);
            assertThat(reports.peek()).startsWith("Switchboard hang diagnostic: finish opened by thread")
                    .contains("actor " + slow).contains("never exited")
                    .contains("pool: ").contains(" of 2 workers active, ").contains("tasks queued in worker deques")
                    .containsPattern("-worker-1 [A-Z_]+, \\d+ nodes started");  // workers start lazily
        }
    }

    /**
     * A finish rethrows its failures only once its work has ended; while it waits, a hang report lists the ones it
     * has so far (here the body's own, thrown after it started an actor that never exits), since they often say why.
     */
    @Test
    void aHangReportListsTheFailuresTheFinishHasSoFar() {
        ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = reporting(reports, reported)) {
            PongActor waiting = new PongActor();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<String> ref = waiting.start();
                rt.async(() -> {
                    reported.await(30, TimeUnit.SECONDS);       // exit only after the report was made
                    ref.send("stop");
                });
                java.util.concurrent.atomic.AtomicInteger failing = new java.util.concurrent.atomic.AtomicInteger();
                for (int i = 1; i <= 5; i++) {
                    int n = i;
                    rt.async(() -> {
                        failing.incrementAndGet();
                        throw new IllegalStateException("task " + n + " failed");
                    });
                }
                Await.until("the five tasks failing", () -> failing.get() == 5);   // before the report is taken
                throw new IllegalArgumentException("the body failed after starting " + ref);
            }));
            assertThat(thrown).isInstanceOf(MultiException.class);
            assertThat(reports).hasSize(1);
            assertThat(reports.peek()).contains("actor " + waiting).contains("never exited")
                    .contains("6 failures so far:")
                    .containsPattern("\\n  - and 3 more\\n  pool: ");
            assertThat(reports.peek().split("IllegalStateException: task \\d failed|IllegalArgumentException: the body"
                    + " failed", -1)).hasSize(4);           // three of the six named
        }
    }

    /** An actor that waits inside its own process(): the report says on which thread and where in its code. */
    @Test
    void aHangReportShowsWhereAnActorWaitsInsideProcess() {
        ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = reporting(reports, reported)) {
            BlockedActor waits = new BlockedActor(reported);
            rt.finish(() -> {
                waits.start().send("wait");
                waits.awaitParked();                          // where the report must find it
            });
            assertThat(reports).hasSize(1);
            assertThat(reports.peek()).contains("actor " + waits)
                    .containsPattern("running now on thread '[^']+-worker-\\d' \\((WAITING|TIMED_WAITING)\\), in "
                            + Pattern.quote(BlockedActor.class.getName()) + "\\.process\\(BlockedActor\\.java:"
                            + "\\d+\\), calling java\\.util\\.concurrent\\.CountDownLatch\\.await");
        }
    }

    /** A plain task that waits inside its own code: the report names it, its thread and where it waits. */
    @Test
    void aHangReportShowsWhereATaskWaitsInItsOwnCode() {
        ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = reporting(reports, reported)) {
            rt.finish(() -> rt.finish(() -> {
                dev.switchboard.testing.BlockedTask task = new dev.switchboard.testing.BlockedTask(reported);
                rt.async(task::run);
                task.awaitParked();                           // where the report must find it
            }));
            assertThat(reports).isNotEmpty();
            assertThat(reports.peek())
                    .containsPattern("running now on thread '[^']+-worker-\\d' \\((WAITING|TIMED_WAITING)\\), in "
                            + Pattern.quote(dev.switchboard.testing.BlockedTask.class.getName())
                            + "\\.run\\(BlockedTask\\.java:\\d+\\), calling java\\.util\\.concurrent\\.CountDownLatch"
                            + "\\.await")
                    .doesNotContain("no actor, awaiting task or blocked get() is open");
        }
    }

    /** A hang reporter that throws does not end the wait it reports on: the finish ends as its work does. */
    @Test
    void aHangReporterThatThrowsLeavesTheFinishWaitingForItsWork() {
        List<Throwable> unscoped = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(100))
                .onUnscopedFailure(unscoped::add).hangReporter(r -> {
                    if (r.startsWith("Switchboard hang diagnostic")) {
                        reported.countDown();
                        throw new IllegalStateException("the reporter failed");
                    }
                }).build()) {
            BlockedActor blocked = new BlockedActor(reported);
            rt.finish(() -> blocked.start().send("wait"));
            assertThat(blocked.state()).isEqualTo(dev.switchboard.actor.ActorState.TERMINATED);
        }
        assertThat(unscoped).singleElement().satisfies(t -> assertThat(t).hasMessage("the reporter failed"));
    }

    /**
     * An actor that waits for its own timer is shown with its active timers: ten by name, the rest counted (an
     * actor with hundreds of timers made a line of hundreds).
     */
    @Test
    void aHangReportListsAnActorsActiveTimers() {
        ConcurrentLinkedQueue<String> reports = new ConcurrentLinkedQueue<>();
        CountDownLatch reported = new CountDownLatch(1);
        try (TaskRuntime rt = reporting(reports, reported)) {
            java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
            Actor<String> waiting = new Actor<>() {
                @Override
                protected void onStart() {
                    startSingleTimer("deadline", "give up", Duration.ofMinutes(10));
                    for (int i = 0; i < 25; i++) {
                        startSingleTimer("t" + i, "give up", Duration.ofMinutes(10));
                    }
                    rt.async(() -> {                        // ends it once the report has been made
                        reported.await(30, TimeUnit.SECONDS);
                        self().send("give up");
                    });
                    started.set(true);
                }

                @Override
                protected void process(String m) {
                    exit();
                }
            };
            rt.finish(() -> {
                waiting.start();
                Await.until("onStart run", started::get);
            });
            assertThat(reports.peek()).contains("actor " + waiting)
                    .containsPattern("never exited \\(idle, .*processed, timers: '[^']+' \\(once\\)"
                            + "(, '[^']+' \\(once\\)){9}, and 16 more\\)");
        }
    }

    @Test
    void diagnoseOnDemandWhileAFinishWaits() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            PongActor stuck = new PongActor();
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<ActorRef<String>> stuckRef = new AtomicReference<>();
            Thread waiter = new Thread(() -> rt.finish(() -> {
                stuckRef.set(stuck.start());
                started.countDown();
            }));
            waiter.start();
            started.await(30, TimeUnit.SECONDS);
            // the waiter registers once its body has returned
            Await.until("a hang report", () -> !rt.diagnose().isEmpty());
            List<String> reports = rt.diagnose();
            assertThat(reports).hasSize(1);
            assertThat(reports.get(0)).contains("actor " + stuck).contains("never exited").contains("idle");
            rt.async(() -> stuckRef.get().send("stop"));   // any sender will do; the actor exits
            waiter.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(waiter.isAlive()).isFalse();
            assertThat(rt.diagnose()).isEmpty();
        }
    }

    @Test
    void aTaskBlockedInGetIsNamedWithTheFutureAndWhereItWasCreated() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(300), () -> blockInGet(rt, never)));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("task running HangDiagnosticTest (lambda) on thread '")
                    .hasMessageContaining("in get() of " + never)
                    .hasMessageContaining("not put; created by thread '" + Thread.currentThread().getName() + "'")
                    // a stack frame: on the module path it starts with the module ("dev.switchboard.core@0.1.0/")
                    .hasMessageFindingMatch("called at ([^/ ]+/)?" + Pattern.quote(HangDiagnosticTest.class.getName()));
            never.put(1);
        }
    }

    @Test
    void aFutureNamesTheTaskThatComputesIt() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> gate = new DataDrivenFuture<>();
            java.util.concurrent.atomic.AtomicReference<TaskFuture<Integer>> computed =
                    new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicReference<String> described =
                    new java.util.concurrent.atomic.AtomicReference<>();
            rt.finish(() -> rt.async(() -> {
                TaskFuture<Integer> f = rt.future(() -> gate.get() + 1);   // cannot end before the gate is put
                computed.set(f);
                described.set(f.toString());
                gate.put(1);
            }));
            assertThat(described.get()).contains("not put; computed by task running HangDiagnosticTest (lambda)");
            assertThat(computed.get().toString()).endsWith("(put)");
            assertThat(computed.get().get()).isEqualTo(2);
        }
    }

    @Test
    void aFutureCreatedByAnActorSaysSo() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            java.util.concurrent.atomic.AtomicReference<DataDrivenFuture<Integer>> made =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Actor<String> maker = new Actor<>() {
                @Override
                protected void process(String m) {
                    made.set(new DataDrivenFuture<>());
                    exit();
                }
            };
            rt.finish(() -> {
                ActorRef<String> ref = maker.start();
                ref.send("make");
            });
            assertThat(made.get().toString()).contains("not put; created by actor " + maker);
        }
    }

    /** A question to an {@link Asker}, answered "answer". */
    record Question(String text, dev.switchboard.actor.ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            return text;
        }
    }

    static final class Asker extends Actor<Object> {
        ActorRef<Object> other;

        void exitLater() {
            self().send("exit");
        }

        @Override
        protected void process(Object m) {
            switch (m) {
                case Question q -> q.replyTo().reply("answer");
                case String s when s.equals("exit") -> exit();
                default -> awaitReply(other, r -> new Question("question from " + this, r), (String answer) -> exit());
            }
        }
    }

    @Test
    void anAwaitReplyToAnActorNeverStartedNamesIt() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Asker asker = new Asker();
            Asker neverStarted = new Asker();
            asker.other = neverStarted.ref();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(300), () -> {
                ActorRef<Object> ref = asker.start();
                ref.send("ask");
                Await.until("the asker awaiting", () -> asker.processedCount() == 1);
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("actor " + asker)
                    .hasMessageContaining("awaiting 1 reply: from " + neverStarted + " to question from " + asker)
                    .hasMessageContaining(neverStarted + " was never started: the request waits in its mailbox");
            rt.finish(() -> {                                // the request is answered; the asker exits
                neverStarted.start();
                neverStarted.exitLater();
            });
            // the asker's handler runs next
            Await.until("the asker's exit", () -> asker.state() == dev.switchboard.actor.ActorState.TERMINATED);
            assertThat(asker.state()).isEqualTo(dev.switchboard.actor.ActorState.TERMINATED);
        }
    }

    @Test
    void aCycleOfAwaitReplyIsNamed() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Asker a = new Asker();
            Asker b = new Asker();
            a.other = b.ref();
            b.other = a.ref();
            a.ref().send("ask");                             // each takes "ask" first, then holds the other's request
            b.ref().send("ask");
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(300), () -> {
                a.start();
                b.start();
                awaitBothAsking(a, b);
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("a deadlock: " + a + " awaits a reply from " + b + ", which awaits a reply from " + a)
                    .hasMessageContaining("a deadlock: " + b + " awaits a reply from " + a + ", which awaits a reply from " + b);
            // the finish that stopped waiting handed its work to the global scope, whose report still names it
            assertThat(String.join("\n", rt.diagnose()))
                    .contains("a deadlock: " + a + " awaits a reply from " + b)
                    .contains("which stopped waiting)");
            rt.close();                                       // the deadlock cannot end any other way
        }
    }

    /**
     * A finish is reported once while nothing progresses (an idle service looks so), and again only if a deadlock
     * forms after some progress: it was reported once in all, so a deadlock after an idle spell was never told.
     */
    @Test
    void aDeadlockThatFormsAfterAnIdleReportIsReportedToo() throws Exception {
        List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        TaskRuntime rt = TaskRuntime.builder().workers(2).hangReportAfter(Duration.ofMillis(100))
                .hangReporter(r -> {
                    if (r.startsWith("Switchboard hang diagnostic")) {    // not the stall reports it hears too
                        reports.add(r);
                    }
                }).build();
        try {
            Asker a = new Asker();
            Asker b = new Asker();
            a.other = b.ref();
            b.other = a.ref();
            java.util.concurrent.CompletableFuture<Throwable> finished = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> catchThrowable(() -> rt.finish(() -> {
                        a.start();
                        b.start();
                    })));
            Await.until("the idle service's report", () -> !reports.isEmpty());
            assertThat(reports.get(0)).doesNotContain("a deadlock");
            a.ref().send("ask");                                 // each asks the other, and holds the other's request
            b.ref().send("ask");
            Await.until("the deadlock's report", () -> reports.size() >= 2);
            assertThat(reports.get(1)).contains("a deadlock: ");
            rt.close();                                          // the deadlock cannot end any other way
            assertThat(finished.get(Await.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS))
                    .isInstanceOf(dev.switchboard.task.RuntimeClosedException.class);
            assertThat(reports).hasSize(2);
        } finally {
            rt.close();
        }
    }

    @Test
    void workHandedOverByNestedFinishesThatStoppedWaitingIsNamedWhereItEndedUp() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Asker a = new Asker();
            Asker b = new Asker();
            a.other = b.ref();
            b.other = a.ref();
            a.ref().send("ask");
            b.ref().send("ask");
            Throwable outer = catchThrowable(() -> rt.finish(Duration.ofMillis(600), () -> {
                Throwable inner = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
                    a.start();
                    b.start();
                    awaitBothAsking(a, b);
                }));
                assertThat(inner).isInstanceOf(FinishTimeoutException.class);
            }));
            assertThat(outer).isInstanceOf(FinishTimeoutException.class);
            // the inner finish handed its work to the outer one, which handed it to the global scope
            assertThat(String.join("\n", rt.diagnose()))
                    .contains("a deadlock: " + a + " awaits a reply from " + b)
                    .contains("which stopped waiting)");
            rt.close();                                       // the deadlock cannot end any other way
        }
    }

    @Test
    void aTaskBlockedInGetThatAFinishHandedOverIsNamed() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DataDrivenFuture<Integer> never = new DataDrivenFuture<>();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(300), () -> blockInGet(rt, never)));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class);
            assertThat(String.join("\n", rt.diagnose())).contains("in get() of DataDrivenFuture");
            never.put(1);
        }
    }

    /** Returns once each asker has taken its "ask" and awaits the other's reply (the deadlock has formed). */
    private static void awaitBothAsking(Asker a, Asker b) {
        Await.until("each asker awaiting the other", () -> a.processedCount() == 1 && b.processedCount() == 1);
    }

    /** Starts a task that waits in {@code future.get()}, and returns once it is parked there. */
    private static void blockInGet(TaskRuntime rt, DataDrivenFuture<Integer> future) {
        AtomicReference<Thread> getter = new AtomicReference<>();
        rt.async(() -> {
            getter.set(Thread.currentThread());
            future.get();
        });
        Await.until("a task parked in get() of " + future,
                () -> getter.get() != null && java.util.concurrent.locks.LockSupport.getBlocker(getter.get()) == future);
    }
}

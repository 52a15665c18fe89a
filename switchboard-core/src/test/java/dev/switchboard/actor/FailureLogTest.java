package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.RecordingLogger;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure that ends an actor is logged when it happens, not when its finish returns: the actor, where it failed
 * (the message's type, never its contents), what happens next, the cause; at most so many lines a minute of the
 * runtime's clock, the rest counted and said on the next line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureLogTest {

    record Secret(String password) {}

    /** Fails on every message. */
    static final class Vault extends Actor<Secret> {
        @Override
        protected void process(Secret s) {
            throw new IllegalStateException("the vault is locked");
        }
    }

    static RecordingLogger recordingOf(TaskRuntime rt) {
        RecordingLogger log = new RecordingLogger();
        RuntimeInternals.schedulerOf(rt).failureLog().logger(log);
        return log;
    }

    @Test
    void aFailureIsLoggedWhileItsFinishIsStillOpenNamingTheActorAndTheMessagesTypeNotItsContents() {
        try (TaskRuntime rt = TaskRuntime.builder().name("bank").workers(2).build()) {
            RecordingLogger log = recordingOf(rt);
            CompletableFuture<Void> release = new CompletableFuture<>();
            assertThatThrownBy(() -> rt.finish(() -> {
                new Vault().start("vault").send(new Secret("hunter2"));
                // the finish stays open until the log has the line: the failure is seen when it happens
                dev.switchboard.Switchboard.async(() -> {
                    Await.until("the failure logged", () -> !log.lines().isEmpty());
                    release.complete(null);
                });
            })).isInstanceOf(IllegalStateException.class).hasMessage("the vault is locked");
            assertThat(release).isDone();
            assertThat(log.lines()).singleElement().satisfies(line -> {
                assertThat(line.level()).isEqualTo(System.Logger.Level.ERROR);
                assertThat(line.text()).matches("Switchboard: actor vault@\\d+ of runtime 'bank' failed processing"
                        + " a Secret: java.lang.IllegalStateException: the vault is locked; it is terminated, and its"
                        + " failure goes to the finish opened by thread '.*'");
                assertThat(line.text()).doesNotContain("hunter2");
                assertThat(line.cause()).isInstanceOf(IllegalStateException.class);
            });
        }
    }

    /** Blocks in its message until released, then spawns: after a close, the spawn is refused. */
    static final class Late extends Actor<String> {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        protected void process(String m) {
            inside.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            dev.switchboard.Switchboard.async(() -> { });
        }
    }

    /**
     * A failure the close caused (an actor's spawn refused by the closed runtime, which had terminated the actor:
     * the failure reaches no finish) is logged at INFO, saying so, without a stack trace: a close's consequences
     * are no errors of the program. It was logged as an error, with its stack trace.
     */
    @Test
    void aFailureInOnStartIsLoggedAsOneInOnStart() {
        try (TaskRuntime rt = TaskRuntime.builder().name("bank").workers(2).build()) {
            RecordingLogger log = recordingOf(rt);
            assertThatThrownBy(() -> rt.finish(() -> new Actor<String>() {
                @Override
                protected void onStart() {
                    throw new IllegalStateException("no connection");
                }

                @Override
                protected void process(String m) {
                }
            }.start("teller"))).isInstanceOf(IllegalStateException.class).hasMessage("no connection");
            assertThat(log.lines()).singleElement().satisfies(line -> assertThat(line.text())
                    .matches("Switchboard: actor teller@\\d+ of runtime 'bank' failed in onStart\\(\\):"
                            + " java.lang.IllegalStateException: no connection; it is terminated, .*"));
        }
    }

    @Test
    void aFailureTheCloseCausedIsLoggedAtInfoAsTheClosesDoing() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("shop").workers(2).build();
        List<java.util.logging.LogRecord> logged = new CopyOnWriteArrayList<>();
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("dev.switchboard");
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getMessage().contains("runtime 'shop'") && r.getMessage().contains("fail")) {
                    logged.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(capture);
        try {
            closeWhileAnActorStillRuns(rt);
        } finally {
            jul.removeHandler(capture);
        }
        // the failure log and the unscoped handler's log may both tell of it, by how far the close had come
        assertThat(logged).as("%s", logged.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList())
                .isNotEmpty().allSatisfy(r -> {
                    assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.INFO);
                    assertThat(r.getMessage()).matches("Switchboard: (failure outside every finish of runtime 'shop'"
                            + " after its close|actor late@\\d+ of runtime 'shop' failed processing a String after"
                            + " the runtime's close).*: dev.switchboard.task.RuntimeClosedException: .*");
                    assertThat(r.getThrown()).isNull();
                });
    }

    private static void closeWhileAnActorStillRuns(TaskRuntime rt) throws InterruptedException {
        Late late = new Late();
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> late.start("late").send("go"))));
        owner.start();
        assertThat(late.inside.await(20, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(() -> rt.close(Duration.ofSeconds(20)));
        closer.start();
        Await.until("the runtime closed", rt::isClosed);
        late.release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closer.isAlive() || owner.isAlive()).as("the close and the finish ended").isFalse();
    }

    /**
     * An actor left by a finish that timed out with no finish around it fails later: its failure reaches no finish,
     * so the runtime's unscoped-failure handler hears of it (naming the actor), and the failure log does not tell
     * of it too, as going to a finish that no longer waits.
     */
    @Test
    void aFailureThatReachesNoFinishIsToldOnceByTheUnscopedHandlerNotByTheFailureLogToo() {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().name("bank").workers(2).onUnscopedFailure(unscoped::add)
                .build()) {
            RecordingLogger log = recordingOf(rt);
            AtomicReference<ActorRef<Secret>> vault = new AtomicReference<>();
            assertThatThrownBy(() -> rt.finish(Duration.ofMillis(50), () -> vault.set(new Vault().start("vault"))))
                    .isInstanceOf(FinishTimeoutException.class);
            vault.get().send(new Secret("hunter2"));
            Await.until("the unscoped handler heard of the failure", () -> !unscoped.isEmpty());
            assertThat(unscoped).singleElement().satisfies(failure -> {
                assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("the vault is locked");
                assertThat(failure.getSuppressed()).singleElement().isInstanceOf(ProcessingFailure.class)
                        .extracting(Throwable::getMessage).asString().startsWith("vault@");
            });
            assertThat(log.lines()).as("logged once, by the unscoped handler").isEmpty();
        }
    }

    @Test
    void aTasksFailureIsLoggedWhileItsFinishStaysOpenAndNotWhenTheFinishEndsSoon() {
        try (TaskRuntime quick = TaskRuntime.builder().workers(2).build()) {     // looks after 10 s
            RecordingLogger log = recordingOf(quick);
            assertThatThrownBy(() -> quick.finish(() -> quick.async(() -> {
                throw new IllegalStateException("a task failed at once");
            }))).hasMessage("a task failed at once");
            assertThat(log.lines()).as("a finish that ends soon throws them, and logs nothing").isEmpty();
        }
        try (TaskRuntime rt = TaskRuntime.builder().name("service").workers(2).hangReportAfter(Duration.ofMillis(100))
                .hangReporter(report -> { }).build()) {
            RecordingLogger log = recordingOf(rt);
            assertThatThrownBy(() -> rt.finish(() -> {
                for (int i = 1; i <= 3; i++) {
                    int job = i;
                    rt.async(() -> {
                        throw new IllegalStateException("job " + job + " failed");
                    });
                }
                // a service: the finish stays open until the log has told of its tasks' failures
                rt.async(() -> Await.until("the failures logged", () -> !log.lines().isEmpty()));
            })).isInstanceOf(dev.switchboard.task.MultiException.class);
            assertThat(log.lines()).first().satisfies(line -> {                // all 3, or those failed by then
                assertThat(line.level()).isEqualTo(System.Logger.Level.ERROR);
                assertThat(line.text()).matches("Switchboard: [123] tasks? of the finish opened by thread '.*' in"
                        + " runtime 'service' failed while it stayed open \\(it throws their failures when it"
                        + " ends\\); the first: java.lang.IllegalStateException: job \\d failed");
                assertThat(line.cause()).isInstanceOf(IllegalStateException.class);
            });
        }
    }

    /**
     * A service's finish body blocks until it is told to stop, so its finish waits for nothing: its tasks' failures
     * are logged at the hang report's period all the same (the watchdog's). Nothing logged them until the body
     * returned.
     */
    @Test
    void aTasksFailureIsLoggedWhileItsFinishsBodyStillRuns() {
        try (TaskRuntime rt = TaskRuntime.builder().name("service").workers(2).hangReportAfter(Duration.ofMillis(100))
                .hangReporter(report -> { }).build()) {
            RecordingLogger log = recordingOf(rt);
            assertThatThrownBy(() -> rt.finish(() -> {
                rt.async(() -> {
                    throw new IllegalStateException("a job failed");
                });
                Await.until("the failure logged while the body runs", () -> !log.lines().isEmpty());
            })).isInstanceOf(IllegalStateException.class).hasMessage("a job failed");
            assertThat(log.lines()).singleElement().satisfies(line -> assertThat(line.text())
                    .matches("Switchboard: 1 task of the finish opened by thread '.*' in runtime 'service' failed while"
                            + " it stayed open \\(it throws their failures when it ends\\); the first:"
                            + " java.lang.IllegalStateException: a job failed"));
        }
    }

    @Test
    void atMostSoManyLinesAMinuteOfTheRuntimesClockAndTheNextLineSaysHowManyWereNot() {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = RuntimeInternals.clock(TaskRuntime.builder().workers(2).logFailures(3), clock)
                .build()) {
            RecordingLogger log = recordingOf(rt);
            for (int i = 0; i < 10; i++) {
                assertThatThrownBy(() -> rt.finish(() -> new Vault().start().send(new Secret("x"))))
                        .isInstanceOf(IllegalStateException.class);
            }
            assertThat(log.lines()).hasSize(3);
            assertThat(RuntimeInternals.schedulerOf(rt).failureLog().failures()).isEqualTo(10);
            clock.advance(Duration.ofMinutes(1));
            assertThatThrownBy(() -> rt.finish(() -> new Vault().start().send(new Secret("x"))))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(log.lines()).hasSize(4);
            assertThat(log.lines().get(3).text()).endsWith("(7 more failures since the last line were not logged:"
                    + " more than 3 a minute)");
        }
    }

    /**
     * Actors the close ends in the middle of a message are no failures: past the minute's lines they are counted
     * apart, and the close says so at INFO. They were counted as failures, and the close said at ERROR that so many
     * failures "reached their finish", which none had.
     */
    @Test
    void actorsTheCloseEndsPastTheMinutesLinesAreCountedAtInfoNotAsFailures() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closing-shop").workers(2).logFailures(1).build();
        RecordingLogger log = recordingOf(rt);
        Late first = new Late();
        Late second = new Late();
        Thread owner = new Thread(() -> catchThrowable(() -> rt.finish(() -> {
            first.start("first").send("go");
            second.start("second").send("go");
        })));
        owner.start();
        assertThat(first.inside.await(20, TimeUnit.SECONDS) && second.inside.await(20, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(() -> rt.close(Duration.ofSeconds(20)));
        closer.start();
        Await.until("the runtime closed", rt::isClosed);
        first.release.countDown();
        second.release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        owner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closer.isAlive() || owner.isAlive()).as("the close and the finish ended").isFalse();
        List<RecordingLogger.Line> lines = log.lines();
        assertThat(lines).as("%s", lines).isNotEmpty()
                .allSatisfy(line -> assertThat(line.level()).isEqualTo(System.Logger.Level.INFO))
                .noneSatisfy(line -> assertThat(line.text()).contains("more failure"));
        assertThat(RuntimeInternals.schedulerOf(rt).failureLog().failures()).isZero();
        if (lines.size() > 1) {                   // both told the log (the second past the minute's one line)
            assertThat(lines.get(lines.size() - 1).text()).isEqualTo("Switchboard: runtime 'closing-shop' closed; 1"
                    + " more actor that the close ended in the middle of a message (no failure of the program) were"
                    + " not logged: more than 1 line a minute");
        }
    }

    /** The count of failures past the minute's lines is not lost when the runtime closes before a next line. */
    @Test
    void theFailuresNotLoggedAreCountedWhenTheRuntimeCloses() {
        RecordingLogger log;
        try (TaskRuntime rt = TaskRuntime.builder().name("vaults").workers(2).logFailures(2).build()) {
            log = recordingOf(rt);
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> rt.finish(() -> new Vault().start().send(new Secret("x"))))
                        .isInstanceOf(IllegalStateException.class);
            }
            assertThat(log.lines()).hasSize(2);
        }
        assertThat(log.lines()).hasSize(3);
        assertThat(log.lines().get(2).text()).startsWith("Switchboard: runtime 'vaults' closed with 3 more failures"
                + " since the last line that were not logged: more than 2 a minute");
    }

    @Test
    void noFailureLoggingLogsNoneAndTheFailuresStillReachTheirFinish() {
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).noFailureLogging().build()) {
            RecordingLogger log = recordingOf(rt);
            assertThatThrownBy(() -> rt.finish(() -> new Vault().start().send(new Secret("x"))))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(log.lines()).isEmpty();
            assertThat(RuntimeInternals.schedulerOf(rt).failureLog().failures()).isEqualTo(1);
        }
    }

    @Test
    void theSettingIsASystemPropertyToo() {
        Properties p = new Properties();
        p.setProperty("switchboard.logFailures", "off");
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).systemProperties(p).build()) {
            RecordingLogger log = recordingOf(rt);
            assertThatThrownBy(() -> rt.finish(() -> new Vault().start().send(new Secret("x"))))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(log.lines()).isEmpty();
        }
        p.setProperty("switchboard.logFailures", "many");
        assertThatThrownBy(() -> TaskRuntime.builder().systemProperties(p))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("switchboard.logFailures");
        assertThatThrownBy(() -> TaskRuntime.builder().logFailures(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}

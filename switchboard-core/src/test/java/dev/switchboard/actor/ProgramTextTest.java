package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.MultiException;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.RecordingLogger;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtime's diagnostics describe the program's messages and failures with their {@code toString()}, which is
 * the program's code: one that returns null or throws is described by its class instead, and never replaces the
 * outcome it was describing (an ask's timeout, a failure, a dead letter, a hang report, a log line). Each of these
 * threw a {@code NullPointerException} or the program's own exception instead: an ask never completed, a finish
 * threw the diagnostic's exception and lost the failures, a hang report named no actor, a failure was not logged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProgramTextTest {
    /** Prints as null. */
    record Blank(ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            return null;
        }
    }

    /** Its message is made from state it does not have, as a lazily formatted exception's may be. */
    static final class Lazy extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("no context to format the message from");
        }
    }

    /** Neither its message nor its cause can be read. */
    static final class Broken extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("no message");
        }

        @Override
        public synchronized Throwable getCause() {
            throw new IllegalStateException("no cause");
        }
    }

    /**
     * A failure outside every finish whose text cannot be made is logged without its stack trace, saying so, before
     * and after its runtime's close. The default handler's logger failed printing it (the JDK's logging printed
     * "ErrorManager: 5"), and after the close the check whether it was the close's doing threw, and it was lost.
     */
    @Test
    void anUnscopedFailureWhoseTextThrowsIsLoggedBeforeAndAfterTheClose() throws Exception {
        RecordingLogger log = new RecordingLogger();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        TaskRuntime rt = TaskRuntime.builder().name("unscoped").workers(1).build();
        dev.switchboard.task.RuntimeInternals.schedulerOf(rt).failureLog().logger(log);
        rt.async(() -> {
            throw new Broken();
        });
        dev.switchboard.testing.Await.until("the first failure logged", () -> log.lines().size() == 1);
        rt.async(() -> {
            started.countDown();
            try {
                new java.util.concurrent.CountDownLatch(1).await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new Broken();                  // the close interrupts it: a failure after the close
            }
        });
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        rt.close(Duration.ZERO);
        dev.switchboard.testing.Await.until("the second failure logged", () -> log.lines().size() >= 2);
        assertThat(log.lines()).filteredOn(l -> l.text().contains("outside every finish")).hasSize(2)
                .allSatisfy(l -> assertThat(l.text()).contains("runtime 'unscoped'").contains(Broken.class.getName())
                        .contains("(no stack trace: the text of the failure or of one of its causes cannot be made: a"
                                + " toString(), getMessage() or getCause() throws)"));
    }

    static final class Silent extends Actor<Object> {
        @Override
        protected void process(Object m) {
            if ("exit".equals(m)) {
                exit();
            }
        }
    }

    @Test
    void anAskWhoseRequestPrintsAsNullTimesOutAndFailsAtOnceWhenItCannotBeAnswered() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().name("blank").workers(2).build()) {
            ActorRef<Object>[] silent = ActorRef.newArray(1);
            Throwable[] timedOut = new Throwable[1];
            Throwable[] ended = new Throwable[1];
            rt.finish(() -> {
                silent[0] = new Silent().start("silent");
                timedOut[0] = catchThrowable(() -> silent[0].<String>ask(Blank::new, Duration.ofMillis(100)).get());
                silent[0].send("exit");
                silent[0].whenTerminated().toCompletableFuture().join();
                ended[0] = catchThrowable(() -> silent[0].<String>ask(Blank::new, Duration.ofHours(1)).get());
            });
            assertThat(timedOut[0]).isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(ReplyTimeoutException.class)
                    .hasMessageStartingWith(silent[0] + " did not reply to " + Blank.class.getName() + "@")
                    .hasMessageContaining("(its toString() returned null) within 100 ms");
            assertThat(ended[0]).cause().isInstanceOf(NoReplyException.class)
                    .hasMessageContaining("(its toString() returned null)");
            assertThat(rt.deadLetterCount()).isEqualTo(1);
        }
    }

    @Test
    void failuresWhoseTextThrowsReachTheFinishAreLoggedAndDoNotHideAStuckActor() {
        RecordingLogger log = new RecordingLogger();
        try (TaskRuntime rt = TaskRuntime.builder().name("lazy").workers(2).build()) {
            dev.switchboard.task.RuntimeInternals.schedulerOf(rt).failureLog().logger(log);
            Throwable two = catchThrowable(() -> rt.finish(() -> {
                for (String name : new String[] {"first", "second"}) {
                    new Actor<String>() {
                        @Override
                        protected void process(String m) {
                            throw new Lazy();
                        }
                    }.start(name).send("go");
                }
            }));
            assertThat(two).isInstanceOf(MultiException.class);
            assertThat(((MultiException) two).failures()).extracting(f -> f.getClass().getSimpleName())
                    .containsExactly("Lazy", "Lazy");
            assertThat(two.getMessage()).contains(Lazy.class.getName() + "@").contains("(its toString() threw ");
            assertThat(log.lines()).hasSize(2).allSatisfy(line -> assertThat(line.text())
                    .contains("(no stack trace: the text of the failure or of one of its causes cannot be made: a"
                                + " toString(), getMessage() or getCause() throws)"));

            ActorRef<Object>[] stuck = ActorRef.newArray(1);
            CompletableFuture<Throwable> timedOut = new CompletableFuture<>();
            timedOut.complete(catchThrowable(() -> rt.finish(Duration.ofMillis(500), () -> {
                stuck[0] = new Silent().start("stuck");
                new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        throw new Lazy();
                    }
                }.start("lazy").send("go");
            })));
            assertThat(timedOut.join()).isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("actor " + stuck[0] + " started by")
                    .hasMessageContaining("(its toString() threw ");
            rt.finish(() -> stuck[0].send("exit"));
        }
    }

    /** Counts the calls of its {@code toString()}. */
    record Counted(java.util.concurrent.atomic.AtomicInteger printed, ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            return "Counted#" + printed.incrementAndGet();
        }
    }

    /**
     * A finish that times out describes each open item once, though its exception carries both the report and the
     * items: a slow {@code toString()} (seconds, in a hostile test) made the timeout come that much later per pass.
     */
    @Test
    void aTimedOutFinishDescribesTheProgramsObjectsOnce() {
        java.util.concurrent.atomic.AtomicInteger printed = new java.util.concurrent.atomic.AtomicInteger();
        try (TaskRuntime rt = TaskRuntime.builder().name("once").workers(2).noHangReports().build()) {
            ActorRef<Object>[] silent = ActorRef.newArray(1);
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofMillis(300), () -> {
                silent[0] = new Silent().start("silent");
                new Actor<Void>() {
                    @Override
                    protected void onStart() {
                        this.<Object, String>awaitReply(silent[0], r -> new Counted(printed, r), (String a) -> { });
                    }

                    @Override
                    protected void process(Void m) {
                    }
                }.start("asker");
            }));
            assertThat(thrown).isInstanceOf(FinishTimeoutException.class).hasMessageContaining("Counted#1");
            assertThat(((FinishTimeoutException) thrown).openItems()).anyMatch(item -> item.contains("Counted#1"));
            assertThat(printed.get()).isEqualTo(1);
        }
    }
}

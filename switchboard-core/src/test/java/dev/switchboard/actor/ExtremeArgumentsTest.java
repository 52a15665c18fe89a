package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Arguments at their extremes and calls where they cannot work: a duration as long as {@code Duration} allows
 * means "for ever" wherever a duration is taken (each of these threw {@code ArithmeticException: long overflow},
 * from supervision, a waiting send, the builder), and a null or a misplaced call is refused naming what and where.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExtremeArgumentsTest {
    static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    /** Fails on its first {@code failures} messages (counted across restarts), then exits. */
    static final class Flaky extends Actor<String> {
        final AtomicInteger failed;
        final int failures;

        Flaky(AtomicInteger failed, int failures) {
            this.failed = failed;
            this.failures = failures;
        }

        @Override
        protected void process(String m) {
            if (failed.getAndIncrement() < failures) {
                throw new IllegalStateException("flaky " + failed.get());
            }
            exit();
        }
    }

    @Test
    void supervisionWithAWindowOrABackoffOfForeverRestarts() {
        for (SupervisorStrategy strategy : Arrays.asList(SupervisorStrategy.restart().withLimit(5, FOREVER),
                SupervisorStrategy.restart().withBackoff(Duration.ofMillis(1), FOREVER, 0))) {
            AtomicInteger failed = new AtomicInteger();
            try (TaskRuntime rt = TaskRuntime.builder().name("forever").workers(2).noFailureLogging().build()) {
                rt.finish(() -> new Actor<String>() {
                    @Override
                    protected void onStart() {
                        ActorRef<String> child = startChild(() -> new Flaky(failed, 2), strategy);
                        for (int i = 0; i < 3; i++) {
                            child.send("go");
                        }
                        watch(child, end -> "child ended");
                    }

                    @Override
                    protected void process(String m) {
                        exit();
                    }
                }.start());
            }
            assertThat(failed.get()).as(strategy.toString()).isEqualTo(3);     // two failures, two restarts
        }
    }

    @Test
    void aSendWaitingForeverForRoomWaitsUntilThereIsRoom() {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger processed = new AtomicInteger();
        try (TaskRuntime rt = TaskRuntime.builder().name("room").workers(2).build()) {
            rt.finish(() -> {
                ActorRef<String> slow = new Actor<String>(BoundedMailbox.waiting(1, FOREVER)) {
                    @Override
                    protected void process(String m) {
                        if (processed.incrementAndGet() == 1) {
                            busy.countDown();
                            await(release);
                        } else if (processed.get() == 3) {
                            exit();
                        }
                    }
                }.start();
                slow.send("first");                           // taken: the actor holds it
                await(busy);
                slow.send("second");                          // the mailbox's one place
                Thread sender = Thread.currentThread();
                Thread.startVirtualThread(() -> {             // room, once the sender waits for it
                    Await.until("the sender waits", () -> sender.getState() == Thread.State.TIMED_WAITING);
                    release.countDown();
                });
                slow.send("third");                           // waits for the room the second leaves
            });
            assertThat(processed.get()).isEqualTo(3);
        }
    }

    @Test
    void aHangReportPeriodOfForeverIsTaken() {
        try (TaskRuntime rt = TaskRuntime.builder().hangReportAfter(FOREVER).build()) {
            assertThat(rt.hangReportAfter()).get().matches(d -> d.toDays() > 365 * 70, "over 70 years");
            rt.finish(() -> { });
        }
        assertThatThrownBy(() -> TaskRuntime.builder().hangReportAfter(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("null duration given to hangReportAfter (to report no hangs: noHangReports())");
    }

    @Test
    void nullsAreRefusedNamingWhatAndWhere() {
        try (TaskRuntime rt = TaskRuntime.builder().name("nulls").workers(2).build()) {
            ActorRef<String>[] a = ActorRef.newArray(1);
            rt.finish(() -> {
                a[0] = new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        exit();
                    }
                }.start("a");
                assertThatThrownBy(() -> a[0].ask(r -> "x", null)).isInstanceOf(NullPointerException.class)
                        .hasMessage("null timeout given to ask() of " + a[0]);
                assertThatThrownBy(() -> Router.group(Arrays.asList(a[0], null)))
                        .isInstanceOf(NullPointerException.class)
                        .hasMessage("null routee at index 1 of the list given to Router.group");
                a[0].send("exit");
            });
        }
    }

    @Test
    void aChildStartedInTheConstructorIsRefusedPointingToOnStart() {
        Throwable thrown = catchThrowable(() -> new Actor<String>() {
            final ActorRef<String> child = startChild(() -> new Flaky(new AtomicInteger(), 0),
                    SupervisorStrategy.stop());

            @Override
            protected void process(String m) {
            }
        });
        assertThat(thrown).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(".startChild() may only be called while ")
                .hasMessageEndingWith(" has not started; call it from its onStart()");
    }

    @Test
    void anAwaitReplyInOnExitIsRefused() {
        try (TaskRuntime rt = TaskRuntime.builder().name("exit").workers(2).noFailureLogging().build()) {
            ActorRef<String>[] server = ActorRef.newArray(1);
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                server[0] = new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        exit();
                    }
                }.start("server");
                new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        exit();
                    }

                    @Override
                    protected void onExit() {
                        this.<String, String>awaitReply(server[0], r -> "question", (String answer) -> { });
                    }
                }.start("client").send("exit");
                server[0].send("exit");
            }));
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageEndingWith(".awaitReply() in its onExit(): its handler could never run, the actor has"
                            + " ended (ask() and handle the future, or send the request with a plain send)");
        }
    }

    /**
     * An actor stopped from outside while it processes a message may still call {@code awaitReply} in that message:
     * it is not in {@code onExit()}, and it ends as the guide says, the reply a {@code REPLY_AFTER_EXIT} dead letter.
     * The check for {@code onExit()} read the actor's terminated status, which the stop had set, and failed it.
     */
    @Test
    void anActorStoppedWhileItProcessesMayStillAwaitAReply() {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TaskRuntime rt = TaskRuntime.builder().name("stopped").workers(2).build()) {
            long before = rt.deadLetterCount();
            rt.finish(() -> {
                ActorRef<Object> server = new Actor<Object>() {
                    @Override
                    protected void process(Object m) {
                        if (m instanceof ReplyTo<?> r) {
                            ((ReplyTo<String>) r).reply("answer");
                        } else {
                            exit();
                        }
                    }
                }.start("server");
                ActorRef<String> asker = new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        busy.countDown();
                        await(release);
                        this.<Object, String>awaitReply(server, r -> r, (String answer) -> { });
                    }
                }.start("asker");
                asker.send("go");
                await(busy);
                asker.stopNow();
                release.countDown();
                asker.whenTerminated().toCompletableFuture().join();
                server.send("exit");
            });
            assertThat(rt.deadLetterCount() - before).as("the answer, after the asker's end").isEqualTo(1);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}

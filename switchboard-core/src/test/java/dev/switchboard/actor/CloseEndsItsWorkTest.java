package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code close()} ends what it leaves behind: an {@code ask} still waiting for an actor that will never answer
 * fails when {@code close()} returns, naming the runtime, and no thread of the runtime outlives it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CloseEndsItsWorkTest {
    record Question(ReplyTo<String> replyTo) {}

    /** Takes every question and answers none. */
    static final class Silent extends Actor<Question> {
        @Override
        protected void process(Question q) {
        }
    }

    /** A thread in {@code rt}'s finish, which a {@link Silent} actor keeps open until the close ends it. */
    record Body(Thread thread, CompletableFuture<ActorRef<Question>> started) {
        static Body start(TaskRuntime rt) {
            CompletableFuture<ActorRef<Question>> started = new CompletableFuture<>();
            Thread thread = Thread.ofPlatform().start(() -> {
                try {
                    rt.finish(() -> started.complete(new Silent().start("silent")));
                } catch (RuntimeException closed) {
                    // the close ends the finish
                }
            });
            return new Body(thread, started);
        }

        /** The silent actor, once the body has started it. */
        ActorRef<Question> silent() throws Exception {
            return started.get(30, TimeUnit.SECONDS);
        }
    }

    static boolean aliveThreadNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive() && t.getName().startsWith(prefix));
    }

    @Test
    void aPendingAskFailsAtTheCloseAndNoThreadOfTheRuntimeLivesOn() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("close-ends-its-work").workers(2).build();
        Body body = Body.start(rt);
        ActorRef<Question> silent = body.silent();
        CompletableFuture<String> answer = silent.ask(Question::new, Duration.ofSeconds(60));
        assertThat(aliveThreadNamed("close-ends-its-work-timer")).isTrue();   // the ask's timeout is armed

        assertThat(rt.close(Duration.ofSeconds(10))).isTrue();

        assertThat(answer).isCompletedExceptionally();          // at once: not 60 s later
        try {
            answer.get();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(NoReplyException.class)
                    .hasMessageMatching("runtime 'close-ends-its-work' was closed before silent@\\d+ replied to Question.*");
        }
        assertThat(aliveThreadNamed("close-ends-its-work-")).as("a thread of the closed runtime is still alive").isFalse();
        body.thread().join(30_000);
        assertThat(body.thread().isAlive()).isFalse();
    }

    /**
     * The timer's executor terminates as its thread leaves the executor's loop, a moment before the thread ends:
     * close() waits for the thread itself. Many runtimes, so that the moment between the two is met.
     */
    @Test
    void theTimerThreadHasEndedWhenCloseReturns() throws Exception {
        for (int i = 0; i < 300; i++) {
            String name = "timer-ends-" + i;
            TaskRuntime rt = TaskRuntime.builder().name(name).workers(1).noHangReports().build();
            Body body = Body.start(rt);
            body.silent().ask(Question::new, Duration.ofSeconds(60));   // starts the timer
            assertThat(rt.close(Duration.ofSeconds(10))).as("runtime %d closed", i).isTrue();
            assertThat(aliveThreadNamed(name + "-timer")).as("the timer thread of runtime %d is alive after close()", i)
                    .isFalse();
            body.thread().join(30_000);
        }
    }

    @Test
    void aCloseFromTheTimerThreadItselfEndsTheRuntimeWithoutInterruptingItsCaller() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("closed-by-its-timer").workers(1).build();
        Body body = Body.start(rt);
        CompletableFuture<String> closed = new CompletableFuture<>();
        body.silent().ask(Question::new, Duration.ofMillis(50)).whenComplete((r, timeout) ->
                // on the runtime's timer thread, as the ask's documentation says
                closed.complete(Thread.currentThread().getName() + " " + rt.close(Duration.ofSeconds(10)) + " "
                        + Thread.currentThread().isInterrupted()));
        assertThat(closed.get(30, TimeUnit.SECONDS)).isEqualTo("closed-by-its-timer-timer true false");
        body.thread().join(30_000);
        assertThat(body.thread().isAlive()).isFalse();
    }

    @Test
    void onAManualClockTooThePendingAskFailsAtTheCloseAndItsTimeoutNeverFiresAfter() throws Exception {
        ManualClock clock = new ManualClock();
        TaskRuntime rt = RuntimeInternals.clock(TaskRuntime.builder().name("manual-closing").workers(1), clock)
                .build();
        Body body = Body.start(rt);
        CompletableFuture<String> answer = body.silent().ask(Question::new, Duration.ofSeconds(5));
        rt.close(Duration.ofSeconds(10));
        assertThat(answer).isCompletedExceptionally();
        clock.advance(Duration.ofSeconds(10));                  // the timeout's time: nothing runs any more
        try {
            answer.get();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(NoReplyException.class).hasMessageContaining("manual-closing");
        }
        body.thread().join(30_000);
    }
}

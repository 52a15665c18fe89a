package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request that fails for a reason of its own (the replier's fail()) while the runtime is being closed: the
 * failure reaches the requester's plain handler after the runtime is marked closed and before close() has stopped
 * the waiting finishes. It is the actor's failure, not the close's, so the finish waiting for the actor does not end
 * as a success. (The request's toString, which the closer's report of the waiting finish calls, opens the window.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AwaitReplyCloseRaceTest {
    static final CompletableFuture<ReplyTo<String>> kept = new CompletableFuture<>();
    static volatile Runnable onCloserToString;

    record Req(ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            Runnable r = onCloserToString;
            if (r != null && Thread.currentThread().getName().equals("closer")) {
                onCloserToString = null;
                r.run();
            }
            return "Req";
        }
    }

    static final class Holder extends Actor<Req> {
        @Override
        protected void process(Req q) {
            kept.complete(q.replyTo());
            exit();                                   // keeps the ReplyTo; nothing else keeps the finish open
        }
    }

    static final class Requester extends Actor<String> {
        final ActorRef<Req> to;

        Requester(ActorRef<Req> to) {
            this.to = to;
        }

        @Override
        protected void process(String m) {
            awaitReply(to, Req::new, (String answer) -> { });
        }
    }

    @Test
    void aFailureOfItsOwnDuringTheCloseStillReachesTheWaitingFinish() throws Exception {
        TaskRuntime rt = TaskRuntime.builder().name("race").workers(2).noFailureLogging().build();
        AtomicReference<Requester> a = new AtomicReference<>();
        AtomicReference<Throwable> finishOutcome = new AtomicReference<>();
        CompletableFuture<Void> finishEnded = new CompletableFuture<>();
        Thread body = new Thread(() -> {
            try {
                rt.finish(() -> {
                    Holder h = new Holder();
                    h.start();
                    a.set(new Requester(h.ref()));
                    a.get().start().send("go");
                });
                finishOutcome.set(null);
            } catch (Throwable t) {
                finishOutcome.set(t);
            }
            finishEnded.complete(null);
        }, "finisher");
        body.start();
        ReplyTo<String> replyTo = kept.get(30, TimeUnit.SECONDS);
        Await.until("the finish waits for the requester", () -> rt.diagnose().stream()
                .anyMatch(r -> r.contains("finish opened by thread 'finisher'")));
        onCloserToString = () -> {
            replyTo.fail(new IllegalStateException("the replier's own failure"));
            try {
                a.get().ref().whenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
                finishEnded.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        };
        Thread closer = new Thread(() -> rt.close(Duration.ofSeconds(30)), "closer");
        closer.start();
        closer.join();
        finishEnded.get(30, TimeUnit.SECONDS);
        Terminated end = a.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(end.reason()).as("the requester's end").isEqualTo(Terminated.Reason.FAILED);
        assertThat(end.failure()).hasMessage("the replier's own failure");
        assertThat(finishOutcome.get()).as("the finish that was waiting when close() was called").isNotNull();
    }
}

package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A sender waiting for room in a full bounded mailbox reads its deadline from the runtime's clock: under a manual
 * clock it gives up when the test moves time past {@code maxWait}, however little real time has gone by.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedMailboxClockTest {
    /** Pauses itself in onStart(), so that nothing leaves its mailbox. */
    static final class Held extends Actor<String> {
        volatile boolean started;

        Held(BoundedMailbox bound) {
            super(bound);
        }

        @Override
        protected void onStart() {
            pause();
            started = true;
        }

        @Override
        protected void process(String message) {
        }
    }

    @Test
    void aWaitingSenderGivesUpWhenTheClockPassesMaxWait() {
        ManualClock clock = new ManualClock();
        Duration maxWait = Duration.ofSeconds(10);
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            Held actor = new Held(new BoundedMailbox(1, BoundedMailbox.Overflow.WAIT, maxWait));
            AtomicReference<ActorRef<String>> ref = new AtomicReference<>();
            CompletableFuture.runAsync(() -> rt.finish(() -> ref.set(actor.start())));
            Await.until("the actor started and paused", () -> actor.started && ref.get() != null);

            ref.get().send("fills the mailbox");
            CompletableFuture<Void> second = new CompletableFuture<>();
            Thread sender = new Thread(() -> {
                try {
                    ref.get().send("waits for room");
                    second.complete(null);
                } catch (Throwable t) {
                    second.completeExceptionally(t);
                }
            }, "bounded-sender");
            sender.start();
            Await.until("the second sender waits for room", () -> sender.getState() == Thread.State.TIMED_WAITING);
            clock.advance(maxWait.minusNanos(1));
            assertThat(second).as("gave up before maxWait").isNotDone();

            clock.advance(1);
            Await.until("the sender gave up", second::isDone);
            assertThat(second).isCompletedExceptionally();
            Throwable failure = second.handle((v, t) -> t).join();
            assertThat(failure).isInstanceOf(MailboxFullException.class).hasMessageContaining("no room within 10.0 s");
            assertThat(actor.mailboxSize()).isEqualTo(1);
            rt.close();
        }
    }
}

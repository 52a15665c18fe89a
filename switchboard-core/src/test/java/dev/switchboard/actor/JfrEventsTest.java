package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Switchboard's JFR events: while a recording runs, an actor's failure, restart and stop, a dead letter and a full
 * mailbox are recorded (read back here with a RecordingStream); while nothing records, nothing subscribes to the
 * runtime's event hook, so the places that would make an event make none.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JfrEventsTest {
    static final List<String> NAMES = List.of("dev.switchboard.ActorFailed", "dev.switchboard.ActorRestarted",
            "dev.switchboard.ActorStopped", "dev.switchboard.DeadLetter", "dev.switchboard.MailboxFull");

    /** Throws on "boom"; waits on a latch first if told to. */
    static final class Flaky extends Actor<String> {
        Flaky() {
            super(BoundedMailbox.dropping(1));
        }

        @Override
        protected void process(String s) {
            if (s.equals("boom")) {
                throw new IllegalStateException("boom");
            }
        }
    }

    static final class Parent extends Actor<String> {
        final CompletableFuture<ActorRef<String>> child = new CompletableFuture<>();

        @Override
        protected void onStart() {
            child.complete(startChild("flaky", Flaky::new, SupervisorStrategy.restart()));
        }

        @Override
        protected void process(String s) {
            exit();
        }
    }

    @Test
    void aRecordingGetsFailuresRestartsStopsDeadLettersAndFullMailboxes() throws Exception {
        Queue<RecordedEvent> recorded = new ConcurrentLinkedQueue<>();
        try (RecordingStream rs = new RecordingStream()) {
            NAMES.forEach(n -> rs.enable(n));
            rs.onEvent(recorded::add);
            rs.startAsync();
            try (TaskRuntime rt = Runtimes.workers(2)) {
                Await.until("the runtime's hook is subscribed while the recording runs",
                        () -> RuntimeAccess.scheduler(rt).events().heard());
                rt.finish(() -> {
                    Parent parent = new Parent();
                    ActorRef<String> p = parent.start("parent");
                    ActorRef<String> flaky = parent.child.join();
                    flaky.send("boom");                       // ActorFailed, then ActorRestarted
                    for (int i = 0; i < 100; i++) {
                        flaky.send("fill");                   // a mailbox of one: some meet it full
                    }
                    flaky.stopNow();                          // ActorStopped
                    flaky.send("late");                       // a dead letter
                    p.send("done");
                });
            }
            Await.until("every kind of event was recorded", () -> NAMES.stream().allMatch(n -> recorded.stream()
                    .anyMatch(e -> e.getEventType().getName().equals(n))));
        }
        RecordedEvent failed = only(recorded, "dev.switchboard.ActorFailed");
        assertThat(failed.getString("actor")).startsWith("flaky@");
        assertThat(failed.getClass("failure").getName()).isEqualTo(IllegalStateException.class.getName());
        assertThat(failed.getString("detail")).contains("its supervisor restarts it");
        RecordedEvent late = recorded.stream().filter(e -> e.getEventType().getName().equals("dev.switchboard.DeadLetter")
                && e.getString("reason").equals("RECIPIENT_TERMINATED")).findFirst().orElseThrow();
        assertThat(late.getClass("messageType").getName()).isEqualTo(String.class.getName());
        assertThat(only(recorded, "dev.switchboard.ActorStopped").getString("actor")).startsWith("flaky@");
    }

    @Test
    void nothingSubscribesWhileNothingRecords() {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            assertThat(RuntimeAccess.scheduler(rt).events().heard()).isFalse();
        }
    }

    private static RecordedEvent only(Queue<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).findFirst().orElseThrow();
    }
}

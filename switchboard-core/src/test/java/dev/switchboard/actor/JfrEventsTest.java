package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.internal.MessageSampling;
import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Switchboard's JFR events: while a recording runs, an actor's failure, restart and stop, a dead letter and a full
 * mailbox are recorded (read back here with a RecordingStream); while nothing records, nothing subscribes to the
 * runtime's event hook, so the places that would make an event make none. The sampled MessageProcessed event is
 * on exactly while a running recording enables it: then one message in its {@code every} setting on each worker
 * is recorded; otherwise nothing is sampled at all.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JfrEventsTest {
    static final List<String> NAMES = List.of("dev.switchboard.ActorFailed", "dev.switchboard.ActorRestarted",
            "dev.switchboard.ActorStopped", "dev.switchboard.DeadLetter", "dev.switchboard.MailboxFull");

    /**
     * Throws on "boom"; on "hold", says it holds and waits for {@code release} (so that its mailbox of one fills).
     */
    static final class Flaky extends Actor<String> {
        private final CountDownLatch holding;
        private final CountDownLatch release;

        Flaky(CountDownLatch holding, CountDownLatch release) {
            super(BoundedMailbox.dropping(1));
            this.holding = holding;
            this.release = release;
        }

        @Override
        protected void process(String s) {
            if (s.equals("boom")) {
                throw new IllegalStateException("boom");
            }
            if (s.equals("hold")) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    static final class Parent extends Actor<String> {
        final CompletableFuture<ActorRef<String>> child = new CompletableFuture<>();
        final AtomicInteger instances = new AtomicInteger();
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        protected void onStart() {
            child.complete(startChild("flaky", () -> {
                instances.incrementAndGet();
                return new Flaky(holding, release);
            }, SupervisorStrategy.restart()));
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
                    Await.until("the supervisor made the second instance", () -> parent.instances.get() == 2);
                    flaky.send("hold");                       // the new instance takes it (after the restart)
                    Await.until("the new instance holds", () -> parent.holding.getCount() == 0);
                    for (int i = 0; i < 100; i++) {
                        flaky.send("fill");                   // a mailbox of one, held: all but one meet it full
                    }
                    parent.release.countDown();
                    flaky.stopNow();                          // ActorStopped
                    flaky.send("late");                       // a dead letter
                    p.send("done");
                });
            }
            Await.until(() -> "every kind of event was recorded (missing: " + NAMES.stream().filter(n -> recorded
                    .stream().noneMatch(e -> e.getEventType().getName().equals(n))).toList() + ")",
                    () -> NAMES.stream().allMatch(n -> recorded.stream()
                            .anyMatch(e -> e.getEventType().getName().equals(n))));
        }
        RecordedEvent failed = only(recorded, "dev.switchboard.ActorFailed");
        assertThat(failed.getString("actor")).startsWith("flaky@");
        assertThat(failed.getClass("failure").getName()).isEqualTo(IllegalStateException.class.getName());
        assertThat(failed.getString("detail")).contains("its supervisor restarts it");
        RecordedEvent restarted = only(recorded, "dev.switchboard.ActorRestarted");
        assertThat(restarted.getString("actor")).startsWith("flaky@");
        assertThat(restarted.getClass("cause")).as("the failure the restart answers").isNotNull();
        assertThat(restarted.getClass("cause").getName()).isEqualTo(IllegalStateException.class.getName());
        RecordedEvent late = recorded.stream().filter(e -> e.getEventType().getName().equals("dev.switchboard.DeadLetter")
                && e.getString("reason").equals("RECIPIENT_TERMINATED")).findFirst().orElseThrow();
        assertThat(late.getClass("messageType").getName()).isEqualTo(String.class.getName());
        assertThat(only(recorded, "dev.switchboard.ActorStopped").getString("actor")).startsWith("flaky@");
    }

    /** A message type of its own, so that the samples are told apart from anything else the JVM records. */
    record Tick(int n) {
    }

    /** Counts ticks; exits after the last one, sending a tock to a terminated actor (a dead letter as a marker). */
    static final class Ticker extends Actor<Tick> {
        private final int last;
        private final ActorRef<String> gone;

        Ticker(int last, ActorRef<String> gone) {
            this.last = last;
            this.gone = gone;
        }

        @Override
        protected void process(Tick t) {
            if (t.n() == last) {
                gone.send("tock");
                exit();
            }
        }
    }

    static final class Gone extends Actor<String> {
        @Override
        protected void onStart() {
            exit();
        }

        @Override
        protected void process(String s) {
        }
    }

    /**
     * Runs {@code n} ticks through an actor named {@code name} on 2 workers, then makes a dead letter (recorded
     * after every sample of the ticks: a stream delivers events in the order they were committed).
     */
    private static void tick(String name, int n) {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            rt.finish(() -> {
                ActorRef<String> gone = new Gone().start("gone");
                ActorRef<Tick> ticker = new Ticker(n, gone).start(name);
                for (int i = 1; i <= n; i++) {
                    ticker.send(new Tick(i));
                }
            });
        }
    }

    private static boolean isTock(RecordedEvent e) {
        return e.getEventType().getName().equals("dev.switchboard.DeadLetter") && e.getString("actor").startsWith("gone@");
    }

    @Test
    void aRecordingThatEnablesMessageProcessedGetsOneMessageInEveryOnEachWorker() throws Exception {
        int n = 10_000;
        Queue<RecordedEvent> samples = new ConcurrentLinkedQueue<>();
        Queue<RecordedEvent> tocks = new ConcurrentLinkedQueue<>();
        try (RecordingStream rs = new RecordingStream()) {
            rs.enable("dev.switchboard.MessageProcessed").with("every", "100");
            rs.enable("dev.switchboard.DeadLetter");
            rs.onEvent("dev.switchboard.MessageProcessed", e -> {
                if (e.getString("actor").startsWith("ticker@")) {
                    samples.add(e);
                }
            });
            rs.onEvent("dev.switchboard.DeadLetter", e -> {
                if (isTock(e)) {
                    tocks.add(e);
                }
            });
            rs.startAsync();
            assertThat(MessageSampling.every()).as("on as the recording starts").isEqualTo(100);
            tick("ticker", n);
            Await.until("the dead letter after the ticks was recorded", () -> !tocks.isEmpty());
        }
        // each of the 2 workers samples its first tick and then every 100th it processes
        assertThat(samples).hasSizeBetween(n / 100, n / 100 + 2);
        for (RecordedEvent e : samples) {
            assertThat(e.getString("runtime")).isEqualTo("test-2w");
            assertThat(e.getClass("messageType").getName()).isEqualTo(Tick.class.getName());
            assertThat(e.getDuration().isNegative()).isFalse();
            assertThat(e.getThread().getJavaName()).startsWith("test-2w-worker-");
        }
        assertThat(MessageSampling.every()).as("off once no recording runs").isZero();
    }

    @Test
    void aRecordingThatDoesNotEnableItGetsNoneAndSamplesNothing() throws Exception {
        Queue<RecordedEvent> samples = new ConcurrentLinkedQueue<>();
        Queue<RecordedEvent> tocks = new ConcurrentLinkedQueue<>();
        try (RecordingStream rs = new RecordingStream()) {
            rs.enable("dev.switchboard.DeadLetter");        // MessageProcessed is off unless a recording enables it
            rs.onEvent("dev.switchboard.MessageProcessed", samples::add);
            rs.onEvent("dev.switchboard.DeadLetter", e -> {
                if (isTock(e)) {
                    tocks.add(e);
                }
            });
            rs.startAsync();
            assertThat(MessageSampling.every()).as("a recording runs, but not with this event").isZero();
            tick("unsampled", 10_000);
            Await.until("the dead letter after the ticks was recorded", () -> !tocks.isEmpty());
            assertThat(MessageSampling.every()).isZero();
        }
        assertThat(samples).isEmpty();
    }

    @Test
    void enablingAndDisablingItInARunningRecordingTakesEffectAtTheNextWatchdogLook() throws Exception {
        try (RecordingStream rs = new RecordingStream();
             TaskRuntime rt = Runtimes.workers(1)) {          // its watchdog looks every 10 ms
            rs.enable("dev.switchboard.DeadLetter");
            rs.startAsync();
            assertThat(MessageSampling.every()).isZero();
            rs.enable("dev.switchboard.MessageProcessed").with("every", "7");
            Await.until("sampling is on", () -> MessageSampling.every() == 7);
            rs.enable("dev.switchboard.MessageProcessed").with("every", "3");
            Await.until("the new period applies", () -> MessageSampling.every() == 3);
            rs.disable("dev.switchboard.MessageProcessed");
            Await.until("sampling is off", () -> MessageSampling.every() == 0);
        }
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

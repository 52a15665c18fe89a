package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.RuntimeEvents;
import dev.switchboard.internal.RuntimeEvents.Event;
import dev.switchboard.internal.RuntimeEvents.Kind;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runtime's event hook hears failures, restarts, dead letters, overflows and unscoped failures as they happen. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RuntimeEventsTest {
    /** "boom" throws, "host" hosts a fresh instance, "stop" exits; anything else is processed. */
    static final class Worker extends Actor<String> {
        @Override
        protected void process(String msg) {
            switch (msg) {
                case "boom" -> throw new IllegalStateException("boom");
                case "host" -> ActorHosting.host(cell(), ActorHosting.create(cell(), Worker::new));
                case "stop" -> exit();
                default -> { }
            }
        }
    }

    @Test
    void eachKindReachesEverySubscriberAsItHappens() throws Exception {
        Queue<Event> heard = new ConcurrentLinkedQueue<>();
        try (TaskRuntime rt = TaskRuntime.builder().name("events").workers(2).onUnscopedFailure(t -> { }).build()) {
            RuntimeEvents events = RuntimeAccess.scheduler(rt).events();
            assertThat(events.heard()).isFalse();
            AutoCloseable failing = events.subscribe(e -> {
                throw new IllegalStateException("a subscriber that throws");
            });
            AutoCloseable subscription = events.subscribe(heard::add);
            assertThat(events.heard()).isTrue();

            Worker failed = new Worker();
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(30), () -> {
                ActorRef<String> ref = failed.start("failing");
                ref.send("host");
                ref.send("boom");
                ref.send("after");                  // a dead letter: the actor has failed
            }));
            assertThat(thrown).hasMessageContaining("boom");

            Seam.runUnscoped(rt, () -> {
                throw new IllegalArgumentException("unscoped");
            });
            Await.until("the unscoped failure was heard",
                    () -> heard.stream().anyMatch(e -> e.kind() == Kind.UNSCOPED_FAILURE));

            List<Event> all = List.copyOf(heard);
            Event restart = only(all, Kind.RESTART);
            assertThat(restart.source()).isSameAs(failed.self());
            Event failure = only(all, Kind.FAILURE);
            assertThat(failure.source()).isSameAs(failed.self());
            assertThat(failure.failure()).hasMessage("boom");
            assertThat(failure.detail()).contains("escaped process(");
            Event dead = only(all, Kind.DEAD_LETTER);
            assertThat(dead.source()).isSameAs(failed.self());
            assertThat(((DeadLetter) dead.subject()).message()).isEqualTo("after");
            // queued before the failure ended the actor, or sent after: either way never processed
            assertThat(dead.detail()).isIn("UNPROCESSED_AT_EXIT", "RECIPIENT_TERMINATED");
            assertThat(all.indexOf(restart)).isLessThan(all.indexOf(failure));
            assertThat(all.indexOf(failure)).isLessThan(all.indexOf(dead));
            assertThat(only(all, Kind.UNSCOPED_FAILURE).failure()).hasMessage("unscoped");

            subscription.close();
            failing.close();
            assertThat(events.heard()).isFalse();
        }
    }

    /** Fills its one place from onStart(), so that its second message overflows; exits on the first. */
    static final class Dropping extends Actor<String> {
        Dropping() {
            super(BoundedMailbox.dropping(1));
        }

        @Override
        protected void onStart() {
            self().send("fills");                    // onStart holds the token: nothing leaves the mailbox yet
            self().send("overflows");
        }

        @Override
        protected void process(String msg) {
            exit();
        }
    }

    @Test
    void aFullMailboxIsAnOverflowEvent() throws Exception {
        Queue<Event> heard = new ConcurrentLinkedQueue<>();
        try (TaskRuntime rt = TaskRuntime.builder().name("overflow-events").workers(2).build()) {
            RuntimeEvents events = RuntimeAccess.scheduler(rt).events();
            try (AutoCloseable s = events.subscribe(heard::add)) {
                rt.finish(Duration.ofSeconds(30), () -> new Dropping().start("dropping"));
            }
            Event overflow = only(List.copyOf(heard), Kind.OVERFLOW);
            assertThat(overflow.subject()).isEqualTo("overflows");
            assertThat(overflow.detail()).contains("is full (capacity 1): DROP");
            assertThat(((DeadLetter) only(List.copyOf(heard), Kind.DEAD_LETTER).subject()).reason())
                    .isEqualTo(DeadLetter.Reason.MAILBOX_FULL);
        }
    }

    private static Event only(List<Event> events, Kind kind) {
        List<Event> of = events.stream().filter(e -> e.kind() == kind).toList();
        assertThat(of).as("%s events in %s", kind, events).hasSize(1);
        return of.get(0);
    }
}

package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The guide's examples of "Flight Recorder events" run, with the outcomes the guide says. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuideEventsTest {
    final GuideEvents guide = new GuideEvents();

    /** Exits after its 1,000th number. */
    static final class Counter extends Actor<Integer> {
        @Override
        protected void process(Integer n) {
            if (n == 1_000) {
                exit();
            }
        }
    }

    @Test
    void theMetricsOfAProgramThatEndedAreExact() {
        try (TaskRuntime rt = TaskRuntime.builder().name("metrics").workers(2).build()) {
            rt.finish(() -> {
                for (int i = 0; i < 10; i++) {
                    ActorRef<Integer> counter = new Counter().start();
                    for (int n = 1; n <= 1_000; n++) {
                        counter.send(n);
                    }
                }
            });
            assertThat(guide.metrics(rt)).matches("\\d of \\d workers busy, \\d+ queued, 0 actors live, 10000 messages"
                    + " processed, 0 dropped by full mailboxes, 0 failures");
        }
    }

    @Test
    void aRecordingSamplesOneMessageInAHundredOnEachWorker() {
        try (TaskRuntime rt = TaskRuntime.builder().name("sampled").workers(2).build()) {
            guide.sampled(rt, () -> {
                ActorRef<Integer> counter = new Counter().start("counter");
                for (int n = 1; n <= 1_000; n++) {
                    counter.send(n);
                }
            }, 10);
        }
        // each of the two workers samples its first message, then every 100th it processes
        assertThat(guide.samples).hasSizeBetween(10, 12)
                .allMatch(s -> s.matches("counter@\\d+: a java\\.lang\\.Integer in \\d+ ns"), "counter@id: a type in ns");
    }
}

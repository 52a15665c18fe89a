package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where a data-driven task made ready on a worker runs: next on that worker, before the activations handed off to
 * it earlier (newest first, as a work-stealing pool runs its newest fork); and an endless chain of such tasks lets
 * what was handed off behind it run within the runtime's handoff limit, counted in links of the chain.
 * One worker, so that the order is the scheduler's alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataDrivenOrderTest {
    /** Links a chain may run without the probe before the test gives up on it: far beyond any limit used here. */
    static final long GIVE_UP = 100_000;

    /** An actor that records its one message and exits. */
    static final class Recorder extends Actor<String> {
        private final List<String> order;

        Recorder(List<String> order) {
            this.order = order;
        }

        @Override
        protected void process(String m) {
            order.add(m);
            exit();
        }
    }

    @Test
    void aTaskMadeReadyByATaskRunsBeforeTheActivationsHandedOffEarlier() {
        List<String> order = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            rt.finish(() -> {
                ActorRef<String> recorder = new Recorder(order).start();
                rt.async(() -> {
                    DataDrivenFuture<String> input = new DataDrivenFuture<>();
                    rt.asyncAwait(input, () -> order.add("data-driven task"));
                    recorder.send("message");           // the idle recorder's activation: into this worker's buffer
                    input.put("x");                     // the awaiting task: ready, after the activation
                });
            });
        }
        assertThat(order).containsExactly("data-driven task", "message");
    }

    @ParameterizedTest(name = "handoff limit {0}")
    @ValueSource(ints = {1, 8, TaskRuntime.DEFAULT_HANDOFF_LIMIT})
    void anEndlessDataDrivenChainLetsTheActivationHandedOffBehindItRunWithinTheHandoffLimit(int limit) {
        AtomicLong links = new AtomicLong();
        AtomicLong linksWhenServed = new AtomicLong(-1);
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).handoffLimit(limit).build()) {
            Actor<String> probe = new Actor<>() {
                @Override
                protected void process(String m) {
                    linksWhenServed.set(links.get());  // the chain sees this and adds no next link
                    exit();
                }
            };
            rt.finish(() -> {
                ActorRef<String> ref = probe.start();
                rt.async(() -> {
                    DataDrivenFuture<Long> first = new DataDrivenFuture<>();
                    link(rt, first, links, linksWhenServed);
                    first.put(0L);                      // the chain's first link: ready, to run next
                    ref.send("probe");                  // behind it in this worker's buffer
                });
            });
        }
        // the first link runs first (it was made ready last), unless the limit moves it behind at once
        assertThat(linksWhenServed.get()).as("links of the chain run before the probe (gave up after %d)", GIVE_UP)
                .isBetween(limit == 1 ? 0L : 1L, (long) limit);
    }

    /** A link that awaits {@code in}, then adds the next link (until the probe ran) and puts its input. */
    private static void link(TaskRuntime rt, DataDrivenFuture<Long> in, AtomicLong links, AtomicLong served) {
        DataDrivenFuture<Long> out = new DataDrivenFuture<>();
        rt.asyncAwait(in, () -> {
            long n = links.incrementAndGet();
            if (served.get() < 0 && n < GIVE_UP) {
                link(rt, out, links, served);
            }
            out.put(n);
        });
    }
}

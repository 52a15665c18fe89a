package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Per-sender FIFO and one-message-at-a-time, under many senders, many iterations. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrderingTest {
    record Msg(int sender, int seq) {
    }

    /** Checks that each sender's sequence arrives in order and that processing never overlaps. */
    static final class Checker extends Actor<Msg> {
        final int[] last;
        final AtomicInteger inFlight = new AtomicInteger();
        volatile int overlaps;
        volatile int outOfOrder;
        int received;
        final int expected;

        Checker(int senders, int perSender) {
            last = new int[senders];
            java.util.Arrays.fill(last, -1);
            expected = senders * perSender;
        }

        @Override
        protected void process(Msg m) {
            if (inFlight.incrementAndGet() != 1) {
                overlaps++;
            }
            if (m.seq() != last[m.sender()] + 1) {
                outOfOrder++;
            }
            last[m.sender()] = m.seq();
            if (++received == expected) {
                exit();
            }
            inFlight.decrementAndGet();
        }
    }

    @RepeatedTest(10)
    void perSenderFifoWithConcurrentSenderTasks() {
        int senders = 8;
        int perSender = 20_000;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Checker c = new Checker(senders, perSender);
            rt.finish(() -> {
                ActorRef<Msg> ref = c.start();
                for (int s = 0; s < senders; s++) {
                    int id = s;
                    rt.async(() -> {
                        for (int i = 0; i < perSender; i++) {
                            ref.send(new Msg(id, i));
                        }
                    });
                }
            });
            assertThat(c.outOfOrder).isZero();
            assertThat(c.overlaps).isZero();
            assertThat(c.received).isEqualTo(senders * perSender);
        }
    }

    @Test
    void perSenderFifoFromExternalThreadsAndActors() throws Exception {
        int senders = 4;
        int perSender = 50_000;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Checker c = new Checker(senders + 1, perSender);
            Thread[] threads = new Thread[senders];
            rt.finish(() -> {
                ActorRef<Msg> ref = c.start();
                for (int s = 0; s < senders; s++) {
                    int id = s;
                    threads[s] = new Thread(() -> {
                        for (int i = 0; i < perSender; i++) {
                            ref.send(new Msg(id, i));
                        }
                    });
                    threads[s].start();
                }
                // one more sender: an actor forwarding its own sequence
                Actor<Integer> forwarder = new Actor<>() {
                    int next;

                    @Override
                    protected void process(Integer n) {
                        for (int i = 0; i < n; i++) {
                            ref.send(new Msg(senders, next++));
                        }
                        if (next == perSender) {
                            exit();
                        }
                    }
                };
                ActorRef<Integer> f = forwarder.start();
                for (int i = 0; i < perSender / 1000; i++) {
                    f.send(1000);
                }
            });
            for (Thread t : threads) {
                t.join();
            }
            assertThat(c.outOfOrder).isZero();
            assertThat(c.overlaps).isZero();
        }
    }

    @Test
    void aHotActorDoesNotStarveOthersOnOneWorker() {
        // With one worker, an actor with a long backlog yields after its throughput budget, so an actor that
        // receives a message while the backlog is being processed is served long before the backlog is drained.
        // The message is sent by a task the hot actor spawns at its first message: no timing of the test thread
        // is involved.
        try (TaskRuntime rt = TaskRuntime.builder().workers(1).throughput(16).build()) {
            int backlog = 200_000;
            AtomicInteger hotProcessedWhenColdRan = new AtomicInteger(-1);
            AtomicInteger hotProcessed = new AtomicInteger();
            AtomicReference<ActorRef<String>> coldRef = new AtomicReference<>();   // set before hot starts
            Actor<String> cold = new Actor<>() {
                @Override
                protected void process(String m) {
                    hotProcessedWhenColdRan.set(hotProcessed.get());
                    exit();
                }
            };
            Actor<Integer> hot = new Actor<>() {
                int n;

                @Override
                protected void process(Integer m) {
                    if (n == 0) {
                        rt.async(() -> coldRef.get().send("ping"));
                    }
                    hotProcessed.set(++n);
                    if (n == backlog) {
                        exit();
                    }
                }
            };
            for (int i = 0; i < backlog; i++) {
                hot.self.send(i);                      // before start(): the actor's ref, from its field
            }
            rt.finish(() -> {
                coldRef.set(cold.start());
                hot.start();
            });
            assertThat(hotProcessedWhenColdRan.get()).isBetween(0, 1_000);
        }
    }

}

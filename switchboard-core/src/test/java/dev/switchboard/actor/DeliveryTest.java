package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Delivery: every message is processed or counted as a dead letter, and a ready actor is never hidden. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeliveryTest {

    @Test
    void aSendIsNotHiddenBehindAWorkerThatBlocks() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            CountDownLatch bRan = new CountDownLatch(1);
            AtomicBoolean sawB = new AtomicBoolean();
            AtomicReference<ActorRef<String>> bRef = new AtomicReference<>();   // set before a gets its message
            Actor<String> b = new Actor<>() {
                @Override
                protected void process(String m) {
                    if (m.equals("stop")) {
                        exit();
                    } else {
                        bRan.countDown();
                    }
                }
            };
            Actor<String> a = new Actor<>() {
                @Override
                protected void process(String m) {
                    bRef.get().send("ping");
                    try {
                        // blocks its worker in a way the runtime cannot see; the other worker is idle
                        sawB.set(bRan.await(20, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    bRef.get().send("stop");
                    exit();
                }
            };
            rt.finish(() -> {
                ActorRef<String> ref = a.start();
                bRef.set(b.start());
                ref.send("go");
            });
            assertThat(sawB).as("b ran on the idle worker while a was blocked").isTrue();
        }
    }

    /** Exit from an escaping task, pause/resume and concurrent senders: every message processed or dead once. */
    @RepeatedTest(10)
    void everyMessageIsProcessedOrADeadLetterExactlyOnce() {
        LongAdder dead = new LongAdder();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).throughput(3).handoffLimit(2).build()) {
            DeadLetter.subscribe(rt, d -> dead.increment());
            int senders = 4;
            int perSender = 1000;
            int actors = 6;
            AtomicInteger processed = new AtomicInteger();
            List<Actor<Integer>> all = new java.util.ArrayList<>();
            for (int k = 0; k < actors; k++) {
                all.add(new Actor<>() {
                    int count;

                    @Override
                    protected void process(Integer m) {
                        processed.incrementAndGet();
                        count++;
                        if (m % 7 == 0) {
                            pause();
                            rt.async(this::resume);
                        }
                        if (count == 2000 || m < 0) {
                            rt.async(this::exit);
                        }
                    }
                });
            }
            rt.finish(Duration.ofSeconds(50), () -> {
                List<ActorRef<Integer>> refs = all.stream().map(Actor::start).toList();
                for (int s = 0; s < senders; s++) {
                    rt.async(() -> {
                        for (int i = 1; i <= perSender; i++) {
                            for (ActorRef<Integer> a : refs) {
                                a.send(i);
                            }
                        }
                        for (ActorRef<Integer> a : refs) {
                            a.send(-1);
                        }
                    });
                }
            });
            long total = (long) senders * (perSender + 1) * actors;
            assertThat(processed.get() + dead.sum()).isEqualTo(total);
        }
    }
}

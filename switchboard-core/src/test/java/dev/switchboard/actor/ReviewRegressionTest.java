package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Regressions for defects found in review: each test failed before its fix. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReviewRegressionTest {

    /** Answers requests; a request "hold:x" is answered only when {@code release} is put. */
    static final class Server extends Actor<String> {
        final DataDrivenFuture<Boolean> release = new DataDrivenFuture<>();

        @Override
        protected void process(String m) {
            if (m.equals("stop")) {
                exit();
            } else if (m.startsWith("hold:")) {
                DataDrivenFuture<Object> channel = replyChannel();
                TaskRuntime.current().asyncAwait(release, () -> channel.put(m + "-answer"));
            } else {
                reply(m + "-answer");
            }
        }
    }

    @RepeatedTest(3)
    void aChainedAwaitReplyHoldsMessagesUntilTheLastReply() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<String> log = new CopyOnWriteArrayList<>();
            Server server = new Server();
            AtomicReference<ActorRef<String>> serverRef = new AtomicReference<>();   // set before the client starts
            final class Client extends Actor<String> {
                @Override
                protected void process(String m) {
                    switch (m) {
                        case "start" -> awaitReply(serverRef.get(), "q1", (String r1) -> {
                            log.add("r1");
                            awaitReply(serverRef.get(), "hold:q2", (String r2) -> {
                                log.add("r2");
                                serverRef.get().send("stop");
                                exit();
                            });
                        });
                        default -> log.add(m);
                    }
                }
            }
            Client client = new Client();
            rt.finish(() -> {
                serverRef.set(server.start());
                ActorRef<String> ref = client.start();
                ref.send("start");
                ref.send("other");
                rt.async(() -> {
                    Await.until("the first reply's handler", () -> log.contains("r1"));
                    // q2 is outstanding from now until the release below: "other" must still be waiting
                    assertThat(log).doesNotContain("other");
                    assertThat(client.mailboxSize()).isEqualTo(1);
                    server.release.put(true);
                });
            });
            assertThat(log).containsExactly("r1", "r2");
            assertThat(client.deadLetterCount()).isEqualTo(1);   // "other", left at exit
        }
    }

    @RepeatedTest(3)
    void twoAwaitRepliesInOneMessageHoldMessagesUntilBothHandlersRan() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<String> log = new CopyOnWriteArrayList<>();
            AtomicInteger inside = new AtomicInteger();
            AtomicBoolean overlap = new AtomicBoolean();
            Server server = new Server();
            AtomicReference<ActorRef<String>> serverRef = new AtomicReference<>();   // set before the client starts
            final class Client extends Actor<String> {
                private void enter() {
                    if (inside.incrementAndGet() > 1) {
                        overlap.set(true);
                    }
                }

                @Override
                protected void process(String m) {
                    enter();
                    try {
                        switch (m) {
                            case "start" -> {
                                awaitReply(serverRef.get(), "a", (String r) -> log.add("ra"));
                                awaitReply(serverRef.get(), "hold:b", (String r) -> {
                                    enter();
                                    log.add("rb");
                                    inside.decrementAndGet();
                                });
                            }
                            case "other" -> {
                                log.add("other");
                                serverRef.get().send("stop");
                                exit();
                            }
                            default -> { }
                        }
                    } finally {
                        inside.decrementAndGet();
                    }
                }
            }
            Client client = new Client();
            rt.finish(() -> {
                serverRef.set(server.start());
                ActorRef<String> ref = client.start();
                ref.send("start");
                ref.send("other");
                rt.async(() -> {
                    Await.until("the first reply's handler", () -> log.contains("ra"));
                    server.release.put(true);
                });
            });
            assertThat(overlap).as("a reply handler ran while a message was processed").isFalse();
            assertThat(log).containsExactly("ra", "rb", "other");
        }
    }

    @Test
    void aUserPauseOutlivesAnAwaitedReply() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<String> log = new CopyOnWriteArrayList<>();
            Server server = new Server();
            AtomicReference<ActorRef<String>> serverRef = new AtomicReference<>();   // set before the client starts
            DataDrivenFuture<Boolean> resumeNow = new DataDrivenFuture<>();
            final class Client extends Actor<String> {
                @Override
                protected void process(String m) {
                    switch (m) {
                        case "start" -> {
                            pause();
                            awaitReply(serverRef.get(), "q", (String r) -> log.add("reply"));
                            rt.asyncAwait(resumeNow, this::resume);
                        }
                        case "other" -> {
                            log.add("other");
                            serverRef.get().send("stop");
                            exit();
                        }
                        default -> { }
                    }
                }
            }
            Client client = new Client();
            rt.finish(() -> {
                serverRef.set(server.start());
                ActorRef<String> ref = client.start();
                ref.send("start");
                ref.send("other");
                rt.async(() -> {
                    Await.until("the reply's handler", () -> log.contains("reply"));
                    log.add("resuming");
                    resumeNow.put(true);
                });
            });
            assertThat(log).containsExactly("reply", "resuming", "other");
        }
    }

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

    record Unprintable() {
        @Override
        public String toString() {
            throw new IllegalStateException("toString failed");
        }
    }

    @Test
    void aFailureWhoseMessageCannotBePrintedIsStillRethrown() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Actor<Object> a = new Actor<>() {
                @Override
                protected void process(Object m) {
                    throw new IllegalArgumentException("boom");
                }
            };
            Throwable t = catchThrowable(() -> rt.finish(Duration.ofSeconds(20), () -> {
                ActorRef<Object> ref = a.start();
                ref.send(new Unprintable());
            }));
            assertThat(t).isNotInstanceOf(FinishTimeoutException.class).hasMessage("boom");
            assertThat(t.getSuppressed()[0].getMessage()).contains("its toString threw");
        }
    }

    @Test
    void anEnclosingFinishWaitsForTheWorkOfATimedOutInnerFinish() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            AtomicBoolean innerDone = new AtomicBoolean();
            AtomicBoolean timedOut = new AtomicBoolean();
            CountDownLatch release = new CountDownLatch(1);
            Throwable t = catchThrowable(() -> rt.finish(() -> {
                try {
                    rt.finish(Duration.ofMillis(100), () -> rt.async(() -> {
                        try {
                            release.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        innerDone.set(true);
                        throw new IllegalStateException("late failure");
                    }));
                } catch (FinishTimeoutException expected) {
                    timedOut.set(true);
                }
                release.countDown();
            }));
            assertThat(timedOut).isTrue();
            assertThat(innerDone).as("the outer finish waited for the inner work").isTrue();
            assertThat(t).as("the late failure reached the outer finish").hasMessage("late failure");
        }
    }

    /** Exit from an escaping task, pause/resume and concurrent senders: every message processed or dead once. */
    @RepeatedTest(10)
    void everyMessageIsProcessedOrADeadLetterExactlyOnce() {
        LongAdder dead = new LongAdder();
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).throughput(3).handoffLimit(2)
                .onDeadLetter(d -> dead.increment()).build()) {
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

    /**
     * A selector whose every message disables its only mailbox and spawns a task that enables it again (the
     * reader-writer pattern in miniature). The stall check once read status, enable bits and live tasks
     * separately, and a task that enabled and ended between those reads made a healthy selector "stalled".
     */
    @RepeatedTest(3)
    void aSelectorReEnabledByItsOwnTasksIsNeverReportedStalled() {
        final class Toggle extends Selector<Integer, Selector.Numbered> {
            int processed;

            Toggle() {
                super(1);
            }

            @Override
            protected void process(Integer i) {
                if (i < 0) {
                    exit();
                    return;
                }
                processed++;
                disable(0);
                TaskRuntime.current().async(this::enableAll);
            }
        }
        try (TaskRuntime rt = Runtimes.workers(2)) {
            for (int run = 0; run < 10; run++) {
                Toggle t = new Toggle();
                rt.finish(Duration.ofSeconds(20), () -> {
                    ActorRef<Integer> ref = t.start();
                    for (int i = 0; i < 20_000; i++) {
                        ref.send(i);
                    }
                    ref.send(-1);
                });
                assertThat(t.processed).isEqualTo(20_000);
            }
        }
    }
}

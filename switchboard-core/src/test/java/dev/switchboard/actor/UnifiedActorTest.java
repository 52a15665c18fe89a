package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** [Unified] §5: parallelism inside actors, pause/resume, synchronous replies, become, stateless actors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnifiedActorTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    @Test
    void nestedFinishInsideProcessingKeepsOneMessageAtATime() {
        // Fig. 8: the processing spawns asyncs inside a finish; the next message starts after all of them.
        List<String> log = new CopyOnWriteArrayList<>();
        Actor<Integer> a = new Actor<>() {
            @Override
            protected void process(Integer m) {
                if (m < 0) {
                    exit();
                    return;
                }
                AtomicInteger parts = new AtomicInteger();
                rt.finish(() -> {
                    for (int i = 0; i < 16; i++) {
                        rt.async(parts::incrementAndGet);
                    }
                });
                log.add(m + ":" + parts.get());
            }
        };
        rt.finish(() -> {
            ActorRef<Integer> ref = a.start();
            for (int i = 0; i < 50; i++) {
                ref.send(i);
            }
            ref.send(-1);
        });
        assertThat(log).hasSize(50).allMatch(s -> s.endsWith(":16"));
        assertThat(log.get(0)).isEqualTo("0:16");
        assertThat(log.get(49)).isEqualTo("49:16");
    }

    @RepeatedTest(5)
    void nestedFinishInsideActorsOnOneWorker() {
        try (TaskRuntime one = Runtimes.workers(1)) {
            AtomicInteger total = new AtomicInteger();
            one.finish(() -> {
                for (int k = 0; k < 4; k++) {
                    Actor<Integer> a = new Actor<>() {
                        @Override
                        protected void process(Integer depth) {
                            one.finish(() -> nest(one, depth, total));
                            exit();
                        }
                    };
                    ActorRef<Integer> ref = a.start();
                    ref.send(30);
                }
            });
            assertThat(total.get()).isEqualTo(4 * 30);
        }
    }

    private static void nest(TaskRuntime rt, int depth, AtomicInteger total) {
        if (depth == 0) {
            return;
        }
        total.incrementAndGet();
        rt.async(() -> rt.finish(() -> nest(rt, depth - 1, total)));
    }

    /** Fig. 10: escaping asyncs with pause/resume delay the next message without blocking a thread. */
    static final class EscapingAsyncActor extends Actor<Integer> {
        final List<String> log = new CopyOnWriteArrayList<>();
        final AtomicBoolean concurrentProcessing = new AtomicBoolean();
        volatile boolean busy;

        @Override
        protected void process(Integer m) {
            if (busy) {
                concurrentProcessing.set(true);
            }
            if (m < 0) {
                exit();
                return;
            }
            busy = true;
            log.add("start " + m);
            pause();
            rt.async(() -> {
                rt.async(() -> {
                    log.add("end " + m);
                    busy = false;
                    resume();
                });
            });
        }
    }

    @RepeatedTest(5)
    void pauseDelaysTheNextMessageUntilResume() {
        EscapingAsyncActor a = new EscapingAsyncActor();
        rt.finish(() -> {
            ActorRef<Integer> ref = a.start();
            for (int i = 0; i < 100; i++) {
                ref.send(i);
            }
            ref.send(-1);
        });
        assertThat(a.concurrentProcessing).isFalse();
        assertThat(a.log).hasSize(200);
        for (int i = 0; i < 100; i++) {
            assertThat(a.log.get(2 * i)).isEqualTo("start " + i);
            assertThat(a.log.get(2 * i + 1)).isEqualTo("end " + i);
        }
    }

    @Test
    void pausedStateIsVisibleAndMessagesKeepArriving() {
        CyclicBarrier observed = new CyclicBarrier(2);
        AtomicReference<ActorState> whilePaused = new AtomicReference<>();
        AtomicInteger processed = new AtomicInteger();
        Actor<String> a = new Actor<>() {
            @Override
            protected void process(String m) {
                processed.incrementAndGet();
                if (m.equals("pause")) {
                    pause();
                    rt.async(() -> {
                        awaitBarrier(observed);          // the test looks at the paused actor
                        awaitBarrier(observed);
                        resume();
                    });
                } else if (m.equals("stop")) {
                    exit();
                }
            }
        };
        rt.finish(() -> {
            ActorRef<String> ref = a.start();
            ref.send("pause");
            awaitBarrier(observed);
            whilePaused.set(a.state());
            ref.send("x");
            ref.send("stop");
            assertThat(a.mailboxSize()).isEqualTo(2);
            assertThat(processed.get()).isEqualTo(1);
            awaitBarrier(observed);
        });
        assertThat(whilePaused.get()).isEqualTo(ActorState.PAUSED);
        assertThat(processed.get()).isEqualTo(3);
    }

    static void awaitBarrier(CyclicBarrier b) {
        try {
            b.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ---------------------------------------------------------------- awaitReply / reply

    /** A request for {@code x * x}, or with no {@code replyTo}, a plain message ({@code x < 0}: exit). */
    record Query(int x, ReplyTo<Integer> replyTo) {
        Query(int x) {
            this(x, null);
        }

        @Override
        public String toString() {
            return "Query[x=" + x + "]";
        }
    }

    static final class Squarer extends Actor<Query> {
        @Override
        protected void process(Query q) {
            if (q.x() < 0) {
                exit();
            } else if (q.x() == 1000) {
                throw new ArithmeticException("too big to square");   // the requester must fail, not hang
            } else {
                q.replyTo().reply(q.x() * q.x());
            }
        }
    }

    static final class Client extends Actor<Integer> {
        final ActorRef<Query> server;
        final List<String> log = new CopyOnWriteArrayList<>();

        Client(ActorRef<Query> server) {
            this.server = server;
        }

        @Override
        protected void process(Integer x) {
            if (x < 0) {
                server.send(new Query(-1));   // processed after every reply: this actor was paused until then
                exit();
                return;
            }
            log.add("ask " + x);
            awaitReply(server, r -> new Query(x, r), (Integer y) -> log.add("got " + y));
        }
    }

    @Test
    void awaitReplyIsASynchronousReceiveThatBlocksNoThread() {
        try (TaskRuntime one = Runtimes.workers(1)) {     // one worker: a blocking receive would deadlock
            Squarer s = new Squarer();
            AtomicReference<Client> client = new AtomicReference<>();
            one.finish(() -> {
                client.set(new Client(s.start()));
                ActorRef<Integer> ref = client.get().start();
                for (int i = 1; i <= 20; i++) {
                    ref.send(i);
                }
                ref.send(-1);
            });
            Client c = client.get();
            assertThat(s.state()).isEqualTo(ActorState.TERMINATED);
            assertThat(c.log).hasSize(40);
            for (int i = 1; i <= 20; i++) {
                assertThat(c.log.get(2 * i - 2)).isEqualTo("ask " + i);
                assertThat(c.log.get(2 * i - 1)).isEqualTo("got " + i * i);
            }
        }
    }

    @Test
    void aRequestWhoseProcessingFailsFailsTheRequesterInsteadOfHanging() {
        Squarer s = new Squarer();
        AtomicReference<Client> client = new AtomicReference<>();
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            client.set(new Client(s.start()));
            ActorRef<Integer> ref = client.get().start();
            ref.send(1000);
            ref.send(-1);
        }));
        assertThat(thrown).isInstanceOf(dev.switchboard.task.MultiException.class);
        List<Throwable> failures = ((dev.switchboard.task.MultiException) thrown).failures();
        assertThat(failures).hasSize(2).anySatisfy(f -> assertThat(f).isInstanceOf(ArithmeticException.class))
                .anySatisfy(f -> assertThat(f).isInstanceOf(NoReplyException.class)
                        .hasMessageContaining("failed while processing the request Query[x=1000] without answering it")
                        .hasCauseInstanceOf(ArithmeticException.class));
        assertThat(client.get().state()).isEqualTo(ActorState.TERMINATED);
        assertThat(s.state()).isEqualTo(ActorState.TERMINATED);
    }

    @Test
    void aRequestToATerminatedActorFailsTheRequester() {
        Squarer s = new Squarer();
        AtomicReference<ActorRef<Query>> server = new AtomicReference<>();
        rt.finish(() -> {
            server.set(s.start());
            server.get().send(new Query(-1));
        });
        Client c = new Client(server.get());
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            ActorRef<Integer> ref = c.start();
            ref.send(2);
        }));
        assertThat(thrown).isInstanceOf(NoReplyException.class).hasMessageContaining("terminated before processing");
    }

    @Test
    void aReplyToCanBeAnsweredLaterFromAnotherTask() throws Exception {
        Actor<Query> lazy = new Actor<>() {
            @Override
            protected void process(Query q) {
                ReplyTo<Integer> replyTo = q.replyTo();
                rt.async(() -> {                       // answered from the task, after the processing
                    replyTo.reply(q.x() + 1);
                    exit();
                });
            }
        };
        AtomicReference<java.util.concurrent.CompletableFuture<Integer>> answer = new AtomicReference<>();
        rt.finish(() -> answer.set(lazy.start().ask(r -> new Query(41, r), Duration.ofSeconds(20))));
        assertThat(answer.get().get()).isEqualTo(42);
    }

    @Test
    void answeringTwiceIsAnErrorNamingTheRequest() {
        AtomicReference<Throwable> error = new AtomicReference<>();
        Actor<Query> twice = new Actor<>() {
            @Override
            protected void process(Query q) {
                q.replyTo().reply(1);
                error.set(catchThrowable(() -> q.replyTo().reply(2)));
                exit();
            }
        };
        rt.finish(() -> twice.start().<Integer>ask(r -> new Query(7, r), Duration.ofSeconds(20)));
        assertThat(error.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the request Query[x=7] to " + twice + " was already answered");
    }

    @Test
    void awaitReplyToItselfIsRejected() {
        AtomicReference<Throwable> error = new AtomicReference<>();
        Actor<Query> self = new Actor<>() {
            @Override
            protected void process(Query q) {
                try {
                    awaitReply(self(), r -> new Query(1, r), (Integer x) -> { });
                } catch (IllegalArgumentException e) {
                    error.set(e);
                }
                exit();
            }
        };
        rt.finish(() -> {
            ActorRef<Query> ref = self.start();
            ref.send(new Query(1));
        });
        assertThat(error.get()).hasMessageContaining("to itself");
    }

    // ---------------------------------------------------------------- become / unbecome

    @Test
    void becomeAndUnbecome() {
        List<String> log = new CopyOnWriteArrayList<>();
        Actor<String> a = new Actor<>() {
            @Override
            protected void process(String m) {
                switch (m) {
                    case "shout" -> become(x -> {
                        if (x.equals("calm")) {
                            unbecome();
                        } else if (x.equals("whisper")) {
                            become(y -> {
                                if (y.equals("calm")) {
                                    unbecome();
                                } else {
                                    log.add("(" + y + ")");
                                }
                            });
                        } else {
                            log.add(x.toUpperCase());
                        }
                    });
                    case "stop" -> exit();
                    default -> log.add(m);
                }
            }
        };
        rt.finish(() -> {
            ActorRef<String> ref = a.start();
            for (String m : List.of("a", "shout", "b", "whisper", "c", "calm", "d", "calm", "e", "stop")) {
                ref.send(m);
            }
        });
        assertThat(log).containsExactly("a", "B", "(c)", "D", "e");
    }

    /** A door: open and closed by turns, each state replacing the other (nothing kept). */
    static final class Door extends Actor<String> {
        int opened;
        Throwable unbecomeAfterwards;

        @Override
        protected void process(String m) {                 // closed
            if (m.equals("open")) {
                opened++;
                become(this::open, true);
            } else if (m.equals("stop")) {
                unbecomeAfterwards = catchThrowable(this::unbecome);
                exit();
            }
        }

        private void open(String m) {
            if (m.equals("close")) {
                become(this::process, true);
            }
        }
    }

    @Test
    void becomeThatDiscardsKeepsNoBehaviorBehind() {
        Door door = new Door();
        rt.finish(() -> {
            ActorRef<String> ref = door.start();
            for (int i = 0; i < 500_000; i++) {
                ref.send("open");
                ref.send("close");
            }
            ref.send("stop");
        });
        assertThat(door.opened).isEqualTo(500_000);
        assertThat(door.unbecomeAfterwards).as("nothing was kept to go back to")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without a matching");
    }

    @Test
    void unbecomeWithoutBecomeIsAnError() {
        AtomicReference<Throwable> error = new AtomicReference<>();
        Actor<String> a = new Actor<>() {
            @Override
            protected void process(String m) {
                error.set(catchThrowable(this::unbecome));
                exit();
            }
        };
        rt.finish(() -> {
            ActorRef<String> ref = a.start();
            ref.send("x");
        });
        assertThat(error.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("without a matching");
    }

    // ---------------------------------------------------------------- stateless actors

    @Test
    void statelessActorProcessesMessagesInParallel() {
        CyclicBarrier both = new CyclicBarrier(2);
        AtomicInteger met = new AtomicInteger();
        StatelessActor<String> s = new StatelessActor<>() {
            @Override
            protected void process(String m) {
                if (m.equals("stop")) {
                    exit();
                    return;
                }
                awaitBarrier(both);     // only passes if two messages are processed at the same time
                met.incrementAndGet();
            }
        };
        rt.finish(() -> {
            ActorRef<String> ref = s.start();
            ref.send("a");
            ref.send("b");
            ref.send("stop");      // dispatched after a and b; they run to completion
        });
        assertThat(met.get()).isEqualTo(2);
    }

    @Test
    void statelessActorExitStopsDispatchAndRepliesGoToTheRightRequest() {
        StatelessActor<Query> s = new StatelessActor<>() {
            @Override
            protected void process(Query q) {
                if (q.x() < 0) {
                    exit();
                } else {
                    q.replyTo().reply(q.x() * 10);
                }
            }
        };
        List<java.util.concurrent.CompletableFuture<Integer>> answers = new java.util.ArrayList<>();
        AtomicReference<ActorRef<Query>> ref = new AtomicReference<>();
        rt.finish(() -> {
            ref.set(s.start());
            for (int i = 0; i < 200; i++) {
                int x = i;
                answers.add(ref.get().ask(r -> new Query(x, r), Duration.ofSeconds(20)));
            }
            ref.get().send(new Query(-1));     // dispatched after the 200 requests, which all complete
        });
        for (int i = 0; i < 200; i++) {
            assertThat(answers.get(i).join()).isEqualTo(i * 10);
        }
        assertThat(s.state()).isEqualTo(ActorState.TERMINATED);
        ref.get().send(new Query(1));
        assertThat(s.deadLetterCount()).isEqualTo(1);
    }

    /** A failure that takes a while to describe: its report sends 20 messages and gives them time to be processed. */
    static final class SlowToDescribe extends RuntimeException {
        private final AtomicBoolean described = new AtomicBoolean();
        private final Runnable whileDescribed;

        SlowToDescribe(Runnable whileDescribed) {
            this.whileDescribed = whileDescribed;
        }

        @Override
        public String getMessage() {
            if (described.compareAndSet(false, true)) {
                whileDescribed.run();              // on the failing thread, while the failure is being reported
            }
            return "slow to describe";
        }
    }

    @Test
    void aStatelessActorStartsNoMessageOnceOneHasFailed() {
        AtomicInteger processed = new AtomicInteger();
        java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(20);
        AtomicReference<ActorRef<String>> ref = new AtomicReference<>();
        StatelessActor<String> s = new StatelessActor<>() {
            @Override
            protected void process(String m) {
                if (m.equals("fail")) {
                    throw new SlowToDescribe(() -> {
                        for (int i = 0; i < 20; i++) {
                            ref.get().send("after the failure");
                        }
                        try {                      // started, they would all be processed within this wait
                            all.await(500, TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
                processed.incrementAndGet();
                all.countDown();
            }
        };
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            ref.set(s.start());
            ref.get().send("fail");
        }));
        assertThat(thrown).isInstanceOf(SlowToDescribe.class);
        assertThat(processed.get()).as("messages processed after the failure").isZero();
        assertThat(s.deadLetterCount()).isEqualTo(20);
    }
}

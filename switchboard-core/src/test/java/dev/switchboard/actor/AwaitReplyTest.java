package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** awaitReply: a synchronous receive that holds the actor's other messages until its handlers have run. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AwaitReplyTest {

    /** A request to the {@link Server}: its text, and where the answer goes. */
    record Q(String text, ReplyTo<String> replyTo) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** Answers requests ({@link Q}); a request "hold:x" is answered only when {@code release} is put. */
    static final class Server extends Actor<Object> {
        final DataDrivenFuture<Boolean> release = new DataDrivenFuture<>();
        private final DataDrivenFuture<Boolean> exited = new DataDrivenFuture<>();

        /** Put when the server has exited. */
        DataDrivenFuture<Boolean> exited() {
            return exited;
        }

        @Override
        protected void onExit() {
            exited.put(true);
        }

        @Override
        protected void process(Object m) {
            switch (m) {
                case Q q when q.text().startsWith("hold:") ->
                        TaskRuntime.current().asyncAwait(release, () -> q.replyTo().reply(q.text() + "-answer"));
                case Q q -> q.replyTo().reply(q.text() + "-answer");
                default -> exit();                                    // "stop"
            }
        }
    }

    @RepeatedTest(3)
    void aChainedAwaitReplyHoldsMessagesUntilTheLastReply() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<String> log = new CopyOnWriteArrayList<>();
            Server server = new Server();
            AtomicReference<ActorRef<Object>> serverRef = new AtomicReference<>();   // set before the client starts
            final class Client extends Actor<String> {
                @Override
                protected void process(String m) {
                    switch (m) {
                        case "start" -> awaitReply(serverRef.get(), r -> new Q("q1", r), (String r1) -> {
                            log.add("r1");
                            awaitReply(serverRef.get(), r -> new Q("hold:q2", r), (String r2) -> {
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

    /** Collects {@code n} requests, then answers them newest first (so the oldest, awaited in the slot, last). */
    static final class ReverseServer extends Actor<Q> {
        private final int n;
        private final java.util.ArrayDeque<Q> held = new java.util.ArrayDeque<>();

        ReverseServer(int n) {
            this.n = n;
        }

        @Override
        protected void process(Q q) {
            held.push(q);
            if (held.size() == n) {
                while (!held.isEmpty()) {
                    Q next = held.pop();
                    next.replyTo().reply(next.text());
                }
                exit();
            }
        }
    }

    @RepeatedTest(3)
    void manyAwaitRepliesAnsweredInReverseEachRunOnceAndAllBeforeTheNextMessage() {
        int n = 50;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<String> log = new CopyOnWriteArrayList<>();
            AtomicInteger inside = new AtomicInteger();
            AtomicBoolean overlap = new AtomicBoolean();
            ActorRef<Q>[] server = newRefArray();
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    if (m.equals("start")) {
                        for (int i = 0; i < n; i++) {
                            String text = "q" + i;
                            awaitReply(server[0], r -> new Q(text, r), (String answer) -> {
                                if (inside.incrementAndGet() > 1) {
                                    overlap.set(true);
                                }
                                log.add(answer);
                                inside.decrementAndGet();
                            });
                        }
                    } else {
                        log.add(m);
                        exit();
                    }
                }
            };
            rt.finish(() -> {
                server[0] = new ReverseServer(n).start();
                ActorRef<String> ref = client.start();
                ref.send("start");
                ref.send("after");
            });
            assertThat(overlap).isFalse();
            assertThat(log).hasSize(n + 1).endsWith("after");
            assertThat(log.subList(0, n)).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.IntStream.range(0, n).mapToObj(i -> "q" + i).toList());
            assertThat(client.deadLetterCount()).isZero();
        }
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<Q>[] newRefArray() {
        return new ActorRef[1];
    }

    @RepeatedTest(3)
    void twoAwaitRepliesInOneMessageHoldMessagesUntilBothHandlersRan() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<String> log = new CopyOnWriteArrayList<>();
            AtomicInteger inside = new AtomicInteger();
            AtomicBoolean overlap = new AtomicBoolean();
            Server server = new Server();
            AtomicReference<ActorRef<Object>> serverRef = new AtomicReference<>();   // set before the client starts
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
                                awaitReply(serverRef.get(), r -> new Q("a", r), (String r) -> log.add("ra"));
                                awaitReply(serverRef.get(), r -> new Q("hold:b", r), (String r) -> {
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
            AtomicReference<ActorRef<Object>> serverRef = new AtomicReference<>();   // set before the client starts
            DataDrivenFuture<Boolean> resumeNow = new DataDrivenFuture<>();
            final class Client extends Actor<String> {
                @Override
                protected void process(String m) {
                    switch (m) {
                        case "start" -> {
                            pause();
                            awaitReply(serverRef.get(), r -> new Q("q", r), (String r) -> log.add("reply"));
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

    /**
     * Asks {@code server} once per "ask:request" message with the given timeout and logs what its handler got. A
     * reply expected in time gets a timeout no busy machine reaches (30 s); one that never comes, 300 ms.
     */
    static final class TimedAsker extends Actor<String> {
        final ActorRef<Object> server;
        final List<String> log = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final DataDrivenFuture<Boolean> handled = new DataDrivenFuture<>();
        private final Duration timeout;

        TimedAsker(ActorRef<Object> server, Duration timeout) {
            this.server = server;
            this.timeout = timeout;
        }

        /** Put when the first handler has run. */
        DataDrivenFuture<Boolean> handled() {
            return handled;
        }

        @Override
        protected void process(String m) {
            if (m.startsWith("ask:")) {
                awaitReply(server, r -> new Q(m.substring(4), r), timeout, (String reply, Throwable f) -> {
                    if (f != null) {
                        failure.set(f);
                        log.add("failed");
                    } else {
                        log.add(reply);
                    }
                    handled.tryPut(true);
                });
            } else if (m.equals("stop")) {
                exit();
            } else {
                log.add(m);
            }
        }
    }

    @Test
    void aTimedAwaitReplyHandsTheReplyToItsHandlerWhenItComesInTime() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Server server = new Server();
            AtomicReference<TimedAsker> asker = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Object> s = server.start("server");
                asker.set(new TimedAsker(s, Duration.ofSeconds(30)));
                ActorRef<String> a = asker.get().start("asker");
                a.send("ask:q");
                a.send("next");
                a.send("stop");
                rt.asyncAwait(asker.get().handled(), () -> s.send("stop"));
            });
            assertThat(asker.get().log).containsExactly("q-answer", "next");
            assertThat(asker.get().failure).hasValue(null);
        }
    }

    @Test
    void aReplyThatNeverComesTimesOutAndTheActorGoesOn() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Server server = new Server();
            AtomicReference<TimedAsker> asker = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Object> s = server.start("server");
                asker.set(new TimedAsker(s, Duration.ofMillis(300)));
                ActorRef<String> a = asker.get().start("asker");
                a.send("ask:hold:q");                       // the server answers only once released
                a.send("next");
                a.send("stop");
                rt.asyncAwait(asker.get().handled(), () -> {
                    server.release.put(true);
                    s.send("stop");
                });
            });
            TimedAsker a = asker.get();
            assertThat(a.log).containsExactly("failed", "next");      // not left holding its messages
            assertThat(a.failure.get()).isInstanceOf(ReplyTimeoutException.class)
                    .hasMessageMatching("server@\\d+ did not reply to hold:q within 300 ms \\(asked by asker@\\d+\\)");
            assertThat(((ReplyTimeoutException) a.failure.get()).timeout()).isEqualTo(Duration.ofMillis(300));
        }
    }

    @Test
    void aLateReplyIsADeadLetterOfTheActorThatWaitedAndDoesNotDisturbTheReplier() {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Server server = new Server();
            AtomicReference<TimedAsker> asker = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Object> s = server.start("server");
                asker.set(new TimedAsker(s, Duration.ofMillis(300)));
                ActorRef<String> a = asker.get().start("asker");
                a.send("ask:hold:q");
                rt.asyncAwait(asker.get().handled(), () -> {
                    server.release.put(true);                 // now the server answers: too late
                    s.send("stop");
                    a.send("stop");
                });
            });
            assertThat(asker.get().log).containsExactly("failed");
            assertThat(server.state()).isEqualTo(ActorState.TERMINATED);
            assertThat(server.processedCount()).isEqualTo(2);   // hold:q and stop: it was not failed
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_TOO_LATE);
                assertThat(d.message()).isEqualTo("hold:q-answer");
                assertThat(d.recipient().name()).isEqualTo("asker");
            });
        }
    }

    @Test
    void aTimedAwaitReplyToAnActorThatExitedHearsWhy() {
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Server server = new Server();
            AtomicReference<TimedAsker> asker = new AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Object> s = server.start("server");
                s.send("stop");
                asker.set(new TimedAsker(s, Duration.ofSeconds(30)));
                rt.asyncAwait(server.exited(), () -> {
                    ActorRef<String> a = asker.get().start("asker");
                    a.send("ask:q");
                    a.send("stop");
                });
            });
            assertThat(asker.get().log).containsExactly("failed");
            assertThat(asker.get().failure.get()).isInstanceOf(NoReplyException.class)
                    .hasMessageContaining("server@");
            assertThatThrownBy(() -> rt.finish(() -> new Actor<String>() {
                @Override
                protected void process(String m) {
                    awaitReply(self(), (ReplyTo<String> r) -> m, Duration.ZERO, (Object r, Throwable f) -> { });
                }
            }.start().send("x"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive timeout");
        }
    }
}


package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
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
}

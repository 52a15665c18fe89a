package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor that ends while replies it awaits are unanswered: its end is told at once (its {@code whenTerminated},
 * its watchers), whatever ended it (an exit, a stop, a task's await, the close of its runtime); its finish waits
 * for the answers, and a report of that wait names them; a late answer is a {@code REPLY_AFTER_EXIT} dead letter.
 * A close ends actors that await each other as closed, not as failed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AwaitReplyEndTest {
    record Get(ReplyTo<String> replyTo) {
    }

    /** Answers at once. */
    static final class Fast extends Actor<Get> {
        @Override
        protected void process(Get g) {
            g.replyTo().reply("fast");
        }
    }

    /** Hands the request's ReplyTo to the test, and exits unless told to stay. */
    static final class Keeper extends Actor<Get> {
        final CompletableFuture<ReplyTo<String>> kept = new CompletableFuture<>();
        final boolean exits;

        Keeper(boolean exits) {
            this.exits = exits;
        }

        @Override
        protected void process(Get g) {
            kept.complete(g.replyTo());
            if (exits) {
                exit();
            }
        }
    }

    /** Asks both, and exits on the first answer: the other stays unanswered. */
    static final class FirstAnswerWins extends Actor<String> {
        final ActorRef<Get> first;
        final ActorRef<Get> second;

        FirstAnswerWins(ActorRef<Get> first, ActorRef<Get> second) {
            this.first = first;
            this.second = second;
        }

        @Override
        protected void onStart() {
            awaitReply(first, Get::new, (String answer) -> exit());
            awaitReply(second, Get::new, (String answer) -> exit());
        }

        @Override
        protected void process(String m) {
        }
    }

    /** Awaits a reply, and stays. */
    static final class Asker extends Actor<String> {
        final ActorRef<Get> to;
        final AtomicBoolean handled = new AtomicBoolean();

        Asker(ActorRef<Get> to) {
            this.to = to;
        }

        @Override
        protected void onStart() {
            awaitReply(to, Get::new, (String answer) -> handled.set(true));
        }

        @Override
        protected void process(String m) {
        }
    }

    @Test
    void anActorThatExitsWithAReplyOutstandingIsToldEndedAtOnceAndTheLateReplyIsADeadLetter() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Keeper slow = new Keeper(true);
            AtomicReference<FirstAnswerWins> client = new AtomicReference<>();
            AtomicReference<Terminated> heard = new AtomicReference<>();
            Actor<Terminated> watcher = new Actor<>() {
                @Override
                protected void onStart() {
                    watch(client.get().ref(), t -> t);
                }

                @Override
                protected void process(Terminated t) {
                    heard.set(t);
                    exit();
                }
            };
            rt.finish(() -> {
                ActorRef<Get> fast = new Fast().start();
                client.set(new FirstAnswerWins(fast, slow.start()));
                client.get().start();
                watcher.start();
                // the body waits, the finish still open: the client's end is told before its second answer
                Terminated end = client.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertThat(end.reason()).isEqualTo(Terminated.Reason.EXITED);
                Await.until("the watcher hears the client's end", () -> heard.get() != null);
                assertThat(heard.get().reason()).isEqualTo(Terminated.Reason.EXITED);
                slow.kept.get(30, TimeUnit.SECONDS).reply("slow");
                fast.stop();
            });
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_AFTER_EXIT);
                assertThat(d.message()).isEqualTo("slow");
                assertThat(d.recipient()).isEqualTo(client.get().ref());
            });
        }
    }

    @Test
    void aFinishThatWaitsForTheReplyOfAnActorThatEndedSaysSo() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().name("ended-awaits").workers(2).build()) {
            Keeper slow = new Keeper(true);                  // exits without answering: no answer will ever come
            AtomicReference<FirstAnswerWins> client = new AtomicReference<>();
            assertThatThrownBy(() -> rt.finish(Duration.ofSeconds(3), () -> {
                ActorRef<Get> fast = new Fast().start();
                client.set(new FirstAnswerWins(fast, slow.start()));
                client.get().start();
                fast.stop();
                client.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                slow.ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }))
                    .isInstanceOf(FinishTimeoutException.class)
                    .hasMessageContaining("actor " + client.get().ref() + " has ended, and its finish waits for the"
                            + " reply it awaited from " + slow.ref() + " to Get[")
                    .hasMessageContaining("(" + slow.ref() + " has exited)")
                    .hasMessageContaining("an awaitReply with a timeout ends such a wait");
        }
    }

    @Test
    void anActorStoppedWhileItAwaitsIsToldStoppedAtOnce() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Keeper slow = new Keeper(false);
            AtomicReference<Asker> asker = new AtomicReference<>();
            rt.finish(() -> {
                asker.set(new Asker(slow.start()));
                asker.get().start();
                ReplyTo<String> replyTo = slow.kept.get(30, TimeUnit.SECONDS);
                asker.get().ref().stopNow();
                Terminated end = asker.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertThat(end.reason()).isEqualTo(Terminated.Reason.STOPPED);
                replyTo.reply("late");
                slow.ref().stop();
            });
            assertThat(asker.get().handled).isFalse();
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.REPLY_AFTER_EXIT);
                assertThat(d.message()).isEqualTo("late");
            });
        }
    }

    @Test
    void anActorWhoseTaskAwaitsIsToldEndedAtOnce() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            DeadLetter.subscribe(rt, dead::add);
            Keeper slow = new Keeper(false);
            Actor<String> client = new Actor<>() {
                @Override
                protected void process(String m) {
                    TaskRuntime.current().async(() -> awaitReply(slow.ref(), Get::new, (String answer) -> { }));
                }
            };
            rt.finish(() -> {
                slow.start();
                client.start().send("ask");
                ReplyTo<String> replyTo = slow.kept.get(30, TimeUnit.SECONDS);
                client.ref().stopNow();              // the task's request has been sent: it awaits the answer
                Terminated end = client.ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertThat(end.reason()).isEqualTo(Terminated.Reason.STOPPED);
                replyTo.reply("late");
                slow.ref().stop();
            });
            Await.until("the late answer is a dead letter", () -> dead.size() == 1);
            assertThat(dead.get(0).reason()).isEqualTo(DeadLetter.Reason.REPLY_AFTER_EXIT);
        }
    }

    @Test
    void theCloseOfTheRuntimeEndsAnActorThatAwaitsAndALaterAnswerIsADeadLetter() throws Exception {
        TaskRuntime other = TaskRuntime.create(1);            // the holder of the request lives on
        try {
            Keeper holder = new Keeper(false);
            other.async(holder::start);
            TaskRuntime rt = TaskRuntime.create(2);
            Asker waiter = new Asker(holder.ref());
            rt.async(waiter::start);
            ReplyTo<String> replyTo = holder.kept.get(30, TimeUnit.SECONDS);
            assertThat(rt.close(Duration.ofSeconds(30))).as("the close ends everything").isTrue();
            Terminated end = waiter.ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(end.reason()).isEqualTo(Terminated.Reason.RUNTIME_CLOSED);
            replyTo.reply("after the close");
            assertThat(waiter.handled).isFalse();
            assertThat(waiter.deadLetterCount()).isEqualTo(1);
            assertThat(RuntimeMetrics.of(rt).deadLetters(DeadLetter.Reason.REPLY_AFTER_EXIT)).isEqualTo(1);
        } finally {
            other.close();
        }
    }

    record Question(ReplyTo<String> replyTo) {
    }

    record Begin() {
    }

    /** Asks its peer on Begin, which asks it back: each holds its messages, the other's question among them. */
    static final class Peer extends Actor<Object> {
        volatile ActorRef<Object> other;
        final AtomicBoolean asked = new AtomicBoolean();

        @Override
        protected void process(Object m) {
            switch (m) {
                case Begin b -> {
                    awaitReply(other, Question::new, (String answer) -> { });
                    asked.set(true);
                }
                case Question q -> q.replyTo().reply("hi");
                default -> throw new IllegalArgumentException("unexpected " + m);
            }
        }
    }

    @Test
    void aCloseEndsTwoActorsThatAwaitEachOtherAsClosedNotAsFailed() throws Exception {
        for (int round = 0; round < 20; round++) {
            TaskRuntime rt = TaskRuntime.builder().name("cycle-" + round).workers(2).noFailureLogging().build();
            Peer a = new Peer();
            Peer b = new Peer();
            a.other = b.ref();
            b.other = a.ref();
            rt.async(() -> {
                a.start("A");
                b.start("B");
                a.ref().send(new Begin());
                b.ref().send(new Begin());
            });
            Await.until("both ask", () -> a.asked.get() && b.asked.get());
            assertThat(rt.close(Duration.ofSeconds(30))).isTrue();
            int r = round;
            assertThat(a.ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS).reason())
                    .as("A's end in round %d", r).isEqualTo(Terminated.Reason.RUNTIME_CLOSED);
            assertThat(b.ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS).reason())
                    .as("B's end in round %d", r).isEqualTo(Terminated.Reason.RUNTIME_CLOSED);
            assertThat(RuntimeMetrics.of(rt).failures()).as("failures in round %d", r).isZero();
        }
    }
}

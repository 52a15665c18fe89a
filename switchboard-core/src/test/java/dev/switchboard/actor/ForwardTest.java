package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ReplyTo.forward}: a request handed on to another actor is that actor's to answer, and the requester hears
 * at once when it cannot be (the actor has ended, or failed on it), and at its timeout who had it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForwardTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("forward").workers(2).build();
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    sealed interface Query permits Get, Fail, Silent, Exit {}

    /** Answered with the key's length by whoever has it last; {@code hops} relays hand it on first. */
    record Get(String key, ReplyTo<Integer> replyTo) implements Query {}

    /** The worker fails on it. */
    record Fail(ReplyTo<Integer> replyTo) implements Query {}

    /** The worker never answers it. */
    record Silent(ReplyTo<Integer> replyTo) implements Query {}

    record Exit() implements Query {}

    /** Answers {@link Get}, fails on {@link Fail}, ignores {@link Silent}. */
    static final class Worker extends Actor<Query> {
        @Override
        protected void process(Query q) {
            switch (q) {
                case Get g -> g.replyTo().reply(g.key().length());
                case Fail f -> throw new IllegalStateException("the worker cannot");
                case Silent s -> { }
                case Exit e -> exit();
            }
        }
    }

    /** Hands every query on to {@code to}; fails after handing one on if {@code failAfter}. */
    static final class Relay extends Actor<Query> {
        final ActorRef<Query> to;
        final boolean failAfter;

        Relay(ActorRef<Query> to, boolean failAfter) {
            this.to = to;
            this.failAfter = failAfter;
        }

        @Override
        protected void process(Query q) {
            switch (q) {
                case Get g -> g.replyTo().forward(to, g);
                case Fail f -> f.replyTo().forward(to, f);
                case Silent s -> s.replyTo().forward(to, s);
                case Exit e -> exit();
            }
            if (failAfter) {
                throw new IllegalStateException("the relay failed after handing it on");
            }
        }
    }

    @Test
    void aRequestHandedOnIsAnsweredByTheActorItWasHandedTo() {
        List<Integer> answers = new CopyOnWriteArrayList<>();
        rt.finish(() -> {
            ActorRef<Query> worker = new Worker().start();
            ActorRef<Query> second = new Relay(worker, false).start();
            ActorRef<Query> relay = new Relay(second, false).start();                     // two hops
            for (String key : List.of("a", "bb", "ccc")) {
                answers.add(relay.<Integer>ask(r -> new Get(key, r), Duration.ofSeconds(30)).join());
            }
            for (ActorRef<Query> a : List.of(relay, second, worker)) {
                a.send(new Exit());
            }
        });
        assertThat(answers).containsExactly(1, 2, 3);
    }

    @Test
    void aRequestHandedOnToAnActorThatHasEndedFailsAtOnceNamingThatActor() throws Exception {
        Throwable[] failure = new Throwable[1];
        long before = rt.deadLetterCount();
        ActorRef<Query>[] refs = ActorRef.newArray(2);
        rt.finish(() -> {
            ActorRef<Query> worker = new Worker().start("worker");
            worker.send(new Exit());
            worker.whenTerminated().toCompletableFuture().join();
            ActorRef<Query> relay = new Relay(worker, false).start("relay");
            refs[0] = worker;
            refs[1] = relay;
            // a timeout far beyond the test's: a plain send would be heard of only then
            CompletableFuture<Integer> answer = relay.ask(r -> new Get("a", r), Duration.ofHours(1));
            failure[0] = catchThrowable(answer::get);
            relay.send(new Exit());
        });
        assertThat(failure[0]).isInstanceOf(ExecutionException.class).cause().isInstanceOf(NoReplyException.class)
                .hasMessage(refs[0] + " terminated before processing the request Get[key=a, replyTo=replyTo(request to "
                        + refs[1] + ")]");
        assertThat(rt.deadLetterCount() - before).as("the request, a dead letter of the worker").isEqualTo(1);
    }

    @Test
    void aTimeoutNamesTheActorTheRequestWasHandedOnTo() {
        Throwable[] failure = new Throwable[1];
        ActorRef<Query>[] refs = ActorRef.newArray(2);
        rt.finish(() -> {
            refs[0] = new Worker().start("worker");
            refs[1] = new Relay(refs[0], false).start("relay");
            failure[0] = catchThrowable(() -> refs[1].<Integer>ask(Silent::new, Duration.ofMillis(200)).join());
            refs[1].send(new Exit());
            refs[0].send(new Exit());
        });
        assertThat(failure[0].getCause()).isInstanceOf(ReplyTimeoutException.class)
                .hasMessageStartingWith(refs[1] + " (which handed it on to " + refs[0] + ") did not reply to Silent[");
    }

    @Test
    void theFailureOfTheActorItWasHandedToFailsTheRequestAndNotThatOfTheRelay() {
        Throwable[] failed = new Throwable[1];
        Object[] answered = new Object[1];
        ActorRef<Query>[] refs = ActorRef.newArray(1);
        Throwable finish = catchThrowable(() -> rt.finish(() -> {
            ActorRef<Query> worker = new Worker().start("worker");                // it fails, and ends
            refs[0] = worker;
            ActorRef<Query> relay = new Relay(worker, false).start();
            failed[0] = catchThrowable(() -> relay.<Integer>ask(Fail::new, Duration.ofHours(1)).join());
            relay.send(new Exit());
            // the relay fails after handing the request on: the other worker still answers it
            ActorRef<Query> other = new Worker().start("other");
            answered[0] = new Relay(other, true).start().<Integer>ask(r -> new Get("four", r),
                    Duration.ofHours(1)).handle((answer, failure) -> failure != null ? failure : answer).join();
            other.send(new Exit());
        }));
        assertThat(failed[0].getCause()).isInstanceOf(NoReplyException.class)
                .hasMessageStartingWith(refs[0] + " failed while processing the request Fail[");
        assertThat(answered[0]).isEqualTo(4);
        assertThat(finish).as("the worker's and the second relay's failures reach the finish").isNotNull();
    }

    @Test
    void anAwaitReplyHearsAtOnceToo() {
        Object[] heard = new Object[1];
        rt.finish(() -> {
            ActorRef<Query> worker = new Worker().start("worker");
            worker.send(new Exit());
            worker.whenTerminated().toCompletableFuture().join();
            ActorRef<Query> relay = new Relay(worker, false).start("relay");
            new Actor<String>() {
                @Override
                protected void onStart() {
                    this.<Query, Integer>awaitReply(relay, r -> new Get("a", r), Duration.ofHours(1),
                            (Integer answer, Throwable failure) -> {
                                heard[0] = failure != null ? failure : answer;
                                relay.send(new Exit());
                                exit();
                            });
                }

                @Override
                protected void process(String m) {
                }
            }.start();
        });
        assertThat(heard[0]).isInstanceOf(NoReplyException.class).asString().contains("worker@");
    }

    @Test
    void nullsAreRefusedNamingTheRequest() {
        rt.finish(() -> {
            ActorRef<Query> worker = new Worker().start("worker");
            ActorRef<Query> relay = new Actor<Query>() {
                @Override
                protected void process(Query q) {
                    if (q instanceof Get g) {
                        assertThatThrownBy(() -> g.replyTo().forward(null, g)).isInstanceOf(NullPointerException.class)
                                .hasMessageStartingWith("null actor given to forward() of replyTo(request to ");
                        assertThatThrownBy(() -> g.replyTo().forward(worker, null))
                                .isInstanceOf(NullPointerException.class)
                                .hasMessageStartingWith("null request given to forward() of replyTo(request to ");
                        g.replyTo().forward(worker, g);
                    } else {
                        exit();
                    }
                }
            }.start();
            assertThat(relay.<Integer>ask(r -> new Get("ok", r), Duration.ofSeconds(30)).join()).isEqualTo(2);
            relay.send(new Exit());
            worker.send(new Exit());
        });
    }
}

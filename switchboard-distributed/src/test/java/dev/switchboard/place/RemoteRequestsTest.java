package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.NoReplyException;
import dev.switchboard.actor.ReplyTimeoutException;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.Terminated;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests across places, the same program on one place and on three: {@code ask} from the program's body and
 * {@code awaitReply} from an actor, answered by an actor of another place, or by one a third place hands the
 * request on to; and the failures a request has on one JVM — a timeout (and the late reply a dead letter), an
 * actor that ends before it processes the request, a replier that answers with a failure.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteRequestsTest {
    sealed interface CounterMsg {
    }

    /** Adds {@code n} and answers the new total. */
    record Add(long n, ReplyTo<Long> replyTo) implements CounterMsg {
    }

    /** Handed on to the counter at {@code to}, which answers the requester. */
    record Via(ActorRef<CounterMsg> to, long n, ReplyTo<Long> replyTo) implements CounterMsg {
    }

    /** Answered after {@code millis}, or never if negative. */
    record Slow(long millis, ReplyTo<Long> replyTo) implements CounterMsg {
    }

    /** Answered with a failure. */
    record Refuse(ReplyTo<Long> replyTo) implements CounterMsg {
    }

    /** Makes the counter exit, unanswered requests behind it. */
    record Quit() implements CounterMsg {
    }

    /** Answered with a class no place registers. */
    record Odd(ReplyTo<Object> replyTo) implements CounterMsg {
    }

    record NotListed(int x) {
    }

    record NewCounter() implements ActorRecipe<CounterMsg> {
        @Override
        public Actor<CounterMsg> create() {
            return new Actor<>() {
                private long total;

                @Override
                protected void process(CounterMsg m) {
                    switch (m) {
                        case Add a -> a.replyTo().reply(total += a.n());
                        case Via v -> v.to().send(new Add(v.n(), v.replyTo()));
                        case Slow s -> {
                            if (s.millis() >= 0) {
                                startSingleTimer("slow", new Add(0, s.replyTo()), Duration.ofMillis(s.millis()));
                            }
                        }
                        case Refuse r -> r.replyTo().fail(new IllegalStateException("refused by " + self()));
                        case Quit q -> exit();
                        case Odd o -> o.replyTo().reply(new NotListed(1));   // throws: not registered
                    }
                }
            };
        }
    }

    /** An actor of place 0 that asks a counter of another place with awaitReply, three times in a row. */
    static final class Asker extends Actor<String> {
        final List<Long> answers = new CopyOnWriteArrayList<>();
        private final ActorRef<CounterMsg> counter;

        Asker(ActorRef<CounterMsg> counter) {
            this.counter = counter;
        }

        @Override
        protected void process(String go) {
            awaitReply(counter, (ReplyTo<Long> r) -> new Add(10, r), (Long first) -> {
                answers.add(first);
                awaitReply(counter, (ReplyTo<Long> r) -> new Add(10, r), (Long second) -> {
                    answers.add(second);
                    counter.send(new Quit());
                    exit();
                });
            });
        }
    }

    @ParameterizedTest(name = "{0} places")
    @ValueSource(ints = {1, 3})
    void askAndAwaitReplyAreAnsweredAcrossPlacesAsOnOne(int count) throws Exception {
        Asker[] asker = new Asker[1];
        long[] asked = new long[3];
        PlacesReport report = Places.builder().places(count).workers(2).messages(Add.class, Via.class, Quit.class,
                NewCounter.class).run(places -> {
                    ActorRef<CounterMsg> far = places.start(places.count() - 1, new NewCounter());
                    ActorRef<CounterMsg> middle = places.start(places.count() / 2, new NewCounter());
                    asked[0] = far.<Long>ask(r -> new Add(5, r), Duration.ofSeconds(30)).get();
                    asked[1] = far.<Long>ask(r -> new Add(2, r), Duration.ofSeconds(30)).get();
                    // handed on by the middle place's counter to the far one, which answers place 0 directly
                    asked[2] = middle.<Long>ask(r -> new Via(far, 100, r), Duration.ofSeconds(30)).get();
                    asker[0] = new Asker(far);                 // which makes the far counter quit
                    asker[0].start().send("go");
                    middle.send(new Quit());
                });
        assertThat(asked).containsExactly(5, 7, 107);
        assertThat(asker[0].answers).containsExactly(117L, 127L);
        assertThat(report.totalDeadLetters()).isZero();
    }

    @Test
    void aRequestAcrossPlacesFailsAsOnOneJvm() throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        PlacesReport report = Places.builder().places(3).workers(2).messages(Add.class, Slow.class, Refuse.class,
                Quit.class, NewCounter.class).run(places -> {
                    ActorRef<CounterMsg> counter = places.start(2, new NewCounter());
                    // a timeout, then the reply comes late: a dead letter at place 0
                    failures.add(failure(counter.ask(r -> new Slow(300, r), Duration.ofMillis(100))));
                    TransportTest.waitUntil("the late reply is a dead letter at place 0",
                            () -> places.runtime().deadLetterCount() == 1);
                    // a replier that answers with a failure
                    failures.add(failure(counter.ask(Refuse::new, Duration.ofSeconds(30))));
                    // the actor ends before it processes the request
                    counter.send(new Quit());
                    failures.add(failure(counter.ask(r -> new Add(1, r), Duration.ofSeconds(30))));
                });
        assertThat(failures.get(0)).isInstanceOf(ReplyTimeoutException.class)
                .hasMessageContaining("Counter@").hasMessageContaining("100 ms");
        assertThat(failures.get(1)).isInstanceOf(PlaceFailureException.class)
                .hasMessageStartingWith("on place p2: java.lang.IllegalStateException: refused by Counter@");
        assertThat(failures.get(2)).isInstanceOf(NoReplyException.class)
                .hasMessageStartingWith("at place p2: Counter@").hasMessageContaining("terminated before processing"
                        + " the request");
        assertThat(report.deadLetters()[0]).as("the late reply, at place 0").isEqualTo(1);
    }

    /** A recipe whose actor cannot be made at its place. */
    record NewBroken() implements ActorRecipe<CounterMsg> {
        @Override
        public Actor<CounterMsg> create() {
            throw new IllegalStateException("no database at this place");
        }
    }

    /**
     * A request to an actor whose creation failed at its place fails at once, as one to an actor that has ended:
     * it waited for its timeout, whatever it was, while the place had counted it a dead letter at once. Watched
     * after that, the actor ended {@code FAILED}, with why (it read {@code EXITED}).
     */
    @Test
    void aRequestToAnActorWhoseCreationFailedFailsAtOnce() {
        Throwable[] asked = new Throwable[1];
        Terminated[] ended = new Terminated[1];
        Throwable program = catchThrowable(() -> Places.builder().places(2).workers(2)
                .messages(Add.class, NewBroken.class).run(places -> {
                    ActorRef<CounterMsg> broken = places.start(1, new NewBroken());
                    asked[0] = failure(broken.ask(r -> new Add(1, r), Duration.ofHours(1)));
                    ended[0] = broken.whenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
                }));
        assertThat(asked[0]).isInstanceOf(NoReplyException.class)
                .hasMessageContaining("did not process the request " + Add.class.getName())
                .hasMessageContaining("no database at this place");
        assertThat(ended[0].reason()).as("watched after the failure: " + ended[0]).isEqualTo(Terminated.Reason.FAILED);
        assertThat(ended[0].failure()).hasMessageContaining("no database at this place");
        assertThat(program).as("the creation's failure reaches the program").isNotNull()
                .hasStackTraceContaining("no database at this place");
    }

    @Test
    void aReplyThatCannotBeSentFailsTheRequestAndTheReplier() throws Exception {
        Throwable[] asked = new Throwable[1];
        Throwable failed = null;
        try {
            Places.builder().places(2).workers(2).messages(Odd.class, Quit.class, NewCounter.class).run(places -> {
                ActorRef<CounterMsg> counter = places.start(1, new NewCounter());
                try {
                    counter.ask(Odd::new, Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    asked[0] = e.getCause();
                }
            });
        } catch (dev.switchboard.task.MultiException e) {
            failed = e;
        }
        assertThat(asked[0]).isInstanceOf(PlaceFailureException.class).hasMessageStartingWith("on place p1:"
                + " java.lang.IllegalArgumentException: cannot send a " + NotListed.class.getName());
        assertThat(failed).as("the replier's failure reaches the program's finish").isNotNull()
                .hasMessageContaining("cannot send a " + NotListed.class.getName());
    }

    private static Throwable failure(CompletableFuture<Long> asked) throws InterruptedException {
        try {
            asked.get(60, TimeUnit.SECONDS);
            throw new AssertionError("answered: " + asked);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no answer in 60 s", e);
        }
    }
}

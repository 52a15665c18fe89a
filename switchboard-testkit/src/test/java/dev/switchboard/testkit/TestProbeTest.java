package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.NoReplyException;
import dev.switchboard.actor.ReplyTo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.AssertionFailedError;

/** A probe's expectations: what they take, and how they fail. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TestProbeTest {
    sealed interface Reply permits Pong, Note {
    }

    record Pong(int n) implements Reply {
    }

    record Note(String text) implements Reply {
    }

    record Ping(int n, ActorRef<Reply> replyTo) {
    }

    /** Answers each ping with a pong of its number. */
    static final class Ponger extends Actor<Ping> {
        @Override
        protected void process(Ping p) {
            p.replyTo().send(new Pong(p.n()));
        }
    }

    @Test
    void expectsWhatArrivesInOrder() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Reply> replies = kit.probe("replies");
            ActorRef<Ping> ponger = kit.spawn(new Ponger());
            for (int i = 1; i <= 5; i++) {
                ponger.send(new Ping(i, replies.ref()));
            }
            assertThat(replies.expectMessage(new Pong(1))).isEqualTo(new Pong(1));
            assertThat(replies.expectMessageClass(Pong.class).n()).isEqualTo(2);
            assertThat(replies.receiveMessages(3)).containsExactly(new Pong(3), new Pong(4), new Pong(5));
            replies.expectNoMessage();
            ponger.stop();
        }
    }

    @Test
    void aWrongMessageFailsWithBothShown() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Reply> replies = kit.probe("replies");
            replies.ref().send(new Pong(2));
            assertThatThrownBy(() -> replies.expectMessage(new Pong(1)))
                    .isInstanceOf(AssertionFailedError.class)
                    .hasMessage("probe 'replies': expected Pong[n=1] but received Pong[n=2]");
            replies.ref().send(new Note("hello"));
            assertThatThrownBy(() -> replies.expectMessageClass(Pong.class))
                    .hasMessageContaining("expected a " + Pong.class.getName() + " but received a "
                            + Note.class.getName() + ": Note[text=hello]");
        }
    }

    @Test
    void aMissingMessageFailsAfterTheWait() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Reply> replies = kit.probe("replies");
            assertThatThrownBy(() -> replies.expectMessage(Duration.ofMillis(50), new Pong(1)))
                    .hasMessage("probe 'replies': expected Pong[n=1] within 50 ms, but no message came");
            replies.ref().send(new Pong(1));
            replies.ref().send(new Pong(2));
            assertThatThrownBy(() -> replies.receiveMessages(3, Duration.ofMillis(50)))
                    .hasMessage("probe 'replies': received 2 of 3 messages within 50 ms: [Pong[n=1], Pong[n=2]]");
        }
    }

    @Test
    void anUnwantedMessageFailsExpectNoMessage() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Reply> replies = kit.probe("replies");
            replies.ref().send(new Note("late"));
            assertThatThrownBy(() -> replies.expectNoMessage(Duration.ofSeconds(5)))
                    .hasMessage("probe 'replies': expected no message within 5 s, but received Note[text=late]");
        }
    }

    @Test
    void fishingTakesTheFishAndDropsWhatItIgnores() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Reply> events = kit.probe("events");
            for (String s : List.of("tick", "a", "tick", "b", "done", "after")) {
                events.ref().send(new Note(s));
            }
            List<Reply> fish = events.fishForMessage(kit.timeout(), r -> switch (((Note) r).text()) {
                case "tick" -> FishingOutcome.ignore();
                case "done" -> FishingOutcome.complete();
                default -> FishingOutcome.keepFishing();
            });
            assertThat(fish).containsExactly(new Note("a"), new Note("b"), new Note("done"));
            assertThat(events.receiveMessage()).isEqualTo(new Note("after"));

            events.ref().send(new Note("ok"));
            events.ref().send(new Note("boom"));
            assertThatThrownBy(() -> events.fishForMessage(kit.timeout(), r -> r.equals(new Note("boom"))
                    ? FishingOutcome.fail("no boom expected") : FishingOutcome.keepFishing()))
                    .hasMessage("probe 'events': no boom expected: Note[text=boom] (caught before it: [Note[text=ok]])");
        }
    }

    record Balance(String account, ReplyTo<Long> replyTo) {
    }

    /** Answers alice's balance, fails the request for anyone else; ends on "exit". */
    static final class Bank extends Actor<Object> {
        @Override
        protected void process(Object m) {
            switch (m) {
                case Balance b when b.account().equals("alice") -> b.replyTo().reply(100L);
                case Balance b -> b.replyTo().fail(new IllegalArgumentException("no account " + b.account()));
                default -> exit();
            }
        }
    }

    @Test
    void aProbesReplyToReceivesTheReplyAsAMessageAndAFailureApart() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Long> replies = kit.probe("replies");
            ActorRef<Object> bank = kit.spawn(new Bank(), "bank");
            bank.send(new Balance("alice", replies.replyTo()));
            assertThat(replies.expectMessage(100L)).isEqualTo(100L);
            bank.send(new Balance("bob", replies.replyTo()));
            assertThatThrownBy(() -> replies.expectMessage(Duration.ofMillis(100), 100L))
                    .hasMessageContaining("but no message came; a reply failed instead (expectReplyFailure takes it):"
                            + " java.lang.IllegalArgumentException: no account bob");
            assertThat(replies.expectReplyFailure(IllegalArgumentException.class)).hasMessage("no account bob");
            bank.send("exit");
            kit.expectTerminated(bank);
            bank.send(new Balance("alice", replies.replyTo()));       // a dead letter: not the bank's request
            replies.expectNoMessage();
            assertThatThrownBy(() -> replies.expectReplyFailure(RuntimeException.class, Duration.ofMillis(100)))
                    .isInstanceOf(AssertionFailedError.class)
                    .hasMessageStartingWith("probe 'replies': expected a failed reply (a RuntimeException) within 100"
                            + " ms, but none came");
            kit.expectDeadLetter(d -> true);
        }
    }

    @Test
    void aRequestHandedOnWithAProbesReplyToThatCannotBeAnsweredIsAFailedReply() {
        try (TestKit kit = TestKit.create()) {
            TestProbe<Long> replies = kit.probe("replies");
            ActorRef<Object> bank = kit.spawn(new Bank(), "bank");
            bank.send("exit");
            kit.expectTerminated(bank);
            ReplyTo<Long> replyTo = replies.replyTo();
            assertThat(replyTo).hasToString("replyTo(request to " + replies.ref() + ")");
            replyTo.forward(bank, new Balance("alice", replyTo));
            assertThat(replies.expectReplyFailure(NoReplyException.class))
                    .hasMessageStartingWith(bank + " terminated before processing the request Balance[account=alice");
            kit.expectDeadLetter(d -> true);
        }
    }
}

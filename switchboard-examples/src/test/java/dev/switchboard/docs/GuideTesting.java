package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.testkit.ExplorationFailure;
import dev.switchboard.testkit.ScheduleExplorer;
import dev.switchboard.testkit.SwitchboardTest;
import dev.switchboard.testkit.TestKit;
import dev.switchboard.testkit.TestProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The guide's section "Testing", run as the tests it shows. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
// tag::probe[]
@SwitchboardTest
class GuideTesting {
    record Ping(int n, ActorRef<Pong> replyTo) {}
    record Pong(int n) {}

    static final class Ponger extends Actor<Ping> {
        @Override
        protected void process(Ping p) {
            p.replyTo().send(new Pong(p.n()));
        }
    }

    @Test
    void answersEachPing(TestKit kit) {
        TestProbe<Pong> replies = kit.probe();
        ActorRef<Ping> ponger = kit.spawn(new Ponger());
        ponger.send(new Ping(1, replies.ref()));
        ponger.send(new Ping(2, replies.ref()));
        replies.expectMessage(new Pong(1));
        replies.expectMessage(new Pong(2));
        replies.expectNoMessage();
        ponger.stop();                      // the test fails if an actor is still running at its end
    }
    // end::probe[]

    record Remind(String what, Duration in, ActorRef<String> to) {}

    static final class Reminder extends Actor<Remind> {
        @Override
        protected void process(Remind r) {
            if (r.in().isZero()) {
                r.to().send(r.what());
            } else {
                startSingleTimer(r.what(), new Remind(r.what(), Duration.ZERO, r.to()), r.in());
            }
        }
    }

    // tag::clock[]
    @Test
    @SwitchboardTest(manualClock = true)
    void remindsAfterHalfAnHour(TestKit kit) {
        TestProbe<String> me = kit.probe();
        ActorRef<Remind> reminder = kit.spawn(new Reminder());
        reminder.send(new Remind("stand up", Duration.ofMinutes(30), me.ref()));
        kit.awaitTimer(reminder, "stand up");            // it has set its timer: the clock may move
        kit.clock().advance(Duration.ofMinutes(29));
        me.expectNoMessage();
        kit.clock().advance(Duration.ofMinutes(1));      // runs the timer, here, before it returns
        me.expectMessage("stand up");
        reminder.stop();
    }
    // end::clock[]

    // tag::failures[]
    @Test
    void aFailureIsExpectedAndItsMessagesAreDeadLetters(TestKit kit) {
        ActorRef<Ping> ponger = kit.spawn(new Ponger());
        ponger.send(new Ping(1, null));                   // process() throws a NullPointerException
        kit.expectFailure(NullPointerException.class);    // else the test fails at its end: nobody expected it
        kit.expectTerminated(ponger);
        ponger.send(new Ping(2, kit.<Pong>probe().ref()));
        DeadLetter d = kit.expectDeadLetter(l -> l.message() instanceof Ping p && p.n() == 2);
        assertThat(d.reason()).isEqualTo(DeadLetter.Reason.RECIPIENT_TERMINATED);
    }
    // end::failures[]

    sealed interface CounterMsg {}
    record Get(ReplyTo<Integer> replyTo) implements CounterMsg {}
    record Set(int value) implements CounterMsg {}

    static final class Counter extends Actor<CounterMsg> {
        private int value;

        @Override
        protected void process(CounterMsg m) {
            switch (m) {
                case Get g -> g.replyTo().reply(value);
                case Set s -> value = s.value();
            }
        }
    }

    // tag::incrementer[]
    /** Reads the counter, then writes what it read plus one: two of them can lose an update. */
    static final class Incrementer extends Actor<Object> {
        private final ActorRef<CounterMsg> counter;

        Incrementer(ActorRef<CounterMsg> counter) {
            this.counter = counter;
        }

        @Override
        protected void onStart() {
            awaitReply(counter, Get::new, (Integer v) -> {
                counter.send(new Set(v + 1));
                exit();
            });
        }

        @Override
        protected void process(Object m) {}
    }
    // end::incrementer[]

    @Test
    void theExplorerFindsTheLostUpdate() {
        {
            // tag::explore[]
            ScheduleExplorer.pct(2).seeds(0, 1_000).check(kit -> {
                ActorRef<CounterMsg> counter = kit.spawn(new Counter());
                kit.expectTerminated(kit.spawn(new Incrementer(counter)));  // ... waits: runs the program
                kit.expectTerminated(kit.spawn(new Incrementer(counter)));
                int value = kit.awaitResult(counter.ask(Get::new, Duration.ofSeconds(10)));
                assertThat(value).isEqualTo(2);
            });
            // end::explore[]
        }
        assertThatThrownBy(() -> ScheduleExplorer.pct(2).seeds(0, 1_000).check(kit -> {
            ActorRef<CounterMsg> counter = kit.spawn(new Counter());
            ActorRef<Object> a = kit.spawn(new Incrementer(counter));
            ActorRef<Object> b = kit.spawn(new Incrementer(counter));
            kit.expectTerminated(a);
            kit.expectTerminated(b);
            assertThat(kit.awaitResult(counter.ask(Get::new, Duration.ofSeconds(10)))).isEqualTo(2);
        })).isInstanceOf(ExplorationFailure.class)
                .hasMessageMatching("(?s)seed \\d+ of PCT \\(depth 2\\) failed after \\d+ steps \\(trace [0-9a-f]{16}\\)"
                        + ".*expected: 2.*but was: 1.*replay it with explorer\\.replay\\(\\d+, program\\) or"
                        + " -Dswitchboard\\.testkit\\.seed=\\d+");
    }
}

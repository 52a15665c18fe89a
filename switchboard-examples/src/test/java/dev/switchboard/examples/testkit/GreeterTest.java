package dev.switchboard.examples.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
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

/**
 * The test kit as a user's tests use it (the guide's "Testing" section): a probe, the test clock, failures, and a
 * schedule explorer finding a lost update that ordinary runs rarely show.
 */
@SwitchboardTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GreeterTest {
    record Greet(String whom, ActorRef<Greeted> replyTo) {
    }

    record Greeted(String whom) {
    }

    static final class Greeter extends Actor<Greet> {
        @Override
        protected void process(Greet g) {
            if (g.whom().isBlank()) {
                throw new IllegalArgumentException("whom to greet?");
            }
            g.replyTo().send(new Greeted(g.whom()));
        }
    }

    @Test
    void greetsWhoItIsAskedTo(TestKit kit) {
        TestProbe<Greeted> greetings = kit.probe();
        ActorRef<Greet> greeter = kit.spawn(new Greeter());
        greeter.send(new Greet("Ada", greetings.ref()));
        greetings.expectMessage(new Greeted("Ada"));
        greetings.expectNoMessage();
        greeter.stop();
    }

    @Test
    void aBlankNameEndsTheGreeter(TestKit kit) {
        ActorRef<Greet> greeter = kit.spawn(new Greeter());
        greeter.send(new Greet(" ", kit.<Greeted>probe().ref()));
        assertThat(kit.expectFailure(IllegalArgumentException.class).actor()).isEqualTo(greeter);
        kit.expectTerminated(greeter);
        greeter.send(new Greet("Ada", kit.<Greeted>probe().ref()));
        kit.expectDeadLetter(d -> d.message() instanceof Greet g && g.whom().equals("Ada"));
    }

    sealed interface ReminderMsg permits Remind, Due {
    }

    record Remind(String what, Duration in, ActorRef<String> to) implements ReminderMsg {
    }

    record Due(String what, ActorRef<String> to) implements ReminderMsg {
    }

    static final class Reminder extends Actor<ReminderMsg> {
        @Override
        protected void process(ReminderMsg m) {
            switch (m) {
                case Remind r -> startSingleTimer(r.what(), new Due(r.what(), r.to()), r.in());
                case Due d -> d.to().send(d.what());
            }
        }
    }

    @Test
    @SwitchboardTest(manualClock = true)
    void remindsWhenTheTimeComes(TestKit kit) {
        TestProbe<String> me = kit.probe();
        ActorRef<ReminderMsg> reminder = kit.spawn(new Reminder());
        reminder.send(new Remind("stand up", Duration.ofMinutes(30), me.ref()));
        me.expectNoMessage();
        kit.clock().advance(Duration.ofMinutes(29));
        me.expectNoMessage();
        kit.clock().advance(Duration.ofMinutes(1));
        me.expectMessage("stand up");
        reminder.stop();
    }

    sealed interface CounterMsg permits Get, Set {
    }

    record Get(ReplyTo<Integer> replyTo) implements CounterMsg {
    }

    record Set(int value) implements CounterMsg {
    }

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

    /** Adds one to the counter by reading it and writing the value read plus one: two of them can lose an update. */
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
        protected void process(Object m) {
        }
    }

    @Test
    void theExplorerFindsTheLostUpdate() {
        ScheduleExplorer explorer = ScheduleExplorer.pct(2).seeds(0, 200);
        ScheduleExplorer.Program twoIncrements = kit -> {
            ActorRef<CounterMsg> counter = kit.spawn(new Counter());
            kit.expectTerminated(kit.spawn(new Incrementer(counter)));
            // (without the line above, the second increment may read before the first one wrote)
            kit.expectTerminated(kit.spawn(new Incrementer(counter)));
            assertThat(kit.awaitResult(counter.ask(Get::new, Duration.ofSeconds(10)))).isEqualTo(2);
        };
        explorer.check(twoIncrements);                    // sequenced: passes under every schedule

        assertThatThrownBy(() -> explorer.check(kit -> {
            ActorRef<CounterMsg> counter = kit.spawn(new Counter());
            ActorRef<Object> a = kit.spawn(new Incrementer(counter));
            ActorRef<Object> b = kit.spawn(new Incrementer(counter));
            kit.expectTerminated(a);
            kit.expectTerminated(b);
            assertThat(kit.awaitResult(counter.ask(Get::new, Duration.ofSeconds(10)))).isEqualTo(2);
        })).isInstanceOf(ExplorationFailure.class).hasMessageContaining("expected: 2");
    }
}

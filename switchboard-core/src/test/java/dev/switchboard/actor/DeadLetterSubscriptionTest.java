package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DeadLetter#subscribe}: listeners hear every dead letter of their runtime while subscribed, in the order
 * they subscribed; one that throws is reported and does not silence the others; with none, the runtime logs.
 *
 * <p>A message sent to a terminated actor becomes a dead letter on the sender's thread, before {@code send}
 * returns: the tests look at the listeners right after sending.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadLetterSubscriptionTest {
    static final class Exits extends Actor<String> {
        @Override
        protected void process(String m) {
            exit();
        }
    }

    /** A reference to an actor of {@code rt} that has exited: what is sent to it is a dead letter at once. */
    static ActorRef<String> terminated(TaskRuntime rt, String name) {
        AtomicReference<ActorRef<String>> ref = new AtomicReference<>();
        rt.finish(() -> {
            ref.set(new Exits().start(name));
            ref.get().send("exit");
        });
        return ref.get();
    }

    static List<Object> messages(List<DeadLetter> letters) {
        return letters.stream().map(DeadLetter::message).toList();
    }

    @Test
    void aListenerHearsEveryDeadLetterUntilItsSubscriptionIsClosed() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            ActorRef<String> gone = terminated(rt, "gone");
            List<DeadLetter> heard = new CopyOnWriteArrayList<>();

            DeadLetter.Subscription subscription = DeadLetter.subscribe(rt, heard::add);
            gone.send("a");
            gone.send("b");
            subscription.close();
            gone.send("c");
            subscription.close();                                   // a second close does nothing

            assertThat(heard).extracting(DeadLetter::message).containsExactly("a", "b");
            assertThat(heard).allSatisfy(d -> {
                assertThat(d.recipient()).isEqualTo(gone);
                assertThat(d.reason()).isEqualTo(DeadLetter.Reason.RECIPIENT_TERMINATED);
            });
            assertThat(rt.deadLetterCount()).isEqualTo(3);          // counted whether or not anyone listens
        }
    }

    @Test
    void severalListenersEachHearEveryLetterInTheOrderTheySubscribed() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            ActorRef<String> gone = terminated(rt, "gone");
            List<String> calls = new CopyOnWriteArrayList<>();
            List<DeadLetter> first = new CopyOnWriteArrayList<>();
            List<DeadLetter> second = new CopyOnWriteArrayList<>();

            try (DeadLetter.Subscription a = DeadLetter.subscribe(rt, d -> {
                    calls.add("first " + d.message());
                    first.add(d);
                });
                 DeadLetter.Subscription b = DeadLetter.subscribe(rt, d -> {
                    calls.add("second " + d.message());
                    second.add(d);
                })) {
                gone.send("x");
                a.close();                                          // the other one stays
                gone.send("y");
            }
            gone.send("z");

            assertThat(calls).containsExactly("first x", "second x", "second y");
            assertThat(messages(first)).containsExactly("x");
            assertThat(messages(second)).containsExactly("x", "y");
        }
    }

    @Test
    void oneListenerSubscribedTwiceHearsEachLetterTwiceUntilBothAreClosed() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            ActorRef<String> gone = terminated(rt, "gone");
            List<DeadLetter> heard = new CopyOnWriteArrayList<>();
            java.util.function.Consumer<DeadLetter> listener = heard::add;

            DeadLetter.Subscription once = DeadLetter.subscribe(rt, listener);
            DeadLetter.Subscription twice = DeadLetter.subscribe(rt, listener);
            gone.send("both");
            once.close();
            gone.send("one");
            twice.close();
            gone.send("none");

            assertThat(messages(heard)).containsExactly("both", "both", "one");
        }
    }

    @Test
    void aListenerThatThrowsIsReportedAsAnUnscopedFailureAndTheOthersStillHear() {
        List<Throwable> unscoped = new CopyOnWriteArrayList<>();
        IllegalStateException broken = new IllegalStateException("listener broke");
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).onUnscopedFailure(unscoped::add).build()) {
            ActorRef<String> gone = terminated(rt, "gone");
            List<DeadLetter> heard = new CopyOnWriteArrayList<>();
            DeadLetter.subscribe(rt, d -> {
                throw broken;
            });
            DeadLetter.subscribe(rt, heard::add);

            gone.send("m");

            assertThat(unscoped).containsExactly(broken);
            assertThat(messages(heard)).containsExactly("m");
        }
    }

    @Test
    void listenersOfOneRuntimeDoNotHearAnother() {
        try (TaskRuntime one = TaskRuntime.create(1); TaskRuntime other = TaskRuntime.create(1)) {
            ActorRef<String> goneInOne = terminated(one, "one");
            ActorRef<String> goneInOther = terminated(other, "other");
            List<DeadLetter> heard = new CopyOnWriteArrayList<>();
            DeadLetter.subscribe(one, heard::add);

            goneInOther.send("elsewhere");
            goneInOne.send("here");

            assertThat(messages(heard)).containsExactly("here");
        }
    }

    @Test
    void theDefaultRuntimeTakesListenersToo() {
        TaskRuntime rt = TaskRuntime.defaultRuntime();
        ActorRef<String> gone = terminated(rt, "gone-from-default");
        List<DeadLetter> heard = new CopyOnWriteArrayList<>();
        long before = rt.deadLetterCount();
        // Other tests share the default runtime: this listener keeps only the letters sent to its own actor.
        try (DeadLetter.Subscription s = DeadLetter.subscribe(rt, d -> {
            if (d.recipient().equals(gone)) {
                heard.add(d);
            }
        })) {
            gone.send("to the default runtime");
        }
        gone.send("after the close");

        assertThat(messages(heard)).containsExactly("to the default runtime");
        assertThat(rt.deadLetterCount() - before).isGreaterThanOrEqualTo(2);
    }

    @Test
    void theRuntimeLogsDeadLettersOnlyWhileNoListenerIsSubscribed() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Logger jul = Logger.getLogger("dev.switchboard");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getMessage().contains("runtime 'quiet'")) {
                    logged.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level levelBefore = jul.getLevel();
        jul.setLevel(Level.ALL);
        jul.addHandler(capture);
        try (TaskRuntime rt = TaskRuntime.builder().name("quiet").workers(2).build()) {
            ActorRef<String> gone = terminated(rt, "gone");
            gone.send("logged 1");
            try (DeadLetter.Subscription s = DeadLetter.subscribe(rt, d -> { })) {
                gone.send("heard, not logged");
            }
            gone.send("logged 2");

            assertThat(logged).hasSize(2);
            assertThat(logged).allSatisfy(line -> assertThat(line)
                    .contains("RECIPIENT_TERMINATED: a String to gone@").doesNotContain("logged"));  // its type only
            assertThat(rt.deadLetterCount()).isEqualTo(3);
        } finally {
            jul.removeHandler(capture);
            jul.setLevel(levelBefore);
        }
    }

    @Test
    void subscribeNamesWhatIsMissing() {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            assertThatThrownBy(() -> DeadLetter.subscribe(rt, null)).isInstanceOf(NullPointerException.class)
                    .hasMessage("listener");
            assertThatThrownBy(() -> DeadLetter.subscribe(null, d -> { })).isInstanceOf(NullPointerException.class)
                    .hasMessage("runtime");
        }
    }
}

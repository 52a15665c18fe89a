package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** References: apart from the actor, with an id, a name, equality by id; what messages carry. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorRefTest {
    static TaskRuntime rt;
    static final ConcurrentLinkedQueue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("refs").workers(2).build();
        DeadLetter.subscribe(rt, deadLetters::add);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    sealed interface Msg permits Ping, Pong, Stop {
    }

    record Ping(ActorRef<Msg> replyTo) implements Msg {
    }

    record Pong() implements Msg {
    }

    record Stop() implements Msg {
    }

    /** Answers each Ping through the reference the Ping carries. */
    static final class Ponger extends Actor<Msg> {
        int pings;

        @Override
        protected void process(Msg msg) {
            switch (msg) {
                case Ping p -> {
                    pings++;
                    p.replyTo().send(new Pong());
                }
                case Stop s -> exit();
                case Pong p -> throw new IllegalStateException("unexpected " + p);
            }
        }
    }

    /** Sends {@code rounds} Pings carrying {@code self()}, then stops the ponger and itself. */
    static final class Pinger extends Actor<Msg> {
        final ActorRef<Msg> ponger;
        int left;
        int pongs;
        ActorRef<Msg> selfSeen;

        Pinger(ActorRef<Msg> ponger, int rounds) {
            this.ponger = ponger;
            this.left = rounds;
            this.selfSeen = self();                          // available from the constructor on
        }

        @Override
        protected void onStart() {
            ponger.send(new Ping(self()));
        }

        @Override
        protected void process(Msg msg) {
            if (msg instanceof Pong) {
                pongs++;
                if (--left > 0) {
                    ponger.send(new Ping(self()));
                } else {
                    ponger.send(new Stop());
                    exit();
                }
            }
        }
    }

    static class Idle extends Actor<String> {
        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            }
        }
    }

    @Test
    void startReturnsAReferenceApartFromTheActorAndSelfIsTheSameReference() {
        Ponger ponger = new Ponger();
        List<ActorRef<Msg>> refs = new ArrayList<>();
        rt.finish(() -> {
            ActorRef<Msg> p = ponger.start();
            Pinger pinger = new Pinger(p, 1_000);
            refs.add(p);
            refs.add(pinger.start());
            refs.add(pinger.selfSeen);
        });
        assertThat(ponger.pings).isEqualTo(1_000);
        assertThat((Object) refs.get(0)).isNotSameAs(ponger).isInstanceOf(LocalRef.OfActor.class);
        assertThat(refs.get(1)).isSameAs(refs.get(2));
        assertThat(refs.get(0)).isNotEqualTo(refs.get(1));
    }

    @Test
    void idsAreUniqueAcrossThreadsAndLeaveThePlaceBitsZero() throws Exception {
        int perThread = 5_000;
        List<List<ActorRef<String>>> lists = List.of(new ArrayList<>(), new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (List<ActorRef<String>> list : lists) {
            threads.add(Thread.ofPlatform().start(() -> rt.finish(() -> {
                for (int i = 0; i < perThread; i++) {
                    ActorRef<String> ref = new Idle().start();
                    ref.id();                                 // both threads take ids at once
                    list.add(ref);
                    ref.send("stop");
                }
            })));
        }
        for (Thread t : threads) {
            t.join();
        }
        Set<Long> ids = new HashSet<>();
        for (List<ActorRef<String>> list : lists) {
            assertThat(list).hasSize(perThread);
            for (ActorRef<String> ref : list) {
                assertThat(ref.id()).isPositive();
                assertThat(ref.id() >>> LocalRef.SEQUENCE_BITS).isZero();
                ids.add(ref.id());
            }
        }
        assertThat(ids).hasSize(2 * perThread);
    }

    @Test
    void referencesAreEqualByIdAndWorkAsHashKeys() {
        Map<ActorRef<String>, Integer> counts = new HashMap<>();
        List<ActorRef<String>> refs = new ArrayList<>();
        rt.finish(() -> {
            for (int i = 0; i < 100; i++) {
                refs.add(new Idle().start());
            }
            for (ActorRef<String> ref : refs) {
                counts.merge(ref, 1, Integer::sum);
                counts.merge(ref, 1, Integer::sum);
                ref.send("stop");
            }
        });
        assertThat(counts).hasSize(100).allSatisfy((ref, n) -> assertThat(n).isEqualTo(2));
        ActorRef<String> first = refs.get(0);
        assertThat(first).isEqualTo(first).hasSameHashCodeAs(first).isNotEqualTo(refs.get(1)).isNotEqualTo(null)
                .isNotEqualTo("Idle@" + first.id());
        assertThat(first.hashCode()).isEqualTo(Long.hashCode(first.id()));
    }

    @Test
    void toStringIsNameAtIdForTheReferenceAndTheActor() {
        Idle unnamed = new Idle();
        Idle named = new Idle();
        ActorRef<String>[] refs = refsOf(2);
        rt.finish(() -> {
            refs[0] = unnamed.start();
            refs[1] = named.start("gatekeeper");
            refs[0].send("stop");
            refs[1].send("stop");
        });
        assertThat(refs[0].name()).isEqualTo("Idle");
        assertThat(refs[0]).hasToString("Idle@" + refs[0].id());
        assertThat(unnamed).hasToString(refs[0].toString());
        assertThat(refs[1].name()).isEqualTo("gatekeeper");
        assertThat(refs[1]).hasToString("gatekeeper@" + refs[1].id());
        assertThat(named).hasToString(refs[1].toString());
        Actor<String> anonymous = new Actor<>() {
            @Override
            protected void process(String msg) {
                exit();
            }
        };
        assertThat(anonymous.toString()).startsWith("ActorRefTest$").doesNotStartWith("@");
    }

    @Test
    void aNameIsShownInFailuresHangReportsAndDeadLetters() throws InterruptedException {
        Throwable failed = catchThrowable(() -> rt.finish(() -> {
            ActorRef<String> a = new Actor<String>() {
                @Override
                protected void process(String msg) {
                    throw new IllegalArgumentException("bad " + msg);
                }
            }.start("parser");
            a.send("input");
        }));
        assertThat(failed).isInstanceOf(IllegalArgumentException.class).hasMessage("bad input");
        assertThat(failed.getSuppressed()[0].getMessage())
                .matches("parser@\\d+ was terminated: this exception escaped process\\(input\\)");

        CountDownLatch exited = new CountDownLatch(1);
        Idle forgotten = new Idle() {
            @Override
            protected void onExit() {
                exited.countDown();
            }
        };
        ActorRef<String>[] ref = refsOf(1);
        Throwable hung = catchThrowable(() -> rt.finish(Duration.ofMillis(200), () -> {
            ref[0] = forgotten.start("forgotten-listener");
        }));
        assertThat(hung).isInstanceOf(FinishTimeoutException.class)
                .hasMessageContaining("actor forgotten-listener@" + ref[0].id());
        rt.finish(() -> ref[0].send("stop"));              // the actor is not this finish's: wait for its exit
        assertThat(await(exited)).isTrue();
        rt.finish(() -> ref[0].send("too late"));
        assertThat(deadLetters).filteredOn(d -> d.recipient().equals(ref[0])).singleElement().satisfies(d -> {
            assertThat(d.recipient()).isEqualTo(ref[0]);
            assertThat(d.recipient().name()).isEqualTo("forgotten-listener");
            assertThat(d.message()).isEqualTo("too late");
        });
    }

    @Test
    void aBadNameIsRefusedBeforeTheActorStarts() {
        Idle idle = new Idle();
        assertThatThrownBy(() -> idle.start(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("null name given to start() of Idle@");
        assertThatThrownBy(() -> idle.start("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("the name given to start\\(\\) of Idle@\\d+ is blank: \"  \"");
        assertThatThrownBy(() -> idle.start("x".repeat(201))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is longer than 200 characters");
        assertThatThrownBy(() -> idle.start("two\nlines")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contains a control character");
        assertThat(idle.state()).isEqualTo(ActorState.NEW);
        assertThat(idle.toString()).startsWith("Idle@");
    }

    enum Box { HIGH, LOW }

    /** Records which mailbox each message came from; "stop" in any mailbox exits. */
    static final class TwoBoxes extends Selector<String, Box> {
        final List<String> seen = new CopyOnWriteArrayList<>();

        TwoBoxes() {
            super(Box.class);
        }

        @Override
        protected int route(String message) {
            return message.startsWith("low") ? Box.LOW.ordinal() : Box.HIGH.ordinal();
        }

        @Override
        protected void process(String msg) {
            if (msg.equals("stop")) {
                exit();
            } else {
                seen.add(Box.values()[currentMailbox()] + ":" + msg);
            }
        }
    }

    @Test
    void aSelectorReferenceNamesMailboxesByTheSelectorsEnumOrByNumber() {
        TwoBoxes selector = new TwoBoxes();
        rt.finish(() -> {
            SelectorRef<String, Box> ref = selector.start("boxes");
            assertThat(ref.mailboxCount()).isEqualTo(2);
            assertThat(ref.name()).isEqualTo("boxes");
            ref.send(Box.LOW, "a");
            ref.send(1, "b");
            ref.send(Box.HIGH, "c");
            ref.send("low d");                               // routed by the selector
            ref.send("e");
            assertThatThrownBy(() -> ref.send(2, "nowhere")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("boxes@" + ref.id());
            ActorRef<String> plain = ref;                     // a selector's reference is an actor reference
            plain.send("f");
            ref.send(Box.LOW, "stop");                        // after every HIGH message: they go first

        });
        assertThat(selector.seen).containsExactlyInAnyOrder("LOW:a", "LOW:b", "HIGH:c", "LOW:low d", "HIGH:e", "HIGH:f");
    }

    private static boolean await(CountDownLatch latch) throws InterruptedException {
        return latch.await(20, TimeUnit.SECONDS);
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<String>[] refsOf(int n) {
        return new ActorRef[n];
    }
}

package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.Switchboard;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Death watch: a watcher hears, once, that an actor it watches has ended and how, after everything that actor
 * processed and sent; at once if it had ended already; never after unwatch or its own end.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeathWatchTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = TaskRuntime.builder().name("watch").workers(2).build();
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    sealed interface Msg permits Text, Gone, Watch, Unwatch, Stop, Block {}

    record Text(String text) implements Msg {}

    record Gone(Terminated end) implements Msg {}

    record Watch(ActorRef<?> target) implements Msg {}

    record Unwatch(ActorRef<?> target) implements Msg {}

    record Stop() implements Msg {}

    /** Holds the watcher's turn: counts down {@code in}, then waits for {@code release}. */
    record Block(CountDownLatch in, CountDownLatch release) implements Msg {}

    /** Records what it receives; watches and unwatches on request; exits after {@code gones} Gone messages. */
    static final class Watcher extends Actor<Msg> {
        final Queue<Object> seen = new ConcurrentLinkedQueue<>();
        final int gones;
        int gone;

        Watcher(int gones) {
            this.gones = gones;
        }

        @Override
        protected void process(Msg m) {
            switch (m) {
                case Text t -> seen.add(t.text());
                case Gone g -> {
                    seen.add(g.end());
                    if (++gone == gones) {
                        exit();
                    }
                }
                case Watch w -> watch(w.target(), Gone::new);
                case Unwatch u -> seen.add("unwatched " + unwatch(u.target()));
                case Stop s -> exit();
                case Block b -> {
                    b.in().countDown();
                    await(b.release());
                }
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(60, TimeUnit.SECONDS)).as("released").isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Sends its texts to the watcher, then exits or fails; onExit sends a last word. */
    static final class Talker extends Actor<String> {
        final ActorRef<Msg> to;

        Talker(ActorRef<Msg> to) {
            this.to = to;
        }

        @Override
        protected void process(String s) {
            switch (s) {
                case "exit" -> exit();
                case "fail" -> throw new IllegalStateException("talker failed");
                default -> to.send(new Text(s));
            }
        }

        @Override
        protected void onExit() {
            to.send(new Text("last word"));
        }
    }

    @Test
    void theWatcherHearsAfterEverythingTheWatchedActorProcessedAndSent() {
        Watcher watcher = new Watcher(1);
        Talker talker = new Talker(watcher.ref());
        watcher.ref().send(new Watch(talker.ref()));
        rt.finish(Duration.ofSeconds(30), () -> {
            watcher.start();
            ActorRef<String> t = talker.start("talker");
            t.send("a");
            t.send("b");
            t.send("exit");
        });
        List<Object> seen = List.copyOf(watcher.seen);
        assertThat(seen).hasSize(4).startsWith("a", "b", "last word");
        assertThat(seen.get(3)).isEqualTo(new Terminated(talker.ref(), Terminated.Reason.EXITED, null));
        assertThat(watcher.deadLetterCount()).isZero();
    }

    @Test
    void aFailureIsToldWithItsCauseAndStillReachesTheFinish() {
        Watcher watcher = new Watcher(1);
        Talker talker = new Talker(watcher.ref());
        watcher.ref().send(new Watch(talker.ref()));
        assertThatThrownBy(() -> rt.finish(Duration.ofSeconds(30), () -> {
            watcher.start();
            talker.start().send("fail");
        })).isInstanceOf(IllegalStateException.class).hasMessage("talker failed");
        Terminated end = (Terminated) List.copyOf(watcher.seen).get(1);   // after the last word
        assertThat(end.reason()).isEqualTo(Terminated.Reason.FAILED);
        assertThat(end.failure()).hasMessage("talker failed");
    }

    @Test
    void watchingAnActorThatHasEndedTellsAtOnceAndWhenTerminatedCompletesAtOnce() throws Exception {
        Talker talker = new Talker(new Watcher(0).ref());
        rt.finish(Duration.ofSeconds(30), () -> talker.start().send("exit"));
        assertThat(talker.ref().whenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS).reason())
                .isEqualTo(Terminated.Reason.EXITED);
        Watcher watcher = new Watcher(1);
        rt.finish(Duration.ofSeconds(30), () -> watcher.start().send(new Watch(talker.ref())));
        assertThat(watcher.seen).containsExactly(new Terminated(talker.ref(), Terminated.Reason.EXITED, null));
    }

    /**
     * Every {@code whenTerminated()} of a local actor is the same stage, which its callers cannot complete: a
     * service that asks for it per request registers nothing. Each call added a future to the actor until it
     * ended (840 bytes a call, with the copy a caller cancelled).
     */
    @Test
    void whenTerminatedIsOneStageThatCallersCannotComplete() throws Exception {
        Talker talker = new Talker(new Watcher(0).ref());
        CompletionStage<Terminated> first = talker.ref().whenTerminated();
        for (int i = 0; i < 100_000; i++) {
            assertThat((Object) talker.ref().whenTerminated()).isSameAs(first);
        }
        CompletableFuture<Terminated> kept = first.toCompletableFuture();
        assertThatThrownBy(() -> ((CompletableFuture<Terminated>) first).complete(null))
                .isInstanceOf(UnsupportedOperationException.class);
        kept.complete(null);                          // completes the caller's copy only
        CompletableFuture<Terminated> waited = first.toCompletableFuture();
        assertThatThrownBy(() -> waited.get(1, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        rt.finish(Duration.ofSeconds(30), () -> talker.start().send("exit"));
        assertThat(waited.get(10, TimeUnit.SECONDS).reason()).isEqualTo(Terminated.Reason.EXITED);
        assertThat((Object) talker.ref().whenTerminated()).isSameAs(first);
        assertThat(talker.extrasOrNull().watchers.watchers()).isZero();
    }

    /**
     * An actor that watches and unwatches an actor of another place again and again leaves one action on the
     * route's stage of its end, which tells its latest watch, once. Each watch added an action, kept until the
     * target ended, however often the watcher unwatched.
     */
    @Test
    void watchingAnActorOfAnotherPlaceAgainAndAgainLeavesOneActionOnItsEnd() {
        CompletableFuture<Terminated> end = new CompletableFuture<>();
        RemoteRef<String> far = new RemoteRef.OfActor<>(1L << 40, "far", new dev.switchboard.internal.RemoteSend() {
            @Override
            public void send(Object to, int mailbox, Object message) {
                throw new AssertionError("nothing is sent to it");
            }

            @Override
            public dev.switchboard.internal.Scheduler scheduler() {
                return null;
            }

            @Override
            public CompletionStage<?> whenTerminated(Object ref) {
                return end;
            }
        });
        int[] dependents = new int[1];
        List<Terminated> heard = new ArrayList<>();
        rt.finish(Duration.ofSeconds(30), () -> new Actor<Terminated>() {
            @Override
            protected void onStart() {
                for (int i = 0; i < 10_000; i++) {
                    watch(far, t -> t);
                    unwatch(far);
                }
                watch(far, t -> t);
                dependents[0] = end.getNumberOfDependents();
                end.complete(new Terminated(far, Terminated.Reason.EXITED, null));
            }

            @Override
            protected void process(Terminated t) {
                heard.add(t);
                exit();
            }
        }.start());
        assertThat(dependents[0]).as("actions waiting on the end").isEqualTo(1);
        assertThat(heard).extracting(Terminated::reason).containsExactly(Terminated.Reason.EXITED);
    }

    @Test
    void afterUnwatchNothingComesAndAWatcherThatEndsFirstStopsWatching() {
        Watcher watcher = new Watcher(1);
        Watcher early = new Watcher(1);
        Talker talker = new Talker(watcher.ref());
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Msg> w = watcher.start();
            ActorRef<Msg> e = early.start();
            ActorRef<String> t = talker.start();
            w.send(new Watch(t));
            w.send(new Unwatch(t));
            e.send(new Watch(t));
            e.send(new Stop());                   // ends before the talker: it stops watching
            early.ref().whenTerminated().toCompletableFuture().join();
            Await.until("the watcher's unwatch", () -> !watcher.seen.isEmpty());   // done before the talker ends
            t.send("exit");
            talker.ref().whenTerminated().toCompletableFuture().join();
            w.send(new Stop());
        });
        assertThat(watcher.seen).containsExactly("unwatched true", "last word");
        assertThat(early.seen).isEmpty();
        assertThat(early.deadLetterCount()).isZero();
        assertThat(talker.extrasOrNull().watchers.watchers()).isZero();   // both had registered; neither is left
    }

    /**
     * An unwatch takes back the message of a watch that is queued already: the watched actor ended while the watcher
     * was busy, and the watcher unwatches before it takes the message, which it then never processes (nor counts as
     * a dead letter), as Pekko promises. It was processed, and the unwatch returned false.
     */
    @Test
    void anUnwatchTakesBackAMessageAlreadyQueued() {
        Watcher watcher = new Watcher(1);
        Talker talker = new Talker(watcher.ref());
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Msg> w = watcher.start();
            ActorRef<String> t = talker.start();
            w.send(new Watch(t));
            w.send(new Block(busy, release));
            w.send(new Unwatch(t));                    // ahead of the message the talker's end queues
            await(busy);
            t.send("exit");
            talker.ref().whenTerminated().toCompletableFuture().join();   // the watcher has been told by now
            release.countDown();
            Await.until("the unwatch", () -> watcher.seen.contains("unwatched true"));
            assertThat(watcher.extrasOrNull().watching).as("the watches the watcher keeps").isEmpty();
            w.send(new Stop());
        });
        assertThat(watcher.seen).containsExactly("unwatched true", "last word");
        assertThat(watcher.deadLetterCount()).isZero();
    }

    /**
     * A watcher that ends with the message of a watch still queued drops it, as it drops its timers' messages: it is
     * neither processed nor a dead letter (Pekko suppresses such a {@code Terminated} among its dead letters). It was
     * an {@code UNPROCESSED_AT_EXIT} dead letter.
     */
    @Test
    void aWatcherThatEndsWithANoticeQueuedDropsIt() {
        Watcher watcher = new Watcher(1);
        Talker talker = new Talker(watcher.ref());
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        long before = rt.deadLetterCount();
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Msg> w = watcher.start();
            ActorRef<String> t = talker.start();
            w.send(new Watch(t));
            w.send(new Block(busy, release));
            w.send(new Stop());                        // ahead of the message the talker's end queues
            await(busy);
            t.send("exit");
            talker.ref().whenTerminated().toCompletableFuture().join();   // the watcher has been told by now
            release.countDown();
        });
        assertThat(watcher.seen).isEmpty();
        assertThat(watcher.deadLetterCount()).as("the talker's last word, left in the mailbox; not the notice")
                .isEqualTo(1);
        assertThat(rt.deadLetterCount() - before).isEqualTo(1);
        assertThat(watcher.extrasOrNull().watching).as("the watches the watcher keeps").isEmpty();
    }

    /** Runs one message at a time, after the one before has finished: a notice waits in it while a message runs. */
    static final class OneAtATime implements dev.switchboard.spi.DispatchPolicy {
        final java.util.ArrayDeque<Object> waiting = new java.util.ArrayDeque<>();
        volatile int held;
        dev.switchboard.spi.Dispatcher dispatcher;
        boolean running;

        @Override
        public void bound(ActorRef<?> actor, dev.switchboard.spi.Dispatcher d) {
            dispatcher = d;
        }

        @Override
        public void arrived(Object envelope, Object message, int mailbox) {
            waiting.add(envelope);
            held = waiting.size();
        }

        @Override
        public void finished(Object ticket, Object result, Throwable failure) {
            running = false;
        }

        @Override
        public void turn() {
            if (!running && !waiting.isEmpty()) {
                running = true;
                dispatcher.start(waiting.poll(), "one");
                held = waiting.size();
            }
        }

        @Override
        public void terminated(java.util.function.Consumer<Object> deadLetters) {
            waiting.forEach(deadLetters);
            waiting.clear();
            held = 0;
        }

        @Override
        public int held() {
            return held;
        }
    }

    /**
     * A watcher bound to a dispatch policy takes back, by its unwatch, a notice its policy holds: the notice is taken
     * when the policy runs it, not when it hands it to the policy. It was processed after the unwatch returned false.
     */
    @Test
    void anUnwatchTakesBackANoticeThePolicyHolds() {
        OneAtATime policy = new OneAtATime();
        Talker talker = new Talker(new Watcher(0).ref());
        Queue<Object> seen = new ConcurrentLinkedQueue<>();
        Actor<Object> watcher = new Actor<>() {
            {
                dev.switchboard.spi.Seam.bind(this, policy);
            }

            @Override
            protected void process(Object m) {
                switch (m) {
                    case ActorRef<?> t -> watch(t, end -> "gone");
                    case Block b -> {
                        b.in().countDown();
                        await(b.release());
                        seen.add("unwatched " + unwatch(talker.ref()));
                    }
                    default -> {
                        seen.add(m);
                        if ("stop".equals(m)) {
                            exit();
                        }
                    }
                }
            }
        };
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Object> w = watcher.start();
            ActorRef<String> t = talker.start();
            w.send(t);
            w.send(new Block(busy, release));
            await(busy);
            t.send("exit");
            talker.ref().whenTerminated().toCompletableFuture().join();
            Await.until("the policy holds the notice", () -> policy.held == 1);
            release.countDown();
            Await.until("the unwatch", () -> !seen.isEmpty());
            w.send("stop");
        });
        assertThat(seen).containsExactly("unwatched true", "stop");
        assertThat(watcher.deadLetterCount()).isZero();
        assertThat(watcher.processedCount()).as("the notice is not counted").isEqualTo(3);
    }

    /**
     * A watch taken back while the ending actor's thread runs its mapping neither sends the message nor fails the
     * watcher if the mapping throws; the mapping of a watch already taken back does not run. The watcher failed.
     */
    @Test
    void aWatchTakenBackWhileItsMappingRunsDoesNotFailTheWatcher() {
        CountDownLatch mapping = new CountDownLatch(1);
        CountDownLatch unwatched = new CountDownLatch(1);
        Talker talker = new Talker(new Watcher(0).ref());
        Queue<Object> seen = new ConcurrentLinkedQueue<>();
        Actor<String> watcher = new Actor<>() {
            @Override
            protected void process(String m) {
                switch (m) {
                    case "watch" -> watch(talker.ref(), end -> {
                        mapping.countDown();               // the ender has taken the watch out: now the unwatch
                        await(unwatched);
                        throw new IllegalStateException("the mapping of a watch taken back");
                    });
                    case "unwatch" -> {
                        seen.add("unwatched " + unwatch(talker.ref()));
                        unwatched.countDown();
                    }
                    default -> exit();
                }
            }
        };
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<String> w = watcher.start();
            ActorRef<String> t = talker.start();
            w.send("watch");
            Await.until("the watch", () -> talker.extrasOrNull() != null && talker.extrasOrNull().watchers != null
                    && talker.extrasOrNull().watchers.watchers() == 1);
            t.send("exit");
            Thread.ofPlatform().start(() -> {             // off the pool: the ender's thread waits in the mapping
                await(mapping);
                w.send("unwatch");
            });
            Await.until("the unwatch", () -> !seen.isEmpty());   // the finish waits for the mapping's end
            w.send("stop");
        });
        assertThat(seen).containsExactly("unwatched true");
        assertThat(watcher.failure()).isNull();
    }

    /**
     * Watching an actor again replaces the watch, and with it a message of the old one already queued: a watcher
     * that watches an ended actor twice hears of its end once. It heard twice.
     */
    @Test
    void watchingAgainReplacesAMessageAlreadyQueued() {
        Watcher watcher = new Watcher(2);                  // would exit at the second Gone
        Talker talker = new Talker(new Watcher(0).ref());
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Msg> w = watcher.start();
            ActorRef<String> t = talker.start();
            w.send(new Watch(t));
            w.send(new Block(busy, release));
            w.send(new Watch(t));                          // processed after the first watch's message was queued
            await(busy);
            t.send("exit");
            talker.ref().whenTerminated().toCompletableFuture().join();
            release.countDown();
            Await.until("one Gone", () -> watcher.seen.size() == 1);
            w.send(new Text("after"));
            Await.until("the text after it", () -> watcher.seen.size() == 2);
            w.send(new Stop());
        });
        assertThat(watcher.seen).containsExactly(new Terminated(talker.ref(), Terminated.Reason.EXITED, null),
                "after");
        assertThat(watcher.deadLetterCount()).isZero();
    }

    @Test
    void theRuntimesCloseIsToldToo() throws Exception {
        TaskRuntime other = TaskRuntime.builder().name("watch-close").workers(1).build();
        CompletableFuture<CompletableFuture<Terminated>> end = new CompletableFuture<>();
        Thread body = Thread.ofPlatform().start(() -> {
            try {
                other.finish(() -> end.complete(new Talker(new Watcher(0).ref()).start().whenTerminated()
                        .toCompletableFuture()));
            } catch (RuntimeException closed) {
                // the close ends the finish
            }
        });
        CompletableFuture<Terminated> f = end.get(30, TimeUnit.SECONDS);
        other.close();
        assertThat(f.get(10, TimeUnit.SECONDS).reason()).isEqualTo(Terminated.Reason.RUNTIME_CLOSED);
        body.join(30_000);
    }

    enum Box { WORK, DEATHS }

    /** Watches into its DEATHS mailbox, which it keeps closed until WORK says "open". */
    static final class Keeper extends Selector<Object, Box> {
        final Queue<Object> seen = new ConcurrentLinkedQueue<>();
        final ActorRef<?> target;

        Keeper(ActorRef<?> target) {
            super(Box.class);
            this.target = target;
            disable(Box.DEATHS);
        }

        @Override
        protected void onStart() {
            watch(target, Box.DEATHS, end -> end);
        }

        @Override
        protected void process(Object m) {
            seen.add(Box.values()[currentMailbox()] + " " + m);
            if ("open".equals(m)) {
                enable(Box.DEATHS);
            } else if (m instanceof Terminated) {
                exit();
            }
        }
    }

    @Test
    void aSelectorNamesTheMailboxItsDeathMessagesGoTo() {
        Talker talker = new Talker(new Watcher(0).ref());
        Keeper keeper = new Keeper(talker.ref());
        rt.finish(Duration.ofSeconds(30), () -> {
            keeper.start();
            talker.start().send("exit");
            talker.ref().whenTerminated().toCompletableFuture().join();
            keeper.ref().send(Box.WORK, "open");
        });
        assertThat(keeper.seen).containsExactly("WORK open", "DEATHS Terminated[actor=" + talker.ref()
                + ", reason=EXITED]");
    }

    @Test
    void badWatchesAreRefusedNamingTheActor() {
        Watcher w = new Watcher(1);
        assertThatThrownBy(() -> w.watch(w.ref(), Gone::new)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot watch itself");
        AtomicInteger refused = new AtomicInteger();
        rt.finish(Duration.ofSeconds(30), () -> {
            ActorRef<Msg> ref = w.start();
            try {
                w.watch(new Watcher(0).ref(), Gone::new);     // from outside the watcher
            } catch (IllegalStateException e) {
                refused.incrementAndGet();
            }
            ref.send(new Stop());
        });
        assertThat(refused).hasValue(1);
    }

    @Test
    void aMappingThatThrowsFailsTheWatcher() {
        Talker talker = new Talker(new Watcher(0).ref());
        Actor<Object> watcher = new Actor<>() {
            @Override
            protected void onStart() {
                watch(talker.ref(), end -> {
                    throw new IllegalArgumentException("no message for " + end.actor().name());
                });
            }

            @Override
            protected void process(Object message) {
            }
        };
        assertThatThrownBy(() -> rt.finish(Duration.ofSeconds(30), () -> {
            watcher.start();
            talker.start("talker").send("exit");
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("no message for talker");
    }

    /** Its "slow" message waits for its "exit" message, which exits and then lets the slow one finish. */
    static final class Parallel extends StatelessActor<String> {
        final java.util.concurrent.CountDownLatch exited = new java.util.concurrent.CountDownLatch(1);
        final Queue<String> done = new ConcurrentLinkedQueue<>();

        @Override
        protected void process(String m) {
            if (m.equals("slow")) {
                try {
                    exited.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.add("slow done");
            } else {
                exit();
                exited.countDown();
            }
        }
    }

    @Test
    void aStatelessActorsWatchersHearOnlyAfterItsMessagesStillRunningHaveEnded() throws Exception {
        Parallel p = new Parallel();
        CompletableFuture<List<String>> seenAtEnd = new CompletableFuture<>();
        Actor<Terminated> watcher = new Actor<>() {
            @Override
            protected void onStart() {
                watch(p.ref(), end -> end);
            }

            @Override
            protected void process(Terminated end) {
                seenAtEnd.complete(List.copyOf(p.done));
                exit();
            }
        };
        rt.finish(Duration.ofSeconds(30), () -> {
            watcher.start();
            ActorRef<String> ref = p.start();
            ref.send("slow");
            ref.send("exit");
        });
        assertThat(seenAtEnd.get(10, TimeUnit.SECONDS)).containsExactly("slow done");
        assertThat(p.ref().whenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS).reason())
                .isEqualTo(Terminated.Reason.EXITED);
    }

    @Test
    void everyWatcherIsToldExactlyOnceWhenItsWatchRacesWithTheEnd() {
        for (int round = 0; round < 100; round++) {
            List<Watcher> watchers = new ArrayList<>();
            Talker talker = new Talker(new Watcher(0).ref());
            rt.finish(Duration.ofSeconds(30), () -> {
                ActorRef<String> t = talker.start();
                for (int i = 0; i < 20; i++) {
                    Watcher w = new Watcher(1);
                    watchers.add(w);
                    w.start().send(new Watch(t));
                    if (i == 10) {
                        t.send("exit");                         // the end races with the later watches
                    }
                }
                Switchboard.async(() -> { });
            });
            for (Watcher w : watchers) {
                assertThat(w.seen).hasSize(1);
                assertThat(w.state()).isEqualTo(ActorState.TERMINATED);
            }
        }
    }
}

package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Routers: pools and groups, each routing, supervision of a pool's routees, and the router's own end. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RouterTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void close() {
        rt.close();
    }

    sealed interface Job permits Work, Keyed, Get, Fail, FailAsked, Ignored {}

    record Work(int n) implements Job {}

    record Keyed(String key) implements Job {}

    record Get(ReplyTo<String> replyTo) implements Job {}

    record Fail() implements Job {}

    record FailAsked(ReplyTo<String> replyTo) implements Job {}

    /** A request its routee processes without answering. */
    record Ignored(ReplyTo<String> replyTo) implements Job {}

    /** What the routees of one test saw: by the routee's reference, the messages. */
    static final class Seen {
        final Map<ActorRef<?>, List<Job>> byRoutee = new ConcurrentHashMap<>();
        final AtomicLong total = new AtomicLong();
        final AtomicInteger instances = new AtomicInteger();

        void add(ActorRef<?> routee, Job j) {
            byRoutee.computeIfAbsent(routee, r -> new CopyOnWriteArrayList<>()).add(j);
            total.incrementAndGet();
        }

        List<Integer> counts() {
            return byRoutee.values().stream().map(List::size).toList();
        }
    }

    static class Routee extends Actor<Job> {
        final Seen seen;
        final CountDownLatch gate;
        final CountDownLatch started = new CountDownLatch(1);
        final int instance;

        Routee(Seen seen) {
            this(seen, null);
        }

        Routee(Seen seen, CountDownLatch gate) {
            this.seen = seen;
            this.gate = gate;
            this.instance = seen.instances.incrementAndGet();
        }

        @Override
        protected void process(Job j) {
            started.countDown();
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            switch (j) {
                case Get g -> g.replyTo().reply("routee " + instance);
                case Fail f -> throw new IllegalStateException("routee " + instance + " failed");
                case FailAsked f -> throw new IllegalStateException("routee " + instance + " failed on a request");
                default -> seen.add(self(), j);
            }
        }
    }

    @Test
    void aRoundRobinPoolGivesEachRouteeItsTurn() {
        Seen seen = new Seen();
        rt.finish(() -> {
            ActorRef<Job> pool = Router.pool(4, () -> new Routee(seen)).roundRobin().start("pool");
            for (int i = 0; i < 400; i++) {
                pool.send(new Work(i));
            }
            pool.stop();                                    // the routees end after what was routed to them
        });
        assertThat(seen.total).hasValue(400);
        assertThat(seen.counts()).containsExactly(100, 100, 100, 100);
        seen.byRoutee.values().forEach(jobs -> {               // one sender: each routee's share in order
            List<Integer> ns = jobs.stream().map(j -> ((Work) j).n()).toList();
            assertThat(ns).isSorted();
        });
    }

    /**
     * A pool whose routees cannot start (their onStart throws: a database down) under its default strategy: each
     * routee is stopped, the pool exits with none left, and what was sent to it is a dead letter; the finish ends.
     * The routees were restarted for ever, both cores busy, and neither stop() nor stopNow() could end the pool.
     */
    @Test
    void aPoolWhoseRouteesCannotStartEnds() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        AtomicReference<ActorRef<Job>> pool = new AtomicReference<>();
        rt.finish(Duration.ofSeconds(60), () -> {
            pool.set(Router.pool(2, () -> new Routee(new Seen()) {
                @Override
                protected void onStart() {
                    starts.incrementAndGet();
                    throw new IllegalStateException("db down");
                }
            }).start("cannot-start"));
            pool.get().send(new Work(1));
        });
        assertThat(pool.get().whenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS).reason())
                .isEqualTo(Terminated.Reason.EXITED);
        assertThat(starts).hasValue(2);
    }

    /**
     * An ask through a router that no routee answers times out naming the routee that holds the request, and why
     * that one might not answer; it named the router alone, which had done its part.
     */
    @Test
    void anAsksTimeoutThroughARouterNamesTheRouteeThatHasTheRequest() throws Exception {
        AtomicReference<ActorRef<Job>> pool = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Seen seen = new Seen();
        rt.finish(() -> {
            pool.set(Router.pool(2, () -> new Routee(seen)).start("silent-pool"));
            CompletableFuture<String> answer = pool.get().ask(Ignored::new, Duration.ofMillis(200));
            thrown.set(catchThrowable(() -> answer.get(30, TimeUnit.SECONDS)));
            pool.get().stop();
        });
        assertThat(thrown.get()).isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(ReplyTimeoutException.class);
        ActorRef<?> routee = seen.byRoutee.keySet().iterator().next();
        assertThat(thrown.get().getCause().getMessage()).startsWith(pool.get() + " (which routed it to " + routee
                + ") did not reply to Ignored[");
    }

    /** A routee of {@link #aRouteeWhoseBoundedMailboxIsFullIsPassedOverAndWhatNoneHasRoomForIsADeadLetter}. */
    static final class BoundedRoutee extends Actor<Job> {
        final Seen seen;
        final CountDownLatch gate;
        final AtomicInteger taken;

        BoundedRoutee(Seen seen, CountDownLatch gate, AtomicInteger taken, BoundedMailbox bound) {
            super(bound);
            this.seen = seen;
            this.gate = gate;
            this.taken = taken;
        }

        @Override
        protected void process(Job j) {
            taken.incrementAndGet();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            seen.add(self(), j);
        }
    }

    /**
     * Routees with full bounded mailboxes that refuse a message (FAIL, or WAIT: the router never waits) are passed
     * over; what none has room for is a MAILBOX_FULL dead letter, and the router, its routees and its finish go on.
     */
    @Test
    void aRouteeWhoseBoundedMailboxIsFullIsPassedOverAndWhatNoneHasRoomForIsADeadLetter() {
        for (BoundedMailbox bound : List.of(BoundedMailbox.failing(10),
                BoundedMailbox.waiting(10, Duration.ofSeconds(30)))) {
            Seen seen = new Seen();
            CountDownLatch gate = new CountDownLatch(1);
            AtomicInteger taken = new AtomicInteger();
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            // the two gated routees hold two workers: the router needs a third
            try (TaskRuntime four = Runtimes.workers(4); DeadLetter.Subscription s = DeadLetter.subscribe(four,
                    dead::add)) {
                four.finish(() -> {
                    ActorRef<Job> pool = Router.pool(2, () -> new BoundedRoutee(seen, gate, taken, bound))
                            .roundRobin().start("pool");
                    try {
                        for (int i = 0; i < 100; i++) {
                            pool.send(new Work(i));
                        }
                        // each routee holds its first message (gated) and 10 queued: the rest had no room
                        Await.until("the router routed all 100",
                                () -> taken.get() + queued(pool) + dead.size() == 100);
                        assertThat(dead).hasSizeGreaterThanOrEqualTo(100 - 2 * 11);
                    } finally {
                        gate.countDown();
                        pool.stop();
                    }
                });
            }
            assertThat(dead).as("each a MAILBOX_FULL dead letter of a routee").allSatisfy(d -> assertThat(d.reason())
                    .isEqualTo(DeadLetter.Reason.MAILBOX_FULL));
            assertThat(seen.total.get() + dead.size()).as("every message processed or a dead letter").isEqualTo(100);
            assertThat(seen.counts()).as("both routees filled up").hasSize(2).allMatch(n -> n >= 10 && n <= 11);
        }
    }

    /** The messages queued in a router's routees (a test's look). */
    private static long queued(ActorRef<Job> pool) {
        return ((Router<?>) ((LocalRef<?>) pool).actor).routees().stream()
                .mapToLong(r -> ((LocalRef<?>) r).actor.mailboxSize()).sum();
    }

    @Test
    void aRandomPoolReachesEveryRoutee() {
        Seen seen = new Seen();
        rt.finish(() -> {
            ActorRef<Job> pool = Router.pool(4, () -> new Routee(seen)).random().start();
            for (int i = 0; i < 2_000; i++) {
                pool.send(new Work(i));
            }
            pool.stop();
        });
        assertThat(seen.total).hasValue(2_000);
        assertThat(seen.counts()).hasSize(4).allMatch(n -> n > 0);   // each misses all 2,000 with p = 0.75^2000
    }

    @Test
    void smallestMailboxPrefersAnIdleRouteeThenTheShortestQueue() throws Exception {
        Seen seen = new Seen();
        CountDownLatch gate = new CountDownLatch(1);
        List<Routee> built = new CopyOnWriteArrayList<>();
        try (TaskRuntime four = Runtimes.workers(4)) {       // three routees block a worker each
            four.finish(() -> {
                ActorRef<Job> pool = Router.<Job>pool(3, () -> {
                    Routee r = new Routee(seen, gate);
                    built.add(r);
                    return r;
                }).smallestMailbox().start();
                try {
                    for (int i = 0; i < 3; i++) {               // each to an idle routee, which then blocks
                        pool.send(new Work(i));
                        int k = i;
                        Await.until("routee " + k + " took its message", () -> built.size() == 3
                                && built.get(k).started.getCount() == 0);
                    }
                    for (int i = 3; i < 9; i++) {               // all busy: to the shortest queue, ties to the first
                        pool.send(new Work(i));
                    }
                    Await.until("the router routed all nine", () -> built.stream()
                            .mapToInt(Routee::mailboxSize).sum() == 6);
                    assertThat(built).extracting(Routee::mailboxSize).containsExactly(2, 2, 2);
                } finally {
                    gate.countDown();                           // whatever failed above, nothing stays blocked
                    pool.stop();
                }
            });
        }
        assertThat(seen.total).hasValue(9);
        assertThat(seen.byRoutee.get(built.get(0).ref())).containsExactly(new Work(0), new Work(3), new Work(6));
    }

    @Test
    void consistentHashingKeepsAKeyOnOneRouteeAndMovesOnlyTheKeysOfARouteeThatEnded() {
        Seen seen = new Seen();
        List<Routee> routees = List.of(new Routee(seen), new Routee(seen), new Routee(seen));
        List<ActorRef<Job>> refs = routees.stream().map(Routee::ref).toList();
        Map<String, ActorRef<?>> before = new HashMap<>();
        Map<String, ActorRef<?>> after = new HashMap<>();
        rt.finish(() -> {
            routees.forEach(Routee::start);
            Router<Job> router = Router.group(refs).consistentHashing((Job j) -> ((Keyed) j).key()).build();
            ActorRef<Job> group = router.start();
            try {
                for (int round = 0; round < 3; round++) {
                    for (int k = 0; k < 30; k++) {
                        group.send(new Keyed("key-" + k));
                    }
                }
                Await.until("all routed", () -> seen.total.get() == 90);
                keysByRoutee(seen, before);
                refs.get(0).stopNow();
                Await.until("the router let the ended routee go", () -> router.routees().size() == 2);
                seen.byRoutee.clear();
                seen.total.set(0);
                for (int k = 0; k < 30; k++) {
                    group.send(new Keyed("key-" + k));
                }
                Await.until("all routed again", () -> seen.total.get() == 30);
                keysByRoutee(seen, after);
            } finally {
                refs.forEach(ActorRef::stop);               // the router exits once no routee is left
            }
        });
        assertThat(before).hasSize(30);
        assertThat(new HashSet<>(before.values())).hasSize(3);   // 30 keys spread over the three
        before.forEach((key, routee) -> {
            if (!routee.equals(refs.get(0))) {
                assertThat(after.get(key)).as(key + " stays where it was").isEqualTo(routee);
            } else {
                assertThat(after.get(key)).as(key + " moves off the ended routee").isNotEqualTo(refs.get(0));
            }
        });
    }

    /** Fails unless every key went to exactly one routee; fills {@code into} with key to routee. */
    private static void keysByRoutee(Seen seen, Map<String, ActorRef<?>> into) {
        Map<String, Set<ActorRef<?>>> where = new HashMap<>();
        seen.byRoutee.forEach((routee, jobs) -> jobs.forEach(j -> where.computeIfAbsent(((Keyed) j).key(),
                k -> new HashSet<>()).add(routee)));
        where.forEach((key, routees) -> {
            assertThat(routees).as(key).hasSize(1);
            into.put(key, routees.iterator().next());
        });
    }

    @Test
    void broadcastGivesEveryRouteeEveryMessage() {
        Seen seen = new Seen();
        rt.finish(() -> {
            ActorRef<Job> pool = Router.pool(3, () -> new Routee(seen)).broadcast().start();
            for (int i = 0; i < 10; i++) {
                pool.send(new Work(i));
            }
            pool.stop();
        });
        assertThat(seen.counts()).containsExactly(10, 10, 10);
    }

    @Test
    void aPoolRestartsAFailedRouteeInItsPlaceAndAnAskIsAnsweredByARoutee() throws Exception {
        Seen seen = new Seen();
        List<String> answers = new ArrayList<>();
        rt.finish(() -> {
            ActorRef<Job> pool = Router.pool(2, () -> new Routee(seen)).start();
            pool.send(new Fail());                          // routee 1 fails and is restarted as instance 3
            for (int i = 0; i < 4; i++) {
                pool.send(new Work(i));
            }
            for (int i = 0; i < 2; i++) {
                answers.add(pool.<String>ask(Get::new, Duration.ofSeconds(Await.TIMEOUT_SECONDS)).join());
            }
            pool.stop();
        });
        assertThat(seen.instances).hasValue(3);
        assertThat(seen.counts()).containsExactly(2, 2);    // the restarted routee kept its place in the turn
        assertThat(answers).containsExactlyInAnyOrder("routee 2", "routee 3");
    }

    /**
     * The request reaches the routee as a request: a routee that fails on it fails the ask at once, naming itself
     * (it waited for the ask's timeout, since the routee got a plain message holding the {@code ReplyTo}).
     */
    @Test
    void anAskWhoseRouteeFailsOnItFailsAtOnceNamingTheRoutee() throws Exception {
        Seen seen = new Seen();
        AtomicReference<CompletableFuture<String>> asked = new AtomicReference<>();
        rt.finish(() -> {
            ActorRef<Job> pool = Router.pool(1, () -> new Routee(seen)).supervisedBy(SupervisorStrategy.stop())
                    .start("pool");
            asked.set(pool.ask(FailAsked::new, Duration.ofHours(1)));
        });
        Throwable t = catchThrowable(() -> asked.get().get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertThat(t).isInstanceOf(ExecutionException.class);
        assertThat(t.getCause()).isInstanceOf(NoReplyException.class).hasMessageContaining("Routee@")
                .hasMessageContaining("FailAsked[");
    }

    @Test
    void aGroupExitsWhenItsLastRouteeHasEndedAndLaterMessagesAreDeadLetters() throws Exception {
        Seen seen = new Seen();
        Routee a = new Routee(seen);
        Routee b = new Routee(seen);
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (DeadLetter.Subscription s = DeadLetter.subscribe(rt, dead::add)) {
            ActorRef<Job>[] group = ActorRef.newArray(1);
            rt.finish(() -> {
                group[0] = Router.group(List.of(a.start(), b.start())).start("group");
                a.ref().stop();
                b.ref().stop();
            });
            assertThat(group[0].whenTerminated().toCompletableFuture().get().reason())
                    .isEqualTo(Terminated.Reason.EXITED);
            group[0].send(new Work(1));
            assertThat(dead).extracting(DeadLetter::reason).containsExactly(DeadLetter.Reason.RECIPIENT_TERMINATED);
        }
    }

    @Test
    void aBroadcastRouterRefusesAnAskAndAGroupTakesEachRouteeOnce() throws Exception {
        Seen seen = new Seen();
        Routee a = new Routee(seen);
        rt.finish(() -> {
            ActorRef<Job> only = a.start();
            ActorRef<Job> broadcast = Router.pool(2, () -> new Routee(seen)).broadcast().start();
            assertThatThrownBy(() -> broadcast.ask(Get::new, Duration.ofSeconds(1)))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("broadcast router");
            broadcast.stop();
            ActorRef<Job> twice = Router.group(List.of(only, only)).broadcast().start();
            twice.send(new Work(1));                         // once to the one routee, not twice
            twice.stop();
            twice.whenTerminated().thenRun(only::stop);
        });
        assertThat(seen.byRoutee.get(a.ref())).containsExactly(new Work(1));
    }

    @Test
    void aRestartedRouterRoutesToItsNewRouteesAndOutlivesTheOldOnesEnd() throws Exception {
        Seen seen = new Seen();
        CompletableFuture<ActorRef<Job>> router = new CompletableFuture<>();
        final class Owner extends Actor<Job> {
            @Override
            protected void onStart() {
                router.complete(startChild(() -> Router.pool(2, () -> new Routee(seen))
                        .consistentHashing((Job j) -> j instanceof Keyed k ? k.key() : null).build(),
                        SupervisorStrategy.restart()));
            }

            @Override
            protected void process(Job j) {
                exit();
            }
        }
        rt.finish(() -> {
            ActorRef<Job> owner = new Owner().start();
            try {
                ActorRef<Job> r = router.join();
                r.send(new Keyed("a"));
                Await.until("an old routee took its message", () -> seen.total.get() == 1);   // a restart stops them
                r.send(new Work(1));                        // no key: the router fails and is restarted
                Await.until("a new pool", () -> seen.instances.get() == 4);
                for (int i = 0; i < 10; i++) {
                    r.send(new Keyed("b"));
                }
                Await.until("the new routees took the messages", () -> seen.total.get() == 11);
                assertThat(r.whenTerminated().toCompletableFuture()).isNotDone();   // the old routees' end did not end it
            } finally {
                owner.send(new Work(0));                    // the owner ends, and its router with it
            }
        });
        assertThat(seen.byRoutee.values()).filteredOn(l -> l.contains(new Keyed("b"))).singleElement()
                .satisfies(l -> assertThat(l).hasSize(10));
    }

    @Test
    void buildersRefuseWhatCannotWork() {
        assertThatThrownBy(() -> Router.pool(0, () -> new Routee(new Seen())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one routee");
        assertThatThrownBy(() -> Router.group(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Router.group(List.of(new Routee(new Seen()).ref()))
                .supervisedBy(SupervisorStrategy.restart())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not supervise");
    }
}

package dev.switchboard.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.actor.Selector;
import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.RecordingLogger;
import dev.switchboard.testing.Runtimes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Parallel actor monitors: the five guarantees of [PAM] §3.3, the inbox operations, categories, errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MonitorTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    record Msg(String name) {
    }

    /** An actor that records what it processes; "stop" exits; "boom" throws; "work" meets a barrier if set. */
    static final class Worker extends Actor<Msg> {
        final List<String> processed = new CopyOnWriteArrayList<>();
        /** Exits by itself after this many messages (letters may run in any order). */
        volatile int expected = Integer.MAX_VALUE;
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        volatile CyclicBarrier barrier;

        @Override
        protected void process(Msg m) {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                switch (m.name()) {
                    case "stop" -> exit();
                    case "boom" -> throw new IllegalStateException("boom");
                    default -> {
                        CyclicBarrier b = barrier;
                        if (b != null && m.name().startsWith("meet")) {
                            await(b);
                        }
                    }
                }
                processed.add(m.name());
                if (processed.size() == expected) {
                    exit();
                }
            } finally {
                running.decrementAndGet();
            }
        }
    }

    static void await(CyclicBarrier b) {
        try {
            b.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Starts every letter; records schedule/leave calls and checks they never overlap. */
    static class Recording extends Monitor {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final List<Integer> inboxSizesSeenBySchedule = new CopyOnWriteArrayList<>();
        final Map<Long, Integer> leaves = new ConcurrentHashMap<>();
        final AtomicInteger schedules = new AtomicInteger();
        volatile boolean sawLettersRunning;
        volatile Worker worker;

        private void enter() {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
        }

        @Override
        protected void schedule() {
            enter();
            try {
                schedules.incrementAndGet();
                inboxSizesSeenBySchedule.add(waitingCount());
                if (worker != null && worker.running.get() > 0) {
                    sawLettersRunning = true;
                }
                startAll(LetterFilter.ANY);
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        protected void leave(Letter letter) {
            enter();
            try {
                leaves.merge(letter.sequence(), 1, Integer::sum);
            } finally {
                inside.decrementAndGet();
            }
        }
    }

    @RepeatedTest(5)
    void theFiveGuarantees() {
        Worker w = new Worker();
        int n = 300;
        w.expected = 3 * n;
        Recording m = new Recording();
        m.worker = w;
        m.bind(w);
        rt.finish(() -> {
            ActorRef<Msg> ref = w.start();
            for (int s = 0; s < 3; s++) {
                rt.async(() -> {
                    for (int i = 0; i < n; i++) {
                        ref.send(new Msg("m"));
                    }
                });
            }
        });
        // every letter was scheduled by the monitor and processed once (1, 4)
        assertThat(w.processed).hasSize(3 * n);
        // schedule and leave never overlapped (2)
        assertThat(m.overlaps.get()).isZero();
        // schedule never ran on an empty inbox (3)
        assertThat(m.inboxSizesSeenBySchedule).allMatch(size -> size > 0);
        // leave ran exactly once per letter (5)
        assertThat(m.leaves).hasSize(3 * n);
        assertThat(m.leaves.values()).allMatch(count -> count == 1);
    }

    /** A selector of {@code mailboxes} mailboxes that ends at its first message. */
    static final class TwoDesks extends Selector<String, Selector.Numbered> {
        TwoDesks(int mailboxes) {
            super(mailboxes);
        }

        @Override
        protected void process(String m) {
            exit();
        }
    }

    @Test
    void aMonitorIsNotBoundToASelectorOfSeveralMailboxes() {
        TwoDesks two = new TwoDesks(2);
        assertThatThrownBy(() -> new MutexMonitor().bind(two)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a selector of 2 mailboxes").hasMessageContaining("bind a monitor to an Actor");
        TwoDesks one = new MutexMonitor().bind(new TwoDesks(1));      // one mailbox: an actor's, in effect
        rt.finish(() -> one.start().send(0, "end"));
        assertThat(one.state()).isEqualTo(ActorState.TERMINATED);
    }

    @Test
    void startedLettersRunInParallelWithEachOtherAndWithTheMonitor() {
        Worker w = new Worker();
        w.barrier = new CyclicBarrier(2);          // passes only if two letters run at the same time
        w.expected = 2;
        Recording m = new Recording();
        m.worker = w;
        m.bind(w);
        rt.finish(() -> {
            ActorRef<Msg> ref = w.start();
            ref.send(new Msg("meet-1"));
            ref.send(new Msg("meet-2"));
        });
        assertThat(w.processed).containsExactlyInAnyOrder("meet-1", "meet-2");
        assertThat(w.maxRunning.get()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void lettersWaitUntilTheMonitorStartsThem() {
        // A gate monitor: nothing starts until a "go" letter has arrived.
        final class Gate extends Monitor {
            final List<Integer> seen = new CopyOnWriteArrayList<>();

            @Override
            protected void schedule() {
                seen.add(waitingCount());
                if (contains(l -> ((Msg) l.message()).name().equals("go"))) {
                    startAll(LetterFilter.ANY);
                }
            }

            @Override
            protected void leave(Letter letter) {
            }
        }
        Worker w = new Worker();
        w.expected = 3;
        Gate gate = new Gate();
        gate.bind(w);
        rt.finish(() -> {
            ActorRef<Msg> ref = w.start();
            ref.send(new Msg("a"));
            ref.send(new Msg("b"));
            assertThat(w.processed).isEmpty();
            ref.send(new Msg("go"));
        });
        // nothing was processed before "go": all three were started together
        assertThat(w.processed).containsExactlyInAnyOrder("a", "b", "go");
        assertThat(gate.seen).isNotEmpty();
    }

    // ---------------------------------------------------------------- the inbox operations

    static final Category READ = Category.of("read", m -> ((Msg) m).name().startsWith("r"));
    static final Category WRITE = Category.of("write", m -> ((Msg) m).name().startsWith("w"));
    static final Category NOTHING = Category.of("nothing", m -> false);

    /** Runs one scripted inbox operation in the first schedule, then starts the rest. */
    static List<String> scripted(Consumer<Monitor> op, List<Object> results) {
        final class Scripted extends Monitor {
            boolean first = true;

            @Override
            protected void schedule() {
                if (first) {
                    first = false;
                    op.accept(this);
                    results.add("then");
                }
                startAll(LetterFilter.ANY);
            }

            @Override
            protected void leave(Letter letter) {
            }
        }
        final class Recorder extends Actor<Msg> {
            final List<String> started = new CopyOnWriteArrayList<>();

            @Override
            protected void process(Msg m) {
                started.add(m.name());
                if (started.size() == 6) {
                    exit();
                }
            }
        }
        Recorder r = new Recorder();
        Scripted s = new Scripted();
        s.bind(r);
        for (String name : List.of("r1", "w1", "r2", "r3", "w2", "r4")) {
            r.ref().send(new Msg(name));                 // before start()
        }
        rt.finish(() -> r.start());
        // the operation's letters were started first (before "then"); record which
        return new ArrayList<>(r.started);
    }

    @Test
    void inboxOperationsStartTheRightLettersAndReportHowMany() {
        List<Object> results = new CopyOnWriteArrayList<>();
        List<List<String>> startedFirst = new ArrayList<>();
        record Case(String name, Consumer<Monitor> op, Object expected, List<String> first) {
        }
        List<Case> cases = List.of(
                new Case("startAllOlderThan", m -> results.add(m.startAllOlderThan(READ, WRITE)), 1, List.of("r1")),
                new Case("startAllYoungerThan", m -> results.add(m.startAllYoungerThan(READ, WRITE)), 3,
                        List.of("r2", "r3", "r4")),
                new Case("olderThanMissing", m -> results.add(m.startAllOlderThan(READ, NOTHING)), 4,
                        List.of("r1", "r2", "r3", "r4")),
                new Case("youngerThanMissing", m -> results.add(m.startAllYoungerThan(READ, NOTHING)), 0,
                        List.of()),
                new Case("startOldest", m -> results.add(m.startOldest(WRITE)), true, List.of("w1")),
                new Case("startYoungest", m -> results.add(m.startYoungest(READ)), true, List.of("r4")),
                new Case("startOldestNone", m -> results.add(m.startOldest(NOTHING)), false, List.of()),
                new Case("startAll", m -> results.add(m.startAll(WRITE)), 2, List.of("w1", "w2")),
                new Case("contains", m -> results.add(m.contains(WRITE) && !m.contains(NOTHING)), true, List.of()),
                new Case("startLetter", m -> {
                    Letter third = m.letters().get(2);
                    results.add(m.startLetter(third) + "/" + m.startLetter(third) + "/" + third.message());
                }, "true/false/Msg[name=r2]", List.of("r2")));
        for (Case c : cases) {
            results.clear();
            List<String> started = scripted(c.op(), results);
            assertThat(results.get(0)).as(c.name()).isEqualTo(c.expected());
            assertThat(started).as(c.name() + ": all letters ran").hasSize(6);
            // letters started by the operation are processed before the rest is even started
            assertThat(started).as(c.name()).containsAll(c.first());
            startedFirst.add(started);
        }
    }

    @Test
    void lettersListOldestFirstAndOperationsOutsideScheduleAreRejected() {
        List<String> listed = new CopyOnWriteArrayList<>();
        Monitor[] self = new Monitor[1];
        final class Lister extends Monitor {
            @Override
            protected void schedule() {
                if (listed.isEmpty()) {
                    for (Letter l : letters()) {
                        listed.add(((Msg) l.message()).name() + "#" + l.sequence());
                    }
                }
                startAll(LetterFilter.ANY);
            }

            @Override
            protected void leave(Letter letter) {
            }
        }
        Worker w = new Worker();
        Lister lister = new Lister();
        self[0] = lister;
        lister.bind(w);
        w.ref().send(new Msg("a"));                      // before start()
        w.ref().send(new Msg("b"));
        w.ref().send(new Msg("c"));
        rt.finish(() -> {
            ActorRef<Msg> ref = w.start();
            ref.send(new Msg("stop"));
        });
        assertThat(listed.subList(0, 3)).containsExactly("a#1", "b#2", "c#3");
        assertThatThrownBy(() -> lister.startAll(LetterFilter.ANY)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("may only be called from schedule() or leave()");
    }

    // ---------------------------------------------------------------- categories and dispatch

    @Test
    void categoriesTagMessagesByTypeOrPredicateAndDispatchOnThem() {
        record Get(int key) {
        }
        record Put(int key) {
        }
        Category gets = Category.of("get", Get.class);
        Category bigPuts = Category.of("big put", m -> m instanceof Put p && p.key() > 10);
        assertThat(gets.contains(new Get(1))).isTrue();
        assertThat(gets.contains(new Put(1))).isFalse();
        assertThat(bigPuts.contains(new Put(11))).isTrue();
        assertThat(bigPuts.contains(new Put(1))).isFalse();
        assertThat(gets.toString()).isEqualTo("Category(get [Get])");
        assertThatThrownBy(() -> Category.of("empty")).hasMessageContaining("at least one message type");
    }

    // ---------------------------------------------------------------- life cycle and errors

    @Test
    void anExceptionInALetterTerminatesTheActorAndWaitingLettersBecomeDeadLetters() {
        Worker w = new Worker();
        new MutexMonitor().bind(w);
        w.ref().send(new Msg("a"));                      // before start()
        w.ref().send(new Msg("boom"));
        w.ref().send(new Msg("c"));
        w.ref().send(new Msg("d"));
        Throwable thrown = catchThrowable(() -> rt.finish(() -> w.start()));
        assertThat(thrown).hasMessage("boom");
        assertThat(w.state()).isEqualTo(ActorState.TERMINATED);
        assertThat(w.processed).containsExactly("a");
        assertThat(w.deadLetterCount()).isEqualTo(2);
    }

    @Test
    void exitFromALetterStopsTheMonitorFromStartingMore() {
        Worker w = new Worker();
        new MutexMonitor().bind(w);
        w.ref().send(new Msg("a"));                      // before start()
        w.ref().send(new Msg("stop"));
        w.ref().send(new Msg("c"));
        AtomicReference<ActorRef<Msg>> ref = new AtomicReference<>();
        rt.finish(() -> ref.set(w.start()));
        assertThat(w.processed).containsExactly("a", "stop");
        assertThat(w.deadLetterCount()).isEqualTo(1);
        ref.get().send(new Msg("late"));
        assertThat(w.deadLetterCount()).isEqualTo(2);
    }

    @Test
    void bindingErrorsAreClear() {
        Worker a = new Worker();
        Worker b = new Worker();
        MutexMonitor m = new MutexMonitor();
        m.bind(a);
        assertThatThrownBy(() -> m.bind(b)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is already bound to " + a);
        assertThatThrownBy(() -> new MutexMonitor().bind(a)).hasMessageContaining(a + " is already bound to MutexMonitor of " + a);
        rt.finish(() -> {
            ActorRef<Msg> ref = b.start();
            assertThatThrownBy(() -> new MutexMonitor().bind(b))
                    .hasMessageContaining("was already started: bind MutexMonitor (unbound) before start()");
            ref.send(new Msg("stop"));
        });
        rt.finish(() -> {
            ActorRef<Msg> ref = a.start();
            ref.send(new Msg("stop"));
        });
    }

    sealed interface Cmd permits Get, Quit {
    }

    record Get(dev.switchboard.actor.ReplyTo<String> replyTo) implements Cmd {
    }

    record Quit() implements Cmd {
    }

    /** An ask whose request the actor's monitor holds times out saying so, not only that the actor did not reply. */
    @Test
    void anAskTheMonitorHoldsTimesOutSayingTheMonitorHoldsIt() {
        final class Holding extends Monitor {
            @Override
            protected void schedule() {
                startAll(letter -> letter.message() instanceof Quit);    // a Get is held for ever
            }

            @Override
            protected void leave(Letter letter) {
            }
        }
        final class Server extends Actor<Cmd> {
            @Override
            protected void process(Cmd c) {
                switch (c) {
                    case Get g -> g.replyTo().reply("value");
                    case Quit q -> exit();
                }
            }
        }
        Server server = new Server();
        Holding monitor = new Holding();
        monitor.bind(server);
        Throwable failure = rt.finish(() -> {
            ActorRef<Cmd> ref = server.start();
            Throwable f = catchThrowable(() -> ref.<String>ask(Get::new, java.time.Duration.ofMillis(100))
                    .get(30, TimeUnit.SECONDS));
            ref.send(new Quit());
            return f;
        });
        assertThat(failure).hasCauseInstanceOf(dev.switchboard.actor.ReplyTimeoutException.class);
        assertThat(failure.getCause().getMessage()).contains(server + " did not reply to Get")
                .endsWith("(" + monitor + " holds 1 message it has not started)");
    }

    @Test
    void aMonitorThatThrowsTerminatesItsActor() {
        final class Broken extends Monitor {
            @Override
            protected void schedule() {
                throw new ArithmeticException("bad schedule");
            }

            @Override
            protected void leave(Letter letter) {
            }
        }
        Worker w = new Worker();
        new Broken().bind(w);
        w.ref().send(new Msg("a"));                      // before start()
        RecordingLogger log = new RecordingLogger();
        try (TaskRuntime own = TaskRuntime.builder().name("broken").workers(2).build()) {
            RuntimeInternals.schedulerOf(own).failureLog().logger(log);
            Throwable thrown = catchThrowable(() -> own.finish(() -> w.start()));
            assertThat(thrown).isInstanceOf(ArithmeticException.class);
            assertThat(thrown.getSuppressed()[0].getMessage()).contains("its dispatch policy Broken of " + w + " threw");
        }
        assertThat(w.deadLetterCount()).isEqualTo(1);
        assertThat(log.lines()).singleElement().extracting(RecordingLogger.Line::text).asString().startsWith("Switchboard: actor " + w + " of runtime 'broken'"
                + " failed in its dispatch policy Broken: java.lang.ArithmeticException: bad schedule; it is terminated");
    }

    /** A request for x² (or, without a {@code replyTo}, STOP). */
    record Sq(int x, dev.switchboard.actor.ReplyTo<Integer> replyTo) {
    }

    /** Answers request x with x²; for -1 never answers; for 0 answers with a failure; STOP exits. */
    static final class Squarer extends Actor<Sq> {
        static final int STOP = Integer.MIN_VALUE;
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final List<Integer> order = new CopyOnWriteArrayList<>();

        @Override
        protected void process(Sq q) {
            if (running.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            int x = q.x();
            order.add(x);
            if (x == STOP) {
                exit();
            } else if (x == 0) {
                q.replyTo().fail(new IllegalArgumentException("no square for 0 today"));
            } else if (x > 0) {                   // -1: never answered, this request alone stays open
                q.replyTo().reply(x * x);
            }
            running.decrementAndGet();
        }
    }

    /** Counts leave() per letter, over {@link MutexMonitor}'s policy. */
    static final class CountingMutex extends MutexMonitor {
        final Map<Long, Integer> leaves = new ConcurrentHashMap<>();

        @Override
        protected void leave(Letter letter) {
            leaves.merge(letter.sequence(), 1, Integer::sum);
            super.leave(letter);
        }
    }

    @RepeatedTest(5)
    void aMutexRunsAStreamOfLettersOneAtATimeInOrderAndAnswersEachRequestItself() {
        // a letter that finishes on a worker runs the next one on the same thread (up to the budget, then as a
        // task): the reply must still go to that letter's own request, and the reply state must not carry over
        int n = 1_000;
        Squarer s = new Squarer();
        CountingMutex m = new CountingMutex();
        m.bind(s);
        List<java.util.concurrent.CompletableFuture<Integer>> replies = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<Integer>> kept = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<Integer>> failed = new ArrayList<>();
        java.time.Duration timeout = java.time.Duration.ofMinutes(5);
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            ActorRef<Sq> ref = s.start();
            rt.async(() -> {
                for (int i = 1; i <= n; i++) {
                    int x = i;
                    replies.add(ref.ask(r -> new Sq(x, r), timeout));
                    if (i == n / 2) {
                        kept.add(ref.ask(r -> new Sq(-1, r), timeout));   // unanswered: the next must still reply
                        failed.add(ref.ask(r -> new Sq(0, r), timeout));  // answered with a failure
                    }
                }
                ref.send(new Sq(Squarer.STOP, null));   // a plain send ends the stream: the actor exits
            });
        }));
        assertThat(thrown).isNull();
        for (int i = 1; i <= n; i++) {
            assertThat(replies.get(i - 1).join()).isEqualTo(i * i);
        }
        assertThat(kept.get(0)).isNotDone();
        assertThat(catchThrowable(failed.get(0)::join)).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThat(s.overlaps.get()).isZero();
        List<Integer> expected = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            expected.add(i);
            if (i == n / 2) {
                expected.add(-1);
                expected.add(0);
            }
        }
        expected.add(Squarer.STOP);
        assertThat(s.order).isEqualTo(expected);      // the mutex starts the oldest letter: arrival order
        assertThat(m.leaves).hasSize(n + 3);
        assertThat(m.leaves.values()).allMatch(count -> count == 1);
        assertThat(s.state()).isEqualTo(ActorState.TERMINATED);
    }

    /** Starts every letter at once. */
    static final class AllAtOnce extends Monitor {
        @Override
        protected void schedule() {
            startAll(l -> true);
        }

        @Override
        protected void leave(Letter letter) {
        }
    }

    /**
     * A letter that sends to its own actor runs the monitor's turn on its thread while it is still being processed:
     * the letter that turn starts must run beside it, not wait to become that thread's next letter.
     */
    @Test
    void aLetterSentByARunningLetterToItsOwnActorRunsBesideIt() {
        java.util.concurrent.CountDownLatch second = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean inTime = new java.util.concurrent.atomic.AtomicBoolean();
        Actor<Msg> a = new Actor<>() {
            @Override
            protected void process(Msg m) {
                switch (m.name()) {
                    case "first" -> {
                        self().send(new Msg("second"));
                        try {
                            inTime.set(second.await(20, TimeUnit.SECONDS));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        exit();
                    }
                    default -> second.countDown();
                }
            }
        };
        new AllAtOnce().bind(a);
        rt.finish(() -> a.start().send(new Msg("first")));
        assertThat(inTime).as("the second letter ran while the first waited for it").isTrue();
    }

    /**
     * pause() and awaitReply() would not hold letters a monitor already started, a timer's message would bypass
     * it, and become() would change letters running beside it: they are refused, clearly.
     */
    @Test
    void pauseAwaitReplyTimersAndBecomeAreRefusedUnderAMonitor() {
        AtomicReference<Throwable> timer = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> paused = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> awaited = new java.util.concurrent.atomic.AtomicReference<>();
        AtomicReference<Throwable> became = new AtomicReference<>();
        AtomicReference<ActorRef<Msg>> otherRef = new AtomicReference<>();   // set before monitored gets its message
        Actor<Msg> other = new Actor<>() {
            @Override
            protected void process(Msg m) {
                exit();
            }
        };
        Actor<Msg> monitored = new Actor<>() {
            @Override
            protected void process(Msg m) {
                paused.set(org.assertj.core.api.Assertions.catchThrowable(this::pause));
                timer.set(org.assertj.core.api.Assertions.catchThrowable(
                        () -> startSingleTimer("k", new Msg("t"), java.time.Duration.ofMillis(1))));
                awaited.set(org.assertj.core.api.Assertions.catchThrowable(
                        () -> awaitReply(otherRef.get(), r -> new Msg("q"), (Object r) -> { })));
                became.set(org.assertj.core.api.Assertions.catchThrowable(() -> become(m2 -> { })));
                exit();
            }
        };
        MutexMonitor monitor = new MutexMonitor();
        monitor.bind(monitored);
        rt.finish(() -> {
            otherRef.set(other.start());
            ActorRef<Msg> ref = monitored.start();
            ref.send(new Msg("go"));
            otherRef.get().send(new Msg("stop"));
        });
        assertThat(paused.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(monitored + ".pause() is not supported")
                .hasMessageContaining("is bound to " + monitor + ", which decides when its messages run");
        assertThat(awaited.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(monitored + ".awaitReply() is not supported");
        assertThat(became.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(monitored + ".become() is not supported: " + monitored + " is bound to "
                        + monitor)
                .hasMessageContaining("switch on it in process()");
        assertThat(timer.get()).isInstanceOf(IllegalStateException.class).hasMessage(monitored
                + ".startSingleTimer() is not supported: " + monitored + " is bound to " + monitor
                + ", which decides when its messages run; it has no timers of its own (a timer of a plain actor"
                + " can send it the message)");
        assertThat(other.processedCount()).isEqualTo(1);   // the refused request was never sent
    }
}

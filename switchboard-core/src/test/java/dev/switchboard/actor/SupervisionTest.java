package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Supervision: a parent's strategy restarts (behind the same reference, the mailbox kept), resumes, stops or
 * escalates a failed child; limits and backoff; what a restart does to the child's state; and what reaches a finish.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SupervisionTest {

    sealed interface Work permits Item, Done, Boom {}

    record Item(long n) implements Work {}

    record Done() implements Work {}

    record Boom(String why) implements Work {}

    /** What the children of a test share: what they processed, their restarts, their instances. */
    static final class Log {
        final AtomicLong processed = new AtomicLong();
        final AtomicLong last = new AtomicLong(-1);
        final AtomicInteger outOfOrder = new AtomicInteger();
        final AtomicInteger instances = new AtomicInteger();
        final Queue<Object> events = new ConcurrentLinkedQueue<>();
        final List<Long> restartTimes = new CopyOnWriteArrayList<>();
    }

    /** Adds up items in order; an item whose number is a multiple of {@code failEvery} throws; Boom throws. */
    static class Child extends Actor<Work> {
        final Log log;
        final long failEvery;
        final ManualClock clock;
        final int instance;
        long sum;

        Child(Log log, long failEvery, ManualClock clock) {
            this.log = log;
            this.failEvery = failEvery;
            this.clock = clock;
            this.instance = log.instances.incrementAndGet();
        }

        @Override
        protected void onRestart(Throwable cause) {
            log.events.add("restart " + instance + " after " + cause.getMessage());
            if (clock != null) {
                log.restartTimes.add(clock.nanoTime());
            }
        }

        @Override
        protected void process(Work w) {
            switch (w) {
                case Item i -> {
                    if (failEvery > 0 && i.n() % failEvery == 0) {
                        throw new IllegalStateException("item " + i.n());
                    }
                    if (i.n() <= log.last.get()) {
                        log.outOfOrder.incrementAndGet();
                    }
                    log.last.set(i.n());
                    sum += i.n();
                    log.processed.incrementAndGet();
                    log.events.add("item " + i.n() + " on " + instance + " sum " + sum);
                }
                case Boom b -> throw new IllegalStateException(b.why());
                case Done d -> exit();
            }
        }
    }

    sealed interface Ctl permits Ended {}

    record Ended(Terminated end) implements Ctl {}

    /**
     * Starts one child with the strategy, hands its reference out, watches it and exits when it ends (a parent that
     * ended first would stop it).
     */
    static final class Parent extends Actor<Ctl> {
        final Supplier<? extends ActorCore<Work>> factory;
        final SupervisorStrategy strategy;
        final CompletableFuture<ActorRef<Work>> child = new CompletableFuture<>();
        final CompletableFuture<Terminated> end = new CompletableFuture<>();

        Parent(Supplier<? extends ActorCore<Work>> factory, SupervisorStrategy strategy) {
            this.factory = factory;
            this.strategy = strategy;
        }

        @Override
        protected void onStart() {
            ActorRef<Work> c = startChild("child", factory, strategy);
            watch(c, Ended::new);
            child.complete(c);
        }

        @Override
        protected void process(Ctl m) {
            switch (m) {
                case Ended e -> {
                    end.complete(e.end());
                    exit();
                }
            }
        }
    }

    /** Dead letters of a runtime by reason, counted as they come. */
    static final class DeadLetters implements AutoCloseable {
        final Map<DeadLetter.Reason, AtomicLong> byReason = new EnumMap<>(DeadLetter.Reason.class);
        final Queue<Object> messages = new ConcurrentLinkedQueue<>();
        private final AutoCloseable subscription;

        DeadLetters(TaskRuntime rt) {
            for (DeadLetter.Reason r : DeadLetter.Reason.values()) {
                byReason.put(r, new AtomicLong());
            }
            subscription = DeadLetter.subscribe(rt, d -> {
                byReason.get(d.reason()).incrementAndGet();
                messages.add(d.message());
            });
        }

        long count(DeadLetter.Reason r) {
            return byReason.get(r).get();
        }

        @Override
        public void close() throws Exception {
            subscription.close();
        }
    }

    /** Runs {@code body} in a finish of {@code rt} on another thread; the future completes when the finish ends. */
    static CompletableFuture<Void> finishElsewhere(TaskRuntime rt, Runnable body) {
        return CompletableFuture.runAsync(() -> rt.finish(body::run));
    }

    @Test
    void aChildFailingEveryKthMessageUnderRestartLosesNoOtherMessage() throws Exception {
        int sent = 1_000_000;
        int k = 1_000;
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> new Child(log, k, null), SupervisorStrategy.restart());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (long n = 1; n <= sent; n++) {
                child.send(new Item(n));
            }
            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS * 3, TimeUnit.SECONDS);

            long failed = sent / k;
            assertThat(log.processed.get()).as("processed").isEqualTo(sent - failed);
            assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).as("failed messages dropped")
                    .isEqualTo(failed);
            assertThat(log.processed.get() + dead.count(DeadLetter.Reason.FAILED_PROCESSING))
                    .as("processed + dead letters = sent").isEqualTo(sent);
            assertThat(dead.byReason.values().stream().mapToLong(AtomicLong::get).sum())
                    .as("no other dead letter").isEqualTo(failed);
            assertThat(log.outOfOrder).as("every instance took the queued messages in order").hasValue(0);
            assertThat(log.instances).as("one instance, then one per restart").hasValue((int) failed + 1);
            assertThat(parent.end.get()).isEqualTo(new Terminated(child, Terminated.Reason.EXITED, null));
        }
    }

    @Test
    void resumeKeepsTheInstanceAndItsState() throws Exception {
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> new Child(log, 3, null), SupervisorStrategy.resume());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (long n = 1; n <= 7; n++) {
                child.send(new Item(n));
            }
            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(log.events).containsExactly("item 1 on 1 sum 1", "item 2 on 1 sum 3", "item 4 on 1 sum 7",
                    "item 5 on 1 sum 12", "item 7 on 1 sum 19");
            assertThat(dead.messages).containsExactly(new Item(3), new Item(6));
            assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).isEqualTo(2);
        }
    }

    /** Waits in its message until the runtime has closed, then starts an actor: the closed runtime refuses it. */
    static final class AsksAfterTheClose extends Actor<Work> {
        final CountDownLatch inMessage;
        final CountDownLatch closed;
        final AtomicInteger restarts;

        AsksAfterTheClose(CountDownLatch inMessage, CountDownLatch closed, AtomicInteger restarts) {
            this.inMessage = inMessage;
            this.closed = closed;
            this.restarts = restarts;
        }

        @Override
        protected void onRestart(Throwable cause) {
            restarts.incrementAndGet();
        }

        @Override
        protected void process(Work w) {
            inMessage.countDown();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            new Actor<String>() {                             // refused: "runtime ... is closed: cannot start"
                @Override
                protected void process(String m) {
                }
            }.start();
        }
    }

    /**
     * Work the closed runtime refuses to an actor in the middle of a message (a start, an awaitReply) is the close's
     * doing: the close ends the actor (RUNTIME_CLOSED), its supervisor decides nothing, and it is no failure. The
     * actor ended FAILED, counted as a failure, and its supervisor restarted it after the close.
     */
    @Test
    void workRefusedByTheCloseInTheMiddleOfAMessageEndsTheActorAsClosedNotFailed() throws Exception {
        CountDownLatch inMessage = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicInteger restarts = new AtomicInteger();
        TaskRuntime rt = Runtimes.workers(2);
        Parent parent = new Parent(() -> new AsksAfterTheClose(inMessage, closed, restarts),
                SupervisorStrategy.restart());
        CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
        ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        child.send(new Item(1));
        assertThat(inMessage.await(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> closing = CompletableFuture.supplyAsync(() -> rt.close(Duration.ofSeconds(30)));
        Await.until("the runtime closed", rt::isClosed);
        closed.countDown();                                   // the child asks now, on a closed runtime
        assertThat(closing.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        Terminated end = child.whenTerminated().toCompletableFuture().get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(end.reason()).isEqualTo(Terminated.Reason.RUNTIME_CLOSED);
        assertThat(end.failure()).isNull();
        assertThat(restarts).hasValue(0);
        assertThat(RuntimeMetrics.of(rt).failures()).isZero();
        catchThrowable(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS));   // ended, by the close
        assertThat(done).isDone();
    }

    /** Opens a resource in onStart, closes it in onReplaced (a restart) and in onExit (the end). */
    static final class HoldsAResource extends Child {
        final AtomicInteger open;
        final boolean hookFails;

        HoldsAResource(Log log, AtomicInteger open, boolean hookFails) {
            super(log, 3, null);
            this.open = open;
            this.hookFails = hookFails;
        }

        @Override
        protected void onStart() {
            open.incrementAndGet();
        }

        @Override
        protected void onRestart(Throwable cause) {
            super.onRestart(cause);
            onStart();
        }

        @Override
        protected void onReplaced(Throwable cause) {
            open.decrementAndGet();
            log.events.add("replaced " + instance + " after " + cause.getMessage());
            if (hookFails) {
                throw new IllegalArgumentException("close failed on " + instance);
            }
        }

        @Override
        protected void onExit() {
            open.decrementAndGet();
            log.events.add("exit " + instance);
        }
    }

    @Test
    void aRestartRunsTheFailedInstancesOnReplacedFirstAndGoesOnIfItThrows() throws Exception {
        for (boolean hookFails : new boolean[] {false, true}) {
            Log log = new Log();
            AtomicInteger open = new AtomicInteger();
            try (TaskRuntime rt = Runtimes.workers(2)) {
                Parent parent = new Parent(() -> new HoldsAResource(log, open, hookFails),
                        SupervisorStrategy.restart());
                CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
                ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                for (long n = 1; n <= 7; n++) {
                    child.send(new Item(n));
                }
                child.send(new Done());
                done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(log.events).as("hook fails: %s", hookFails).containsExactly("item 1 on 1 sum 1",
                        "item 2 on 1 sum 3", "replaced 1 after item 3", "restart 2 after item 3", "item 4 on 2 sum 4",
                        "item 5 on 2 sum 9", "replaced 2 after item 6", "restart 3 after item 6", "item 7 on 3 sum 7",
                        "exit 3");
                assertThat(open).as("resources left open, hook fails: %s", hookFails).hasValue(0);
                assertThat(parent.end.get().reason()).isEqualTo(Terminated.Reason.EXITED);
            }
        }
    }

    /**
     * A restart that ends before a new instance takes over (the child stopped during the backoff, a factory that
     * throws) ran the replaced instance's onReplaced(), and its end runs no onExit() on it: each instance runs one of
     * the two, so a resource closed in both is closed once. Both ran, and the resource was closed twice.
     */
    @Test
    void aRestartThatNoInstanceCompletesRunsNoOnExitOnTheInstanceItReplaced() throws Exception {
        for (String how : List.of("stopped during the backoff", "the factory throws")) {
            Log log = new Log();
            AtomicInteger open = new AtomicInteger();
            AtomicInteger made = new AtomicInteger();
            boolean backoff = how.startsWith("stopped");
            SupervisorStrategy restart = backoff
                    ? SupervisorStrategy.restart().withBackoff(Duration.ofMinutes(10), Duration.ofMinutes(10), 0)
                    : SupervisorStrategy.restart();
            try (TaskRuntime rt = Runtimes.workers(2)) {
                Parent parent = new Parent(() -> {
                    if (made.incrementAndGet() > 1 && !backoff) {
                        throw new IllegalStateException("no second instance");
                    }
                    return new HoldsAResource(log, open, false);
                }, restart);
                CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
                ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                child.send(new Item(3));                      // fails: the restart replaces instance 1
                if (backoff) {
                    Await.until("the restart waits out its backoff",
                            () -> log.events.contains("replaced 1 after item 3"));
                    child.stopNow();
                }
                Throwable thrown = catchThrowable(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS));
                assertThat(log.events).as(how).containsExactly("replaced 1 after item 3");
                assertThat(open).as("resources open, %s", how).hasValue(0);
                assertThat(parent.end.get().reason()).as(how)
                        .isEqualTo(backoff ? Terminated.Reason.STOPPED : Terminated.Reason.FAILED);
                if (!backoff) {
                    assertThat(thrown).as(how).hasRootCauseMessage("no second instance");
                }
            }
        }
    }

    /**
     * A child whose start fails under a restart without a limit or a backoff is stopped (Pekko's default strategy
     * stops a child whose preStart fails): restarting it at once would fail again at once. It restarted for ever,
     * hundreds of thousands of times a second, and could not be stopped gracefully. With a limit, it is restarted
     * until the limit, and then the supervisor gives up.
     */
    @Test
    void aChildWhoseStartFailsIsStoppedUnlessItsRestartsAreBoundedOrSpaced() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        Supplier<Actor<Work>> failingStart = () -> new Actor<>() {
            @Override
            protected void onStart() {
                starts.incrementAndGet();
                throw new IllegalStateException("db down");
            }

            @Override
            protected void process(Work w) {
            }
        };
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent parent = new Parent(failingStart, SupervisorStrategy.restart());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);              // the parent exits when the child ends
            Terminated end = parent.end.get();
            assertThat(end.reason()).isEqualTo(Terminated.Reason.STOPPED);
            assertThat(end.failure()).hasMessage("db down");
            assertThat(starts).hasValue(1);
        }
        starts.set(0);
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent parent = new Parent(failingStart, SupervisorStrategy.restart().withLimit(2, Duration.ofMinutes(1)));
            Throwable thrown = catchThrowable(() -> finishElsewhere(rt, parent::start)
                    .get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertThat(thrown).isInstanceOf(ExecutionException.class).hasRootCauseMessage("db down");
            assertThat(parent.end.get().reason()).isEqualTo(Terminated.Reason.FAILED);
            assertThat(starts).hasValue(3);                                 // the start and two restarts
        }
    }

    @Test
    void aRetriedMessageGoesToTheNewInstanceFirstAndIsDroppedIfItFailsAgain() throws Exception {
        Log log = new Log();
        AtomicInteger boomsLeft = new AtomicInteger(1);       // item 2 fails once, then succeeds
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> new Child(log, 0, null) {
                @Override
                protected void process(Work w) {
                    if (w instanceof Item i && i.n() == 2 && boomsLeft.getAndDecrement() > 0) {
                        throw new IllegalStateException("item 2, once");
                    }
                    super.process(w);
                }
            }, SupervisorStrategy.restart().retryingFailedMessage());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (long n = 1; n <= 3; n++) {
                child.send(new Item(n));
            }
            child.send(new Boom("always"));                   // fails, is retried, fails again: dropped
            child.send(new Item(4));
            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(log.events).containsExactly("item 1 on 1 sum 1", "restart 2 after item 2, once",
                    "item 2 on 2 sum 2", "item 3 on 2 sum 5", "restart 3 after always", "restart 4 after always",
                    "item 4 on 4 sum 4");
            assertThat(dead.messages).containsExactly(new Boom("always"));
            assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).isEqualTo(1);
        }
    }

    /** A hang report says a child waits out its restart backoff, not that it was paused and waits for resume(). */
    @Test
    void aHangReportSaysAChildWaitsOutItsBackoffNotThatItWaitsForResume() throws Exception {
        ManualClock clock = new ManualClock();
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            Parent parent = new Parent(() -> new Child(log, 0, clock),
                    SupervisorStrategy.restart().withBackoff(Duration.ofSeconds(3), Duration.ofSeconds(10), 0));
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(new Boom("once"));
            Await.until("the child waits for its backoff", () -> rt.diagnose().stream()
                    .anyMatch(r -> r.contains("restart backoff")));
            assertThat(rt.diagnose()).anySatisfy(report -> assertThat(report)
                    .contains("never exited (waiting out its supervisor's restart backoff: restart 1 in 3000 ms;"
                            + " its messages wait)")
                    .doesNotContain("until resume()"));

            clock.advance(Duration.ofSeconds(3));
            Await.until("restarted", () -> log.events.contains("restart 2 after once"));
            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void backoffRestartsExactlyWhenTheTestClockPassesItsDelayAndMessagesSentMeanwhileFollowInOrder()
            throws Exception {
        ManualClock clock = new ManualClock();
        Log log = new Log();
        Duration min = Duration.ofSeconds(1);
        Duration max = Duration.ofSeconds(4);
        try (TaskRuntime rt = Runtimes.manualClock(2, clock)) {
            List<Child> instances = new CopyOnWriteArrayList<>();
            Parent parent = new Parent(() -> {
                Child c = new Child(log, 0, clock);
                instances.add(c);
                return c;
            }, SupervisorStrategy.restart().withBackoff(min, max, 0));
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            ActorCore<Work> cell = instances.get(0);

            long[] expectedDelays = {1, 2, 4, 4};             // seconds: doubling, then capped at max
            long item = 0;
            for (int r = 0; r < expectedDelays.length; r++) {
                long failedAt = clock.nanoTime();
                child.send(new Boom("boom " + r));
                Await.until("the child waits for its backoff", () -> cell.state() == ActorState.PAUSED);
                for (int m = 0; m < 50; m++) {
                    child.send(new Item(++item));              // wait in the mailbox meanwhile
                }
                long due = failedAt + Duration.ofSeconds(expectedDelays[r]).toNanos();
                assertThat(clock.nextDue()).as("the restart's time after failure %d", r).hasValue(due);
                clock.advance(due - 1 - clock.nanoTime());
                assertThat(clock.nextDue()).as("not restarted 1 ns early").hasValue(due);
                assertThat(cell.state()).isEqualTo(ActorState.PAUSED);
                clock.advance(1);
                long expect = item;
                Await.until("the new instance took the messages sent meanwhile", () -> log.last.get() == expect);
                assertThat(log.restartTimes).as("restarted at the backoff's time").hasSize(r + 1).last()
                        .isEqualTo(due);
            }
            assertThat(log.outOfOrder).hasValue(0);
            assertThat(log.processed.get()).isEqualTo(item);

            // A failure more than max after the last restart starts the row over: the delay is min again.
            clock.advance(max.plusSeconds(1));
            long failedAt = clock.nanoTime();
            child.send(new Boom("after a quiet spell"));
            Await.until("the child waits for its backoff", () -> cell.state() == ActorState.PAUSED);
            assertThat(clock.nextDue()).hasValue(failedAt + min.toNanos());
            clock.advance(min);
            Await.until("restarted", () -> log.restartTimes.size() == expectedDelays.length + 1);

            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRandomFactorLengthensTheDelayWithinItsBound() throws Exception {
        SupervisorStrategy s = SupervisorStrategy.restart().withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1),
                0.5);
        assertThat(s.backoffNanos(0, 0)).isEqualTo(100_000_000L);
        assertThat(s.backoffNanos(0, 0.999)).isBetween(100_000_000L, 150_000_000L);
        assertThat(s.backoffNanos(3, 0)).isEqualTo(800_000_000L);
        assertThat(s.backoffNanos(4, 0)).isEqualTo(1_000_000_000L);
        assertThat(s.backoffNanos(200, 0.5)).isEqualTo(1_250_000_000L);
    }

    @Test
    void aRestartStormIsCutOffByTheLimitAndItsHistoryReachesTheFinish() throws Exception {
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> new Child(log, 1, null),
                    SupervisorStrategy.restart().withLimit(3, Duration.ofMinutes(1)));
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (long n = 1; n <= 10; n++) {
                child.send(new Item(n));                      // every one fails
            }
            assertThatThrownBy(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("item 4")
                    .satisfies(e -> {
                        Throwable[] s = e.getSuppressed();
                        assertThat(s).extracting(Throwable::getMessage)
                                .contains("item 1", "item 2", "item 3");
                        assertThat(s).anySatisfy(t -> assertThat(t).isInstanceOf(ProcessingFailure.class)
                                .hasMessageContaining("gave up").hasMessageContaining("restart 4 within PT1M")
                                .hasMessageContaining("failed 4 times and was restarted 3 times"));
                    });
            assertThat(log.instances).hasValue(4);
            assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).as("items 1-3").isEqualTo(3);
            // items 5-10: queued when the child ended, or (a sender slower than four failures) sent after its end
            Await.until("items 5-10 are dead letters, each once",
                    () -> dead.count(DeadLetter.Reason.UNPROCESSED_AT_EXIT)
                            + dead.count(DeadLetter.Reason.RECIPIENT_TERMINATED) == 6);
            assertThat(parent.end.get().reason()).isEqualTo(Terminated.Reason.FAILED);
        }
    }

    /** A middle actor: starts a child that escalates, and escalates what it gets itself. */
    static final class Middle extends Actor<Ctl> {
        final Log log;
        final CompletableFuture<ActorRef<Work>> leaf;

        Middle(Log log, CompletableFuture<ActorRef<Work>> leaf) {
            this.log = log;
            this.leaf = leaf;
        }

        @Override
        protected void onStart() {
            leaf.complete(startChild(() -> new Child(log, 0, null), SupervisorStrategy.escalate()));
        }

        @Override
        protected void process(Ctl m) {
        }
    }

    @Test
    void escalationReachesTheTop() throws Exception {
        Log log = new Log();
        CompletableFuture<ActorRef<Work>> leaf = new CompletableFuture<>();
        CompletableFuture<ActorRef<Ctl>> middle = new CompletableFuture<>();
        List<Terminated> ends = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = Runtimes.workers(2)) {
            dev.switchboard.testing.RecordingLogger logged = FailureLogTest.recordingOf(rt);
            final class Top extends Actor<Ctl> {
                @Override
                protected void onStart() {
                    middle.complete(startChild(() -> new Middle(log, leaf), SupervisorStrategy.escalate()));
                }

                @Override
                protected void process(Ctl m) {
                }
            }
            CompletableFuture<Void> done = finishElsewhere(rt, () -> new Top().start("top"));
            leaf.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS).whenTerminated().thenAccept(ends::add);
            middle.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS).whenTerminated().thenAccept(ends::add);
            leaf.get().send(new Boom("deep down"));
            assertThatThrownBy(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .cause().isInstanceOf(IllegalStateException.class).hasMessage("deep down")
                    .satisfies(e -> assertThat(e.getSuppressed()).anySatisfy(s -> assertThat(s)
                            .hasMessageContaining("top@").hasMessageContaining("escalated")
                            // where it began, through both levels
                            .hasMessageContaining("from " + leaf.get() + ", which failed processing a Boom")));
            Await.until("both ends heard", () -> ends.size() == 2);
            assertThat(ends).extracting(Terminated::reason).containsOnly(Terminated.Reason.FAILED);
            assertThat(logged.lines()).anySatisfy(l -> assertThat(l.text()).contains("top@")
                    .contains(" failed with a failure escalated from " + leaf.get() + ", which failed processing a"
                            + " Boom"));
        }
    }

    @Test
    void stopEndsTheChildWithoutReachingTheFinish() throws Exception {
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> new Child(log, 0, null), SupervisorStrategy.stop());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(new Item(1));
            child.send(new Boom("stop me"));
            child.send(new Item(2));
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);    // no failure
            Terminated end = parent.end.get();
            assertThat(end.reason()).isEqualTo(Terminated.Reason.STOPPED);
            assertThat(end.failure()).hasMessage("stop me");
            assertThat(dead.messages).containsExactly(new Item(2));
        }
    }

    @Test
    void anErrorEscalatesUnderThePresetsAndADeciderChoosesByTheFailure() throws Exception {
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> new Child(log, 0, null) {
                @Override
                protected void process(Work w) {
                    if (w instanceof Boom b && b.why().equals("bad argument")) {
                        throw new IllegalArgumentException(b.why());
                    }
                    super.process(w);
                }
            }, SupervisorStrategy.deciding(e -> e instanceof IllegalArgumentException
                    ? SupervisorStrategy.Directive.RESUME : SupervisorStrategy.Directive.RESTART));
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(new Item(1));
            child.send(new Boom("bad argument"));                // resumed: same instance, sum kept
            child.send(new Item(2));
            child.send(new Boom("broken"));                      // restarted: a new instance, sum from 0
            child.send(new Item(3));
            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(log.events).containsExactly("item 1 on 1 sum 1", "item 2 on 1 sum 3",
                    "restart 2 after broken", "item 3 on 2 sum 3");
            assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).isEqualTo(2);
        }

        final class Erring extends Actor<Work> {
            @Override
            protected void process(Work w) {
                throw new AssertionError("an error, not an exception");
            }
        }
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent parent = new Parent(Erring::new, SupervisorStrategy.restart());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS).send(new Item(1));
            assertThatThrownBy(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .cause().isInstanceOf(AssertionError.class);
        }
    }

    @Test
    void onlyAnActorOrASelectorCanBeSupervisedAndOnlyFromItsParentsProcessing() throws Exception {
        final class Stateless extends StatelessActor<Work> {
            @Override
            protected void process(Work w) {
            }
        }
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        final class Tries extends Actor<Ctl> {
            @Override
            protected void onStart() {
                try {
                    startChild(Stateless::new, SupervisorStrategy.restart());
                } catch (IllegalArgumentException e) {
                    refused.complete(e);
                }
                exit();
            }

            @Override
            protected void process(Ctl m) {
            }
        }
        try (TaskRuntime rt = Runtimes.workers(2)) {
            rt.finish(() -> new Tries().start());
            assertThat(refused.get()).hasMessageContaining("cannot be supervised")
                    .hasMessageContaining("stateless");
            Tries outside = new Tries();
            assertThatThrownBy(() -> outside.startChild(Stateless::new, SupervisorStrategy.restart()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("startChild");
        }
    }

    /** Fails its first message, once the test has seen it enter and has stopped it. */
    static final class FailsWhenStopped extends Child {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        FailsWhenStopped(Log log) {
            super(log, 0, null);
        }

        @Override
        protected void process(Work w) {
            entered.countDown();
            try {
                if (!release.await(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new AssertionError("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("failed as it was stopped");
        }
    }

    @Test
    void aChildStoppedWhileItsMessageRunsAndFailsEndsWithItsFailureHandledNotInTheFinish() throws Exception {
        Log log = new Log();
        for (SupervisorStrategy strategy : List.of(SupervisorStrategy.restart(), SupervisorStrategy.resume(),
                SupervisorStrategy.stop())) {
            try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
                FailsWhenStopped[] instance = new FailsWhenStopped[1];
                Parent parent = new Parent(() -> instance[0] = new FailsWhenStopped(log), strategy);
                CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
                ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                child.send(new Item(1));
                assertThat(instance[0].entered.await(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                child.stopNow();
                instance[0].release.countDown();
                done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);     // the finish does not throw it
                Terminated end = parent.end.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(end.reason()).as(strategy.toString()).isEqualTo(Terminated.Reason.STOPPED);
                assertThat(end.failure()).hasMessage("failed as it was stopped");
                assertThat(dead.messages).containsExactly(new Item(1));
                assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).isEqualTo(1);
            }
        }
    }

    @Test
    void aChildStoppedWhileItsMessageRunsAndFailsPastItsRestartLimitPutsTheFailureInTheFinish() throws Exception {
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2)) {
            FailsWhenStopped[] instance = new FailsWhenStopped[1];
            Parent parent = new Parent(() -> instance[0] = new FailsWhenStopped(log),
                    SupervisorStrategy.restart().withLimit(0, Duration.ofMinutes(1)));    // it would give up
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(new Item(1));
            assertThat(instance[0].entered.await(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            child.stopNow();
            instance[0].release.countDown();
            assertThatThrownBy(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).cause()
                    .hasMessage("failed as it was stopped");
        }
    }

    @Test
    void aSupervisedChildThatExitsAndThenThrowsPutsItsFailureInTheFinish() throws Exception {
        Log log = new Log();
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent parent = new Parent(() -> new Child(log, 0, null) {
                @Override
                protected void process(Work w) {
                    exit();
                    throw new IllegalStateException("thrown after exit()");
                }
            }, SupervisorStrategy.restart());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS).send(new Item(1));
            assertThatThrownBy(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS)).cause()
                    .hasMessage("thrown after exit()");
        }
    }

    @Test
    void aRetryKeptWhenTheFactoryFailsIsADeadLetterAndTheGiveUpReachesTheFinish() throws Exception {
        Log log = new Log();
        AtomicInteger built = new AtomicInteger();
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(() -> {
                if (built.incrementAndGet() > 1) {
                    throw new IllegalStateException("no second instance");
                }
                return new Child(log, 0, null);
            }, SupervisorStrategy.restart().retryingFailedMessage());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(new Boom("first"));
            child.send(new Item(1));
            assertThatThrownBy(() -> done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .cause().hasMessage("no second instance")
                    .satisfies(e -> assertThat(e.getSuppressed()).anySatisfy(t -> assertThat(t)
                            .hasMessageContaining("its factory gave no fresh instance")
                            .hasMessageContaining("it failed 1 time and was restarted 0 times")))
                    .satisfies(e -> assertThat(e.getSuppressed()).as("the restart's cause, once")
                            .filteredOn(t -> "first".equals(t.getMessage())).hasSize(1));
            assertThat(dead.messages).containsExactlyInAnyOrder(new Boom("first"), new Item(1));
            assertThat(dead.count(DeadLetter.Reason.FAILED_PROCESSING)).as("the kept retry").isEqualTo(1);
        }
    }

    /** Mailbox 1 fails the first instance; later instances start with mailbox 1 disabled, and Item(99) enables it. */
    static final class TwoBoxes extends Selector<Work, Selector.Numbered> {
        static final AtomicInteger INSTANCES = new AtomicInteger();
        static final Queue<String> LOG = new ConcurrentLinkedQueue<>();
        final int instance = INSTANCES.incrementAndGet();

        TwoBoxes() {
            super(2);
            if (instance > 1) {
                disable(1);
            }
        }

        @Override
        protected void process(Work w) {
            LOG.add(w + " from " + currentMailbox() + " on " + instance);
            switch (w) {
                case Boom b when instance == 1 -> throw new IllegalStateException(b.why());
                case Item i when i.n() == 99 -> enable(1);
                case Done d -> exit();
                default -> { }
            }
        }
    }

    /**
     * A selector's retried message waits for its mailbox to be enabled in the new instance, as any message of it
     * does, and is processed as from that mailbox. Before, it ran first, from a mailbox the new instance had
     * disabled.
     */
    @Test
    void aSelectorsRetriedMessageWaitsForItsMailboxInTheNewInstance() throws Exception {
        TwoBoxes.INSTANCES.set(0);
        TwoBoxes.LOG.clear();
        try (TaskRuntime rt = Runtimes.workers(2)) {
            Parent parent = new Parent(TwoBoxes::new, SupervisorStrategy.restart().retryingFailedMessage());
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            @SuppressWarnings("unchecked")
            SelectorRef<Work, Selector.Numbered> child = (SelectorRef<Work, Selector.Numbered>) (ActorRef<?>)
                    parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(1, new Boom("b"));
            child.send(1, new Item(2));
            child.send(1, new Done());
            Await.until("the restart", () -> TwoBoxes.INSTANCES.get() == 2);
            child.send(0, new Item(1));
            child.send(0, new Item(99));
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(TwoBoxes.LOG).containsExactly("Boom[why=b] from 1 on 1", "Item[n=1] from 0 on 2",
                    "Item[n=99] from 0 on 2", "Boom[why=b] from 1 on 2", "Item[n=2] from 1 on 2", "Done[] from 1 on 2");
        }
    }

    /** B's guard throws once the instance has failed: a second failure while its backoff runs. */
    static final class Guarded extends Selector<Work, Selector.Numbered> {
        static final AtomicInteger INSTANCES = new AtomicInteger();
        static final Queue<String> LOG = new ConcurrentLinkedQueue<>();
        final int instance = INSTANCES.incrementAndGet();
        boolean broken;

        Guarded() {
            super(2);
            guard(1, () -> {
                if (broken) {
                    throw new IllegalStateException("guard of a broken instance");
                }
                return true;
            });
        }

        @Override
        protected void onRestart(Throwable cause) {
            LOG.add("restart " + instance + " after " + cause.getMessage());
        }

        @Override
        protected void process(Work w) {
            switch (w) {
                case Boom b -> {
                    broken = true;
                    throw new IllegalStateException(b.why());
                }
                case Item i -> LOG.add("item " + i.n() + " on " + instance);
                case Done d -> exit();
            }
        }
    }

    @Test
    void aFailureWhileARestartIsOnItsWayDoesNotRestartTwice() throws Exception {
        try (TaskRuntime rt = Runtimes.workers(2); DeadLetters dead = new DeadLetters(rt)) {
            Parent parent = new Parent(Guarded::new, SupervisorStrategy.restart()
                    .withBackoff(Duration.ofMillis(1), Duration.ofMillis(1), 0));
            CompletableFuture<Void> done = finishElsewhere(rt, parent::start);
            ActorRef<Work> child = parent.child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            child.send(new Boom("boom"));                    // then its guard throws too, after the message
            child.send(new Item(1));
            child.send(new Done());
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(Guarded.LOG).containsExactly("restart 2 after boom", "item 1 on 2");
            assertThat(Guarded.INSTANCES).hasValue(2);
        }
    }

    sealed interface Reload permits Load, Data {}

    record Load(ReplyTo<String> replyTo) implements Reload {}

    record Data(String text) implements Reload {}

    /** Answers loads. */
    static final class Store extends Actor<Load> {
        @Override
        protected void process(Load l) {
            l.replyTo().reply("state");
        }
    }

    @Test
    void aRetriedMessageWaitsForTheRepliesTheNewInstanceAwaitsInOnRestart() throws Exception {
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        AtomicInteger failures = new AtomicInteger(1);
        final class Reloading extends Actor<Reload> {
            final ActorRef<Load> store;
            String state = "none";

            Reloading(ActorRef<Load> store) {
                this.store = store;
            }

            @Override
            protected void onRestart(Throwable cause) {
                awaitReply(store, Load::new, (String s) -> {
                    state = s;
                    seen.add("reloaded " + s);
                });
            }

            @Override
            protected void process(Reload r) {
                if (r instanceof Data d) {
                    if (failures.getAndDecrement() > 0) {
                        throw new IllegalStateException("first try");
                    }
                    seen.add(d.text() + " with " + state);
                    exit();
                }
            }
        }
        try (TaskRuntime rt = Runtimes.workers(2)) {
            CompletableFuture<ActorRef<Reload>> child = new CompletableFuture<>();
            final class Owner extends Actor<Ctl> {
                private ActorRef<Load> store;

                @Override
                protected void onStart() {
                    store = new Store().start();
                    ActorRef<Load> s = store;
                    child.complete(startChild(() -> new Reloading(s), SupervisorStrategy.restart()
                            .retryingFailedMessage()));
                    watch(child.join(), Ended::new);
                }

                @Override
                protected void process(Ctl m) {
                    store.stop();
                    exit();
                }
            }
            CompletableFuture<Void> done = finishElsewhere(rt, () -> new Owner().start());
            child.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS).send(new Data("retried"));
            done.get(Await.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(seen).containsExactly("reloaded state", "retried with state");
        }
    }

    @Test
    void aParentBoundToAPolicyCannotSupervise() throws Exception {
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        final class Monitored extends Actor<Ctl> {
            @Override
            protected void process(Ctl m) {
                try {
                    startChild(() -> new Child(new Log(), 0, null), SupervisorStrategy.restart());
                } catch (IllegalStateException e) {
                    refused.complete(e);
                }
                exit();
            }
        }
        try (TaskRuntime rt = Runtimes.workers(2)) {
            rt.finish(() -> {
                Monitored m = new dev.switchboard.monitor.MutexMonitor().bind(new Monitored());
                m.start().send(new Ended(null));
            });
            assertThat(refused.get()).hasMessageContaining("cannot supervise").hasMessageContaining("bound to");
        }
    }

    @Test
    void strategiesRefuseBadBounds() {
        SupervisorStrategy s = SupervisorStrategy.restart();
        assertThatThrownBy(() -> s.withLimit(-1, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxRestarts");
        assertThatThrownBy(() -> s.withLimit(1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window");
        assertThatThrownBy(() -> s.withBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("min");
        assertThatThrownBy(() -> s.withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1), 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("random factor");
        assertThat(s.withLimit(5, Duration.ofMinutes(1)).withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10),
                0.2).retryingFailedMessage()).hasToString("restart().withLimit(5, PT1M).withBackoff(PT0.1S, PT10S, 0.2)"
                + ".retryingFailedMessage()");
    }
}

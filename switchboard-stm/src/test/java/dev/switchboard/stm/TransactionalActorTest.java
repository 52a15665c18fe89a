package dev.switchboard.stm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ActorState;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/** Transactional actors: concurrent messages as transactions, read-only messages, effects at commit, the split. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionalActorTest {
    sealed interface BankMsg {
    }

    record Transfer(int from, int to, long amount) implements BankMsg {
    }

    record Audit(ReplyTo<Long> replyTo) implements BankMsg, ReadOnly {
    }

    record Close() implements BankMsg {
    }

    static final class Bank extends TransactionalActor<BankMsg> {
        final List<TRef<Long>> accounts = new ArrayList<>();

        Bank(int n, long each, Settings settings) {
            super(settings);
            for (int i = 0; i < n; i++) {
                accounts.add(TRef.of(each));
            }
        }

        @Override
        protected void process(BankMsg m) {
            switch (m) {
                case Transfer t -> {
                    TRef<Long> from = accounts.get(t.from());
                    TRef<Long> to = accounts.get(t.to());
                    if (t.from() != t.to() && from.get() >= t.amount()) {
                        from.set(from.get() - t.amount());
                        to.set(to.get() + t.amount());
                    }
                }
                case Audit a -> {
                    if (StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getMethodName()
                            .equals("runDirect") && f.getClassName().equals("dev.switchboard.actor.PolicyDispatch")))) {
                        auditsLeftOut.incrementAndGet();   // processed without the policy's turns
                    }
                    a.replyTo().reply(accounts.stream().mapToLong(TRef::directGet).sum());
                }
                case Close c -> exit();
            }
        }

        /** Audits processed while the policy was left out. */
        final AtomicInteger auditsLeftOut = new AtomicInteger();

        long total() {
            return accounts.stream().mapToLong(TRef::directGet).sum();
        }
    }

    @Test
    void concurrentTransfersAndAuditsKeepTheTotalExactly() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Bank bank = new Bank(8, 1_000, TransactionalActor.Settings.staticSplit(6, 0.9));
            int transfers = 20_000;
            List<CompletableFuture<Long>> audits = new ArrayList<>();
            rt.finish(() -> {
                ActorRef<BankMsg> ref = bank.start("bank");
                java.util.Random r = new java.util.Random(7);
                for (int i = 0; i < transfers; i++) {
                    ref.send(new Transfer(r.nextInt(8), r.nextInt(8), 1 + r.nextInt(100)));
                    if (i % 1_000 == 0) {
                        audits.add(ref.ask(Audit::new, Duration.ofMinutes(2)));
                    }
                }
                CompletableFuture.allOf(audits.toArray(CompletableFuture[]::new))
                        .whenComplete((v, f) -> ref.send(new Close()));
            });
            assertThat(bank.total()).isEqualTo(8_000);
            assertThat(bank.accounts).allSatisfy(a -> assertThat(a.directGet()).isNotNegative());
            TransactionalActor.Stats s = bank.stats();
            assertThat(s.commits()).isEqualTo(transfers + 1);          // the transfers and the Close
            assertThat(s.transactional()).isEqualTo(transfers + 1);
            assertThat(s.readOnly()).isEqualTo(audits.size());
            assertThat(s.transactionalThreads()).isEqualTo(5);        // 6 threads, 90:10, each class at least 1
            assertThat(s.readOnlyThreads()).isEqualTo(1);
            assertThat(audits).allSatisfy(a -> assertThat(a.join()).isBetween(0L, 16_000L));
            assertThat(bank.state()).isEqualTo(ActorState.TERMINATED);
        }
    }

    sealed interface Tally {
    }

    record Add() implements Tally {
    }

    record Finish() implements Tally {
    }

    /** Counts its Adds (each a little work, so that several run at once); a Finish records the count and exits. */
    static final class Tallier extends TransactionalActor<Tally> {
        final TRef<Integer> added = TRef.of(0);
        volatile int recorded = -1;

        Tallier() {
            super(Settings.staticSplit(4, 0.9).withAlwaysParallel());
        }

        @Override
        protected void process(Tally m) {
            switch (m) {
                case Add a -> {
                    long spin = System.nanoTime() + 20_000;
                    while (System.nanoTime() < spin) {
                        Thread.onSpinWait();                     // a message that runs long enough to overlap
                    }
                    added.set(added.get() + 1);
                }
                case Finish f -> {
                    recorded = added.get();
                    exit();
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 50})
    void anExitCommitsAfterEveryMessageRunningBesideItAndNothingCommitsAfterIt(int sentAfter) {
        for (int round = 0; round < 15; round++) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                List<DeadLetter> dead = new CopyOnWriteArrayList<>();
                DeadLetter.subscribe(rt, dead::add);
                Tallier tallier = new Tallier();
                int before = 300;
                rt.finish(() -> {
                    ActorRef<Tally> ref = tallier.start("tallier");
                    for (int i = 0; i < before; i++) {
                        ref.send(new Add());
                    }
                    ref.send(new Finish());
                    for (int i = 0; i < sentAfter; i++) {
                        ref.send(new Add());
                    }
                });
                int added = tallier.added.directGet();
                // what the Finish saw is everything that committed: no message committed after the exit
                assertThat(tallier.recorded).as("round %d", round).isEqualTo(added);
                // every Add sent before the Finish had started when it started, so it waited for them all
                assertThat(added).as("round %d", round).isBetween(before, before + sentAfter);
                int round0 = round;
                awaitCondition("the dead letters of round " + round0, () -> dead.size() == before + sentAfter - added);
                assertThat(dead).allSatisfy(d -> assertThat(d.message()).isInstanceOf(Add.class));
                assertThat(tallier.state()).isEqualTo(ActorState.TERMINATED);
            }
        }
    }

    @Test
    void ofTwoMessagesThatExitOneCommitsAndTheOtherIsADeadLetter() {
        for (int round = 0; round < 15; round++) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                List<DeadLetter> dead = new CopyOnWriteArrayList<>();
                DeadLetter.subscribe(rt, dead::add);
                Tallier tallier = new Tallier();
                rt.finish(() -> {
                    ActorRef<Tally> ref = tallier.start("tallier");
                    for (int i = 0; i < 400; i++) {
                        ref.send(i % 100 == 99 ? new Finish() : new Add());    // a Finish among the adds, 4 times
                    }
                });
                int added = tallier.added.directGet();
                assertThat(tallier.recorded).as("round %d", round).isEqualTo(added);
                assertThat(added).as("round %d", round).isBetween(99, 396);
                int round0 = round;
                awaitCondition("the dead letters of round " + round0, () -> dead.size() == 400 - added - 1);
                assertThat(dead.stream().filter(d -> d.message() instanceof Finish).count()).isEqualTo(3);
            }
        }
    }

    sealed interface Closing {
    }

    record Chore(long micros) implements Closing {
    }

    /** Answers the count and exits; its first attempt waits for {@link Closer#gate} (at most 30 s). */
    record Quit(ReplyTo<Integer> replyTo) implements Closing {
    }

    /** Records the count and stops its own actor at once. */
    record StopSelfNow() implements Closing {
    }

    static final class Closer extends TransactionalActor<Closing> {
        final TRef<Integer> done = TRef.of(0);
        final AtomicInteger closeAttempts = new AtomicInteger();
        volatile boolean gate = true;
        volatile int recorded = -1;

        Closer() {
            super(Settings.staticSplit(4, 0.9).withAlwaysParallel());
        }

        @Override
        protected void process(Closing m) {
            switch (m) {
                case Chore w -> {
                    long spin = System.nanoTime() + w.micros() * 1_000;
                    while (System.nanoTime() < spin) {
                        Thread.onSpinWait();
                    }
                    done.set(done.get() + 1);
                }
                case Quit c -> {
                    closeAttempts.incrementAndGet();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!gate && System.nanoTime() < deadline) {
                        Thread.onSpinWait();                     // held here until the test has acted
                    }
                    recorded = done.get();
                    c.replyTo().reply(recorded);
                    exit();
                }
                case StopSelfNow s -> {
                    recorded = done.get();
                    self().stopNow();
                }
            }
        }
    }

    @Test
    void aStopSentAfterAnExitThatWaitsLetsItRunAlone() {
        for (int round = 0; round < 10; round++) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                Closer closer = new Closer();
                List<CompletableFuture<Integer>> answer = new ArrayList<>();
                rt.finish(() -> {
                    ActorRef<Closing> ref = closer.start("closer");
                    for (int i = 0; i < 20; i++) {
                        ref.send(new Chore(500));
                    }
                    answer.add(ref.ask(Quit::new, Duration.ofMinutes(1)));
                    ref.stop();                                  // waits for the Quit, which ran beside the work
                });
                assertThat(answer.get(0).join()).as("round %d", round).isEqualTo(closer.done.directGet())
                        .isEqualTo(20);
                assertThat(closer.closeAttempts.get()).as("round %d", round).isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void anExitThatWaitsIsADeadLetterIfTheActorIsStoppedNowMeanwhile() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            DeadLetter.subscribe(rt, dead::add);
            Closer closer = new Closer();
            closer.gate = false;
            List<CompletableFuture<Integer>> answer = new ArrayList<>();
            rt.finish(() -> {
                ActorRef<Closing> ref = closer.start("closer");
                ref.send(new Chore(300_000));                     // 300 ms: the Quit starts beside it
                answer.add(ref.ask(Quit::new, Duration.ofMinutes(1)));
                rt.async(() -> {
                    awaitCondition("the Quit's first attempt", () -> closer.closeAttempts.get() == 1);
                    ref.stopNow();
                    closer.gate = true;
                });
            });
            assertThat(closer.closeAttempts).hasValue(1);
            awaitCondition("the Quit as a dead letter", () -> dead.stream().anyMatch(d -> d.message() instanceof Quit));
            assertThat(catchThrowable(() -> answer.get(0).join())).as("its ask fails at once, not by its timeout")
                    .hasCauseInstanceOf(dev.switchboard.actor.NoReplyException.class);
        }
    }

    @Test
    void aTransactionalMessageThatStopsItsActorNowComesAfterTheMessagesBesideIt() {
        for (int round = 0; round < 10; round++) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                Closer closer = new Closer();
                rt.finish(() -> {
                    ActorRef<Closing> ref = closer.start("closer");
                    for (int i = 0; i < 8; i++) {
                        ref.send(new Chore(2_000));
                    }
                    ref.send(new StopSelfNow());
                });
                assertThat(closer.recorded).as("round %d", round).isEqualTo(closer.done.directGet()).isEqualTo(8);
            }
        }
    }

    @Test
    void messagesProcessedWhileThePolicyIsLeftOutAreStillClassifiedCountedAndSampled() {
        // One worker: every message runs inline, and while the actor is idle the policy's turns are left out. The
        // policy is idle only once the actor has caught up with its sender (a backlog stays held by the policy), so
        // each audit is sent after the transfers before it have committed.
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            Bank bank = new Bank(4, 1_000, TransactionalActor.Settings.dynamicSplit(4, Duration.ofMillis(2), 0.2));
            List<CompletableFuture<Long>> audits = new ArrayList<>();
            rt.finish(() -> {
                ActorRef<BankMsg> ref = bank.start("bank");
                for (int i = 0; i < 2_000; i++) {
                    ref.send(new Transfer(i % 4, (i + 1) % 4, 1 + i % 7));
                    if (i % 100 == 99) {
                        long sent = i + 1;
                        awaitCondition("the bank commits the " + sent + " transfers sent",
                                () -> bank.stats().commits() == sent);
                        audits.add(ref.ask(Audit::new, Duration.ofMinutes(2)));
                    }
                }
                CompletableFuture.allOf(audits.toArray(CompletableFuture[]::new)).thenRunAsync(() -> {
                    awaitCondition("two periods sampled by the timer", () -> bank.history().size() >= 2);
                    ref.send(new Close());
                });
            });
            assertThat(bank.history()).as("periods sampled by the timer").hasSizeGreaterThanOrEqualTo(2);
            assertThat(audits).allSatisfy(a -> assertThat(a.join()).isEqualTo(4_000L));
            TransactionalActor.Stats s = bank.stats();
            assertThat(s.readOnly()).as("audits run as read-only messages").isEqualTo(audits.size());
            assertThat(bank.auditsLeftOut).as("audits processed without the policy's turns").hasValue(audits.size());
            assertThat(s.commits()).isEqualTo(2_001L);                 // the transfers and the Close
            assertThat(s.transactional()).isEqualTo(2_001L);
            assertThat(bank.total()).isEqualTo(4_000);
        }
    }

    /** Waits, parking a millisecond at a time, until {@code condition} holds; fails after 30 s. */
    private static void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting until " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Test
    void periodsWhoseMessagesRanOneAfterAnotherAreNotProfiled() {
        // One worker: every message runs inline, so no period can say what contention the split meets.
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            Bank bank = new Bank(4, 1_000, TransactionalActor.Settings.profiledSplit(8, Duration.ofMillis(1)));
            rt.finish(() -> {
                ActorRef<BankMsg> ref = bank.start("bank");
                for (int i = 0; i < 500; i++) {
                    ref.send(new Transfer(i % 4, (i + 1) % 4, 1));
                }
                CompletableFuture.runAsync(() -> {
                    awaitCondition("eight periods sampled by the timer", () -> bank.history().size() >= 8);
                    ref.send(new Close());
                });
            });
            assertThat(bank.history()).as("periods sampled").hasSizeGreaterThanOrEqualTo(8);
            TransactionalActor.Stats s = bank.stats();
            assertThat(s.alpha()).as("alpha, unprofiled: every period ran inline").isNaN();
            assertThat(s.transactionalThreads()).as("the initial split, 90:10 of 8").isEqualTo(7);
            assertThat(s.commits()).isEqualTo(501);
        }
    }

    sealed interface Op {
    }

    /** Meets another Meet at the barrier: both can only pass if they run at once. */
    record Meet(CyclicBarrier barrier, int slot) implements Op {
    }

    /** Sends "attempt n" to the log each attempt; the first attempt is made to conflict. */
    record Noisy(ActorRef<String> log, boolean exitToo) implements Op {
    }

    /** Writes a TRef: read-only by its type, so it must fail. */
    record SneakyWrite() implements Op, ReadOnly {
    }

    record Fail() implements Op {
    }

    record Stop() implements Op {
    }

    record Work() implements Op {
    }

    /** Starts an actor and spawns a task, each of which notes itself; the first attempt is made to conflict. */
    record Spawning(List<String> notes) implements Op {
    }

    /** Waits in a finish: not allowed in a transaction. */
    record Waits() implements Op {
    }

    /** Waits for a future's value: not allowed in a transaction. */
    record WaitsOn(dev.switchboard.task.DataDrivenFuture<Integer> future) implements Op {
    }

    /** Answers with the attempt it ran in; the first attempt is made to conflict. */
    record Which(ReplyTo<Integer> replyTo) implements Op {
    }

    /**
     * Sends a note to the server, then asks it, and in its first attempt (made to conflict) stops the victim; each
     * attempt's ask future goes to {@code asked}.
     */
    record AsksAndStops(ActorRef<Asked> server, ActorRef<String> victim,
                        List<CompletableFuture<String>> asked) implements Op {
    }

    /** A nested transaction that writes, sends and fails, caught by the message, which then sends. */
    record NestedFails(ActorRef<String> log) implements Op {
    }

    /** Asks the server and waits for the answer (or, derived, for a future made from it): not allowed. */
    record AsksAndWaits(ActorRef<Asked> server, boolean derived) implements Op {
    }

    /** Writes 7, then asks a server whose mailbox will be full at the commit. */
    record AsksFull(ActorRef<Asked> server, List<CompletableFuture<String>> asked) implements Op {
    }

    /** A note or a request for the server of the tests of requests in transactions. */
    record Asked(String what, ReplyTo<String> replyTo) {
    }

    /** Records what it is sent, in order, and answers requests. */
    static final class Server extends Actor<Asked> {
        final List<String> got = new CopyOnWriteArrayList<>();

        @Override
        protected void process(Asked a) {
            got.add(a.what());
            if (a.replyTo() != null) {
                a.replyTo().reply("answer to " + a.what());
            }
            if (a.what().equals("end")) {
                exit();
            }
        }
    }

    static final class Worker extends TransactionalActor<Op> {
        final List<TRef<Integer>> slots = List.of(TRef.of(0), TRef.of(0));
        final TRef<Integer> contended = TRef.of(0);
        final TRef<Integer> written = TRef.of(0);
        final AtomicInteger noisyAttempts = new AtomicInteger();

        Worker() {
            this(TransactionalActor.Settings.staticSplit(4, 0.5));
        }

        Worker(TransactionalActor.Settings settings) {
            super(settings);
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Meet m -> {
                    slots.get(m.slot()).set(slots.get(m.slot()).get() + 1);
                    try {
                        m.barrier().await(20, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("the two transactions did not run at once", e);
                    }
                }
                case Noisy n -> {
                    int attempt = noisyAttempts.incrementAndGet();
                    int seen = contended.get();
                    n.log().send("attempt " + attempt);
                    if (n.exitToo()) {
                        exit();
                    }
                    if (attempt == 1) {                 // another commit makes this attempt's read stale
                        commitElsewhere(contended);
                    }
                    written.set(seen + 1);
                }
                case AsksAndStops a -> {
                    int attempt = noisyAttempts.incrementAndGet();
                    int seen = contended.get();
                    a.server().send(new Asked("note " + attempt, null));
                    a.asked().add(a.server().ask(r -> new Asked("ask " + attempt, r), Duration.ofMinutes(2)));
                    if (attempt == 1) {
                        a.victim().stop();
                        commitElsewhere(contended);    // this attempt's read is stale: it rolls back
                    }
                    written.set(seen + 1);
                }
                case AsksAndWaits a -> {
                    CompletableFuture<String> f = a.server().ask(r -> new Asked("waited for", r),
                            Duration.ofMinutes(2));
                    (a.derived() ? f.thenApply(String::length) : f).join();
                }
                case AsksFull a -> {
                    written.set(7);
                    a.asked().add(a.server().ask(r -> new Asked("to a full mailbox", r), Duration.ofMinutes(2)));
                }
                case NestedFails n -> {
                    try {
                        Stm.atomic(() -> {
                            written.set(42);
                            n.log().send("nested");
                            TaskRuntime.current().async(() -> n.log().send("nested task"));
                            throw new IllegalStateException("the nested transaction fails");
                        });
                    } catch (IllegalStateException caught) {
                        n.log().send("outer, after " + caught.getMessage());
                    }
                }
                case SneakyWrite w -> written.set(-1);
                case Work w -> { }
                case Waits w -> TaskRuntime.current().finish(() -> { });
                case WaitsOn o -> o.future().get();
                case Spawning s -> {
                    int attempt = noisyAttempts.incrementAndGet();
                    int seen = contended.get();
                    TaskRuntime.current().async(() -> s.notes().add("task of attempt " + attempt));
                    new Actor<String>() {
                        @Override
                        protected void onStart() {
                            s.notes().add("actor of attempt " + attempt);
                            exit();
                        }

                        @Override
                        protected void process(String m) {
                        }
                    }.start();
                    if (attempt == 1) {
                        commitElsewhere(contended);
                    }
                    written.set(seen + 1);
                    exit();
                }
                case Which q -> {
                    int attempt = noisyAttempts.incrementAndGet();
                    int seen = contended.get();
                    q.replyTo().reply(attempt);              // held until the commit
                    if (attempt == 1) {
                        commitElsewhere(contended);
                    }
                    written.set(seen + 1);
                }
                case Fail f -> {
                    written.set(99);
                    throw new ArithmeticException("the transaction failed");
                }
                case Stop s -> exit();
            }
        }
    }

    /** Commits an increment of {@code x} on another thread and waits for it: the caller's read of x goes stale. */
    static void commitElsewhere(TRef<Integer> x) {
        try {
            CompletableFuture.runAsync(() -> Stm.atomic(() -> x.set(x.get() + 1))).get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Collects what it is sent until "end". */
    static final class Log extends Actor<String> {
        final List<String> got = new CopyOnWriteArrayList<>();

        @Override
        protected void process(String m) {
            if (m.equals("end")) {
                exit();
            } else {
                got.add(m);
            }
        }
    }

    @Test
    void transactionalMessagesRunAtOnce() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            // Two messages that wait for each other: one after another they would wait forever.
            Worker w = new Worker(TransactionalActor.Settings.staticSplit(4, 0.5).withAlwaysParallel());
            rt.finish(() -> {
                ActorRef<Op> ref = w.start("worker");
                CyclicBarrier barrier = new CyclicBarrier(2);
                ref.send(new Meet(barrier, 0));
                ref.send(new Meet(barrier, 1));
                ref.send(new Stop());
            });
            assertThat(w.slots).allSatisfy(s -> assertThat(s.directGet()).isEqualTo(1));
            assertThat(w.stats().rollbacks()).isZero();
        }
    }

    /** Moves one unit between two counters and notes whether it ran as a task of its own or inline. */
    static final class Mover extends TransactionalActor<Op> {
        final TRef<Integer> a = TRef.of(1_000);
        final TRef<Integer> b = TRef.of(0);
        final AtomicInteger asTasks = new AtomicInteger();
        final AtomicInteger inline = new AtomicInteger();

        Mover(TransactionalActor.Settings settings) {
            super(settings);
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Work w -> {
                    (asTask() ? asTasks : inline).incrementAndGet();   // per attempt: no rollback here
                    a.set(a.get() - 1);
                    b.set(b.get() + 1);
                }
                case Stop s -> exit();
                default -> throw new IllegalArgumentException("not for the mover: " + op);
            }
        }

        /** Whether the message being processed runs in a message task of its own (not after its turn). */
        static boolean asTask() {
            return StackWalker.getInstance().walk(frames -> frames.anyMatch(
                    f -> f.getClassName().equals("dev.switchboard.actor.MessageTask")));
        }
    }

    @Test
    void onOneWorkerTheMessagesRunOneAfterAnotherEachInATransactionOfItsOwn() {
        Mover m = movedOnOneWorker(TransactionalActor.Settings.staticSplit(4, 0.5), 500);
        assertThat(m.inline).hasValue(500);
        assertThat(m.asTasks).hasValue(0);
        assertThat(m.a.directGet() + m.b.directGet()).isEqualTo(1_000);
        assertThat(m.b.directGet()).isEqualTo(500);
        assertThat(m.stats().commits()).isEqualTo(501);            // the moves and the Stop
        assertThat(m.stats().transactional()).isEqualTo(501);
    }

    @Test
    void alwaysParallelRunsEveryMessageAsATaskOfItsOwnEvenOnOneWorker() {
        TransactionalActor.Settings plain = TransactionalActor.Settings.staticSplit(4, 0.5);
        TransactionalActor.Settings parallel = plain.withAlwaysParallel();
        assertThat(plain.alwaysParallel()).isFalse();
        assertThat(parallel.alwaysParallel()).isTrue();
        assertThat(parallel).isEqualTo(new TransactionalActor.Settings(plain.threads(), plain.dynamic(),
                plain.transactionalShare(), plain.period(), plain.alpha(), plain.maxAttempts(), true));
        assertThat(new TransactionalActor.Settings(4, false, 0.5, Duration.ofSeconds(1), 1, 3).alwaysParallel())
                .isFalse();
        Mover m = movedOnOneWorker(parallel, 200);
        assertThat(m.asTasks).hasValue(200);
        assertThat(m.inline).hasValue(0);
        assertThat(m.b.directGet()).isEqualTo(200);
    }

    /** A mover with {@code settings}, sent {@code moves} moves and a Stop on a runtime of one worker, ended. */
    static Mover movedOnOneWorker(TransactionalActor.Settings settings, int moves) {
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            Mover m = new Mover(settings);
            rt.finish(() -> {
                ActorRef<Op> ref = m.start("mover");
                for (int i = 0; i < moves; i++) {
                    ref.send(new Work());
                }
                ref.send(new Stop());
            });
            return m;
        }
    }

    @Test
    void sendsAndExitOfATransactionTakeEffectOnceAtCommitNeverForARolledBackAttempt() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Log log = new Log();
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            DeadLetter.subscribe(rt, dead::add);
            rt.finish(() -> {
                ActorRef<String> logRef = log.start("log");
                ActorRef<Op> ref = w.start("worker");
                ref.send(new Noisy(logRef, true));
                rt.async(() -> {
                    var ended = new dev.switchboard.task.DataDrivenFuture<Boolean>();
                    pollUntil(() -> w.state() == ActorState.TERMINATED, ended);
                    rt.asyncAwait(ended, () -> {
                        ref.send(new Stop());           // after the exit: a dead letter
                        logRef.send("end");
                    });
                });
            });
            assertThat(w.noisyAttempts).hasValue(2);
            assertThat(log.got).containsExactly("attempt 2");   // the rolled-back attempt's send was dropped
            assertThat(w.stats().commits()).isEqualTo(1);
            // the first attempt held the exit, and a message a turn started exits only when started again alone:
            // it rolled back to wait before its conflict was seen, and a wait is not counted as a rollback
            assertThat(w.stats().rollbacks()).isZero();
            assertThat(w.written.directGet()).isEqualTo(2);
            assertThat(dead).singleElement().extracting(DeadLetter::message).isInstanceOf(Stop.class);
        }
    }

    @Test
    void anAnswerGivenInATransactionGoesOnceAtCommit() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            java.util.concurrent.atomic.AtomicReference<CompletableFuture<Integer>> answer =
                    new java.util.concurrent.atomic.AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Op> ref = w.start("worker");
                answer.set(ref.ask(Which::new, Duration.ofSeconds(20)));
                answer.get().whenComplete((v, f) -> ref.send(new Stop()));
            });
            assertThat(answer.get().join()).isEqualTo(2);               // the committed attempt's answer
            assertThat(w.stats().rollbacks()).isEqualTo(1);
            assertThat(w.state()).isEqualTo(ActorState.TERMINATED);     // not failed by an "already answered"
        }
    }

    @Test
    void actorsAndTasksStartedInATransactionStartOnceAtCommitAndItsFinishWaitsForThem() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            List<String> notes = new CopyOnWriteArrayList<>();
            rt.finish(() -> w.start("worker").send(new Spawning(notes)));
            assertThat(notes).containsExactlyInAnyOrder("task of attempt 2", "actor of attempt 2");
        }
    }

    /** An ask and a stop are effects too: held until the commit, in order with the sends, never for a rollback. */
    @Test
    void requestsAndStopsOfATransactionTakeEffectOnceAtCommitInOrderWithItsSends() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Server server = new Server();
            Log victim = new Log();
            List<CompletableFuture<String>> asked = new CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicReference<ActorRef<String>> victimAt =
                    new java.util.concurrent.atomic.AtomicReference<>();
            rt.finish(() -> {
                ActorRef<Asked> serverRef = server.start("server");
                ActorRef<String> victimRef = victim.start("victim");
                victimAt.set(victimRef);
                ActorRef<Op> ref = w.start("worker");
                ref.send(new AsksAndStops(serverRef, victimRef, asked));
                ref.send(new Stop());
                rt.async(() -> {            // not on the common pool, which commitElsewhere needs
                    var answered = new dev.switchboard.task.DataDrivenFuture<Boolean>();
                    pollUntil(() -> asked.size() == 2 && asked.get(1).isDone(), answered);
                    rt.asyncAwait(answered, () -> {
                        serverRef.send(new Asked("end", null));
                        victimRef.send("end");
                    });
                });
            });
            assertThat(w.noisyAttempts).hasValue(2);
            // the rolled-back attempt's note and request were never sent; the committed one's went in their order
            assertThat(server.got).containsExactly("note 2", "ask 2", "end");
            assertThat(asked.get(1)).isCompletedWithValue("answer to ask 2");
            assertThat(asked.get(0)).as("the rolled-back attempt's ask, never sent").failsWithin(1, TimeUnit.SECONDS)
                    .withThrowableThat().havingCause().isInstanceOf(java.util.concurrent.CancellationException.class)
                    .withMessageMatching("the request Asked\\[.*\\] to server@\\d+ was not sent: the attempt of a"
                            + " transactional message of worker@\\d+ that made it rolled back");
            // the rolled-back attempt's stop did not stop the victim: it ended by its own "end"
            assertThat(victimAt.get().whenTerminated().toCompletableFuture().join().reason())
                    .isEqualTo(dev.switchboard.actor.Terminated.Reason.EXITED);
            assertThat(w.stats().rollbacks()).isEqualTo(1);
        }
    }

    /** A nested transaction is part of the message's: when it fails, what it sent and spawned is undone too. */
    @Test
    void aFailedNestedTransactionDropsTheEffectsItHeld() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Log log = new Log();
            rt.finish(() -> {
                ActorRef<String> logRef = log.start("log");
                ActorRef<Op> ref = w.start("worker");
                ref.send(new NestedFails(logRef));
                ref.send(new Stop());
                rt.async(() -> {
                    var ended = new dev.switchboard.task.DataDrivenFuture<Boolean>();
                    pollUntil(() -> w.state() == ActorState.TERMINATED, ended);
                    rt.asyncAwait(ended, () -> logRef.send("end"));
                });
            });
            assertThat(log.got).containsExactly("outer, after the nested transaction fails");
            assertThat(w.written.directGet()).as("the nested write, undone").isZero();
            assertThat(w.stats().commits()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void waitingForAnAskInsideATransactionFailsSayingWhy(boolean derived) {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Server server = new Server();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<Asked> serverRef = server.start("server");
                w.start("worker").send(new AsksAndWaits(serverRef, derived));
                serverRef.send(new Asked("end", null));
            }));
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(derived ? "join() on a future made from an ask's"
                            : "join() on the answer to an ask of server@")
                    .hasMessageContaining("was called inside a transaction of worker@")
                    .hasMessageContaining("must not wait");
            assertThat(server.got).as("the request of the failed transaction was never sent").containsExactly("end");
        }
    }

    /** An ask whose request cannot be sent at the commit fails its own future, not the committed transaction. */
    @Test
    void anAskThatCannotBeSentAtTheCommitFailsItsFutureAndTheActorGoesOn() throws Exception {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
            Actor<Asked> full = new Actor<>(dev.switchboard.actor.BoundedMailbox.failing(1)) {
                @Override
                protected void process(Asked a) {
                    if (a.what().equals("hold")) {
                        holding.countDown();
                        try {
                            gate.await(1, TimeUnit.MINUTES);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    } else if (a.what().equals("end")) {
                        exit();
                    }
                }
            };
            List<CompletableFuture<String>> asked = new CopyOnWriteArrayList<>();
            rt.finish(() -> {
                ActorRef<Asked> fullRef = full.start("full");
                fullRef.send(new Asked("hold", null));     // processed, waiting at the gate
                rt.async(() -> {
                    var held = new dev.switchboard.task.DataDrivenFuture<Boolean>();
                    pollUntil(() -> holding.getCount() == 0, held);
                    rt.asyncAwait(held, () -> {
                        fullRef.send(new Asked("end", null));      // its one place taken, until the gate opens
                        ActorRef<Op> ref = w.start("worker");
                        ref.send(new AsksFull(fullRef, asked));
                        var answered = new dev.switchboard.task.DataDrivenFuture<Boolean>();
                        pollUntil(() -> asked.size() == 1 && asked.get(0).isDone(), answered);
                        rt.asyncAwait(answered, () -> {
                            ref.send(new Stop());
                            gate.countDown();
                        });
                    });
                });
            });
            assertThat(asked.get(0)).failsWithin(1, TimeUnit.SECONDS).withThrowableThat()
                    .havingCause().isInstanceOf(dev.switchboard.actor.MailboxFullException.class);
            assertThat(w.written.directGet()).as("the transaction committed").isEqualTo(7);
            assertThat(w.stats().commits()).as("and the actor went on to its Stop").isEqualTo(2);
        }
    }

    @Test
    void aMessageWhoseTransactionIsGivenUpFailsNamingItsActorAndItsClass() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker(new TransactionalActor.Settings(4, false, 0.5, Duration.ofSeconds(1), 1, 1));
            Throwable thrown = catchThrowable(() -> rt.finish(() -> w.start("worker").ask(Which::new,
                    Duration.ofMinutes(1))));
            assertThat(thrown).isInstanceOf(TransactionConflictException.class)
                    .hasMessageStartingWith("the transaction of a Which message of " + w + ": a transaction was given"
                            + " up after 1 attempt: it conflicted");
            assertThat(((TransactionConflictException) thrown).attempts()).isEqualTo(1);
            assertThat(w.stats().rollbacks()).isEqualTo(1);
        }
    }

    @Test
    void waitingInsideATransactionFailsSayingWhy() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> w.start("worker").send(new Waits())));
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("finish was called inside a transaction of worker@")
                    .hasMessageContaining("must not wait");
        }
    }

    @Test
    void waitingOnAFutureInsideATransactionFailsNamingTheFuture() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            dev.switchboard.task.DataDrivenFuture<Integer> never = new dev.switchboard.task.DataDrivenFuture<>();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> w.start("worker").send(new WaitsOn(never))));
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("get() on " + never + " was called inside a transaction of worker@")
                    .hasMessageContaining("must not wait");
            never.put(1);
        }
    }

    /** Completes {@code done} once {@code condition} holds, checking from a task that re-queues itself. */
    private static void pollUntil(java.util.function.BooleanSupplier condition,
            dev.switchboard.task.DataDrivenFuture<Boolean> done) {
        if (condition.getAsBoolean()) {
            done.put(true);
        } else {
            TaskRuntime.current().async(() -> pollUntil(condition, done));
        }
    }

    @Test
    void aReadOnlyMessageThatWritesFailsNamingItself() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> w.start("worker").send(new SneakyWrite())));
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("TRef.set() in the read-only message SneakyWrite[] of worker@")
                    .hasMessageContaining("read-only messages may not write");
            assertThat(w.written.directGet()).isZero();
            assertThat(w.state()).isEqualTo(ActorState.TERMINATED);
        }
    }

    /**
     * A transaction that waits for its own ask through a future the runtime cannot see ({@code allOf}) waits for the
     * ask's timeout, since the request goes out only when the transaction commits; the timeout says so. It said the
     * asked actor did not reply, though it never had the request.
     */
    @Test
    void aTimeoutOfAnAskATransactionHeldSaysTheRequestWasNeverSent() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<Object> server = new Actor<Object>() {
                    @Override
                    protected void process(Object m) {
                        exit();
                    }
                }.start("server");
                ActorRef<String> asker = new TransactionalActor<String>() {
                    @Override
                    protected void process(String m) {
                        CompletableFuture<Object> f = server.ask(r -> "question", Duration.ofMillis(200));
                        CompletableFuture.allOf(f).join();
                    }
                }.start("asker");
                asker.send("go");
                asker.whenTerminated().toCompletableFuture().join();        // failed: its wait timed out
                server.send("bye");
            }));
            Throwable cause = thrown;
            while (cause != null && !(cause instanceof dev.switchboard.actor.ReplyTimeoutException)) {
                cause = cause.getCause();
            }
            assertThat(cause).as("in " + thrown).isNotNull().hasMessageContaining("did not reply to question within"
                    + " 200 ms (asked by asker@").hasMessageEndingWith(": the request was never sent: the transaction"
                    + " that asked holds it until it commits, and it had not (a transaction may not wait for the"
                    + " answer to its own ask)");
        }
    }

    record Report() implements ReadOnly {
    }

    /**
     * Only the read-only message's own processing may not write: an actor it waits for in a {@code finish}, which
     * the waiting thread runs itself, commits its writes. The helper's write failed, naming the read-only message.
     */
    @Test
    void anotherActorsWorkRunInsideAReadOnlyMessageWrites() {
        TRef<Integer> counter = TRef.of(0);
        for (int i = 1; i <= 5; i++) {
            try (TaskRuntime rt = TaskRuntime.create(2)) {
                rt.finish(() -> {
                    ActorRef<Object> reader = new TransactionalActor<Object>() {
                        @Override
                        protected void process(Object m) {
                            if (m instanceof Report) {
                                TaskRuntime.current().finish(() -> new Actor<String>() {
                                    @Override
                                    protected void onStart() {
                                        Stm.atomic(() -> counter.set(counter.get() + 1));
                                        exit();
                                    }

                                    @Override
                                    protected void process(String s) {
                                    }
                                }.start("helper"));
                            } else {
                                exit();
                            }
                        }
                    }.start("reader");
                    reader.send(new Report());
                    reader.send("exit");
                });
            }
            assertThat(counter.directGet()).isEqualTo(i);
        }
    }

    @Test
    void aTransactionThatThrowsIsRolledBackAndFailsTheActor() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Worker w = new Worker();
            Throwable thrown = catchThrowable(() -> rt.finish(() -> {
                ActorRef<Op> ref = w.start("worker");
                ref.send(new Fail());
            }));
            assertThat(thrown).isInstanceOf(ArithmeticException.class).hasMessage("the transaction failed");
            assertThat(thrown.getSuppressed()[0].getMessage()).contains("worker@").contains("process(Fail[])");
            assertThat(w.written.directGet()).isZero();                   // its write was rolled back
            assertThat(w.stats().commits()).isZero();
            assertThat(w.stats().rollbacks()).isEqualTo(1);
        }
    }

    @Test
    void aCommitHandlerThatThrowsLeavesTheMessagesCommitAndSendsAndFailsTheActor() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            List<String> got = new CopyOnWriteArrayList<>();
            Actor<String> log = new Actor<>() {
                @Override
                protected void process(String m) {
                    got.add(m);
                    exit();
                }
            };
            TRef<Integer> x = TRef.of(0);
            TransactionalActor<String> a = new TransactionalActor<>() {
                @Override
                protected void process(String m) {
                    x.set(1);
                    log.ref().send("sent by the committed message");
                    Stm.afterCommit(() -> {
                        throw new IllegalStateException("the commit handler failed");
                    });
                }
            };
            Throwable thrown = catchThrowable(() -> rt.finish(Duration.ofSeconds(20), () -> {
                log.start();
                a.start("tx").send("go");
            }));
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("the commit handler failed");
            assertThat(x.directGet()).isEqualTo(1);
            assertThat(got).containsExactly("sent by the committed message");
            assertThat(a.state()).isEqualTo(ActorState.TERMINATED);
            assertThat(a.stats().commits()).isEqualTo(1);
        }
    }

    /** Fails its transaction with an exception whose description sends 20 messages and gives them time to run. */
    static final class FailsSlowly extends TransactionalActor<String> {
        final AtomicInteger processed = new AtomicInteger();
        final java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(20);

        FailsSlowly(Settings settings) {
            super(settings);
        }

        @Override
        protected void process(String m) {
            if (m.equals("fail")) {
                throw new IllegalStateException() {
                    private final java.util.concurrent.atomic.AtomicBoolean described =
                            new java.util.concurrent.atomic.AtomicBoolean();

                    @Override
                    public String getMessage() {          // while its failure is reported, on the failing thread
                        if (described.compareAndSet(false, true)) {
                            for (int i = 0; i < 20; i++) {
                                self().send("after the failure");
                            }
                            try {                          // started, they would all run within this wait
                                all.await(500, TimeUnit.MILLISECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        return "slow to describe";
                    }
                };
            }
            Stm.afterCommit(() -> {
                processed.incrementAndGet();
                all.countDown();
            });
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void noMessageStartsOnceOneHasFailed(boolean alwaysParallel) {
        TransactionalActor.Settings settings = TransactionalActor.Settings.defaults();
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            FailsSlowly a = new FailsSlowly(alwaysParallel ? settings.withAlwaysParallel() : settings);
            Throwable thrown = catchThrowable(() -> rt.finish(() -> a.start("fails").send("fail")));
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("slow to describe");
            assertThat(a.processed.get()).as("messages committed after the failure").isZero();
            assertThat(a.deadLetterCount()).isEqualTo(20);
        }
    }

    @Test
    void theSplitRuleHalvesBelowAlphaDoublesAboveAndKeepsATenthForEach() {
        TransactionalActor.Settings s = TransactionalActor.Settings.dynamicSplit(32, Duration.ofSeconds(1), 0.21);
        assertThat(ThreadSplit.nextSplit(s, 0.21, 28, 100, 1_000)).isEqualTo(14);   // 0.1 < 0.21: halve
        assertThat(ThreadSplit.nextSplit(s, 0.21, 14, 100, 100)).isEqualTo(28);     // 1.0: double
        assertThat(ThreadSplit.nextSplit(s, 0.21, 28, 100, 0)).isEqualTo(28);       // at most 32 - 4
        assertThat(ThreadSplit.nextSplit(s, 0.21, 4, 1, 1_000)).isEqualTo(4);       // at least a tenth (4 of 32)
        assertThat(ThreadSplit.nextSplit(s, 0.21, 16, 0, 0)).isEqualTo(16);         // no transaction: unchanged
        assertThat(ThreadSplit.nextSplit(s, 0.21, 16, 0, 5)).isEqualTo(8);          // only rollbacks: halve
    }

    @Test
    void profilingFindsTheBestLevelAndAnAlphaThatHoldsIt() {
        TransactionalActor.Settings s = TransactionalActor.Settings.profiledSplit(8, Duration.ofSeconds(1));
        assertThat(ThreadSplit.profilingLevels(s)).containsExactly(1, 2, 4, 7);
        assertThat(ThreadSplit.profilingLevels(
                TransactionalActor.Settings.profiledSplit(32, Duration.ofSeconds(1)))).containsExactly(4, 8, 16, 28);
        int[] levels = {1, 2, 4, 7};
        // throughput peaks at 2 threads; commits per rollback fall as threads grow: 100, 20, 5, 1
        double[] found = ThreadSplit.profiledAlpha(levels, new long[] {500, 800, 600, 300},
                new long[] {5, 40, 120, 300});
        assertThat(found[0]).isEqualTo(2);
        assertThat(found[1]).isEqualTo(Math.sqrt(20 * 5.0));          // between 20 (kept) and 5 (halved)
        assertThat(ThreadSplit.nextSplit(s, found[1], 2, 800, 40)).isEqualTo(4);    // 20 >= 10: try more
        assertThat(ThreadSplit.nextSplit(s, found[1], 4, 600, 120)).isEqualTo(2);   // 5 < 10: back
        // the best is the top level: alpha is half its ratio
        double[] top = ThreadSplit.profiledAlpha(levels, new long[] {100, 200, 400, 700},
                new long[] {1, 2, 4, 70});
        assertThat(top).containsExactly(7, 5.0);
        // no rollback anywhere: alpha is below any ratio a period can show, so the split only grows
        double[] none = ThreadSplit.profiledAlpha(levels, new long[] {100, 200, 400, 700}, new long[4]);
        assertThat(none[0]).isEqualTo(7);
        assertThat(none[1]).isPositive().isLessThan(1.0 / 700);
        assertThat(TransactionalActor.Settings.defaults().alpha()).isNaN();
    }

    @Test
    void aProfiledActorFindsItsAlphaWhileItWorks() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            final class Counter extends TransactionalActor<Op> {
                final TRef<Integer> count = TRef.of(0);

                Counter() {
                    super(TransactionalActor.Settings.profiledSplit(8, Duration.ofMillis(5)));
                }

                @Override
                protected void process(Op op) {
                    if (op instanceof Stop) {
                        exit();
                    } else {
                        count.set(count.get() + 1);
                    }
                }
            }
            Counter c = new Counter();
            assertThat(c.stats().alpha()).isNaN();
            rt.finish(() -> {
                ActorRef<Op> ref = c.start("counter");
                rt.async(() -> feedUntil(ref, c, () -> !Double.isNaN(c.stats().alpha()), new long[1]));
            });
            assertThat(c.stats().alpha()).isPositive();
            assertThat(c.count.directGet()).isEqualTo((int) c.stats().commits() - 1);   // every Work, not the Stop
            // the history: one sample per period, in order; the profiling periods tried 1, 2, 4 and 7 threads
            List<TransactionalActor.Sample> h = c.history();
            assertThat(h).hasSizeGreaterThanOrEqualTo(5);
            assertThat(h).extracting(TransactionalActor.Sample::atNanos).isSorted();
            assertThat(h).extracting(TransactionalActor.Sample::transactionalThreads).contains(1, 2, 4);
            assertThat(h.stream().mapToLong(TransactionalActor.Sample::commits).sum()).isLessThanOrEqualTo(
                    c.stats().commits());
        }
    }

    @Test
    void theDynamicSplitMovesThreadsAwayFromTransactionsUnderContention() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            final class Contended extends TransactionalActor<Op> {
                final TRef<Integer> x = TRef.of(0);
                final TRef<Integer> y = TRef.of(0);

                Contended() {
                    // any rollback in a period halves: commits per rollback are always below 1e9
                    super(TransactionalActor.Settings.dynamicSplit(8, Duration.ofMillis(10), 1e9));
                }

                @Override
                protected void process(Op op) {
                    if (op instanceof Stop) {
                        exit();
                        return;
                    }
                    int seen = x.get();
                    long until = System.nanoTime() + 20_000;   // a window for the writer below to commit into
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    y.set(seen);
                }
            }
            Contended c = new Contended();
            assertThat(c.stats().transactionalThreads()).isEqualTo(7);
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread writer = new Thread(() -> {                 // commits to x now and then, outside the actor
                while (!stop.get()) {
                    Stm.atomic(() -> c.x.set(c.x.get() + 1));
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                }
            }, "x-writer");
            writer.start();
            try {
                rt.finish(() -> {
                    ActorRef<Op> ref = c.start("contended");
                    rt.async(() -> feedUntilFloor(ref, c, new long[1]));
                });
            } finally {
                stop.set(true);
            }
            assertThat(c.stats().rollbacks()).isPositive();
            assertThat(c.stats().transactionalThreads()).isEqualTo(1);   // 7, 3, 1: the floor of 8 threads
            assertThat(c.stats().readOnlyThreads()).isEqualTo(7);
        }
    }

    /**
     * Sends work, a few messages ahead of what has been processed, until the split reaches its floor; then stops
     * the actor.
     */
    private static void feedUntilFloor(ActorRef<Op> ref, TransactionalActor<Op> a, long[] sent) {
        feedUntil(ref, a, () -> a.stats().transactionalThreads() == 1, sent);
    }

    /** Sends work, a few messages ahead of what has been processed, until {@code done}; then stops the actor. */
    private static void feedUntil(ActorRef<Op> ref, TransactionalActor<Op> a, java.util.function.BooleanSupplier done,
            long[] sent) {
        if (done.getAsBoolean()) {
            ref.send(new Stop());
            return;
        }
        while (sent[0] - a.stats().transactional() < 8) {
            ref.send(new Work());
            sent[0]++;
        }
        TaskRuntime.current().async(() -> feedUntil(ref, a, done, sent));
    }
}

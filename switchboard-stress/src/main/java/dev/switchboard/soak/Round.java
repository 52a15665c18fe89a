package dev.switchboard.soak;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.DeadLetter;
import dev.switchboard.actor.MailboxFullException;
import dev.switchboard.actor.NoReplyException;
import dev.switchboard.actor.ReplyTimeoutException;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.actor.Terminated;
import dev.switchboard.task.MultiException;
import dev.switchboard.task.RuntimeClosedException;
import dev.switchboard.task.TaskFuture;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One randomized scenario of the soak: a fresh runtime, a mix of actors, selectors and monitored actors that pass
 * tokens to each other, tasks and loops beside them, injected failures, errors, interrupts and exits, and in some
 * rounds a {@code close()} from another thread while the finish runs. Afterwards every count is checked exactly.
 *
 * <p>Every random choice is a function of the round's seed (and of a token's id and hop), so a round replays its
 * configuration and its decisions from the seed; only the interleaving differs from run to run.
 *
 * <p>The checks, for every round:
 * <ul>
 *   <li>messages: every message whose {@code send} (or {@code ask}) returned was processed or counted as a dead
 *       letter, exactly ({@code sent == processed + dead letters}, late replies apart), and the runtime's
 *       dead-letter count equals the listener's;</li>
 *   <li>asks: every ask ends exactly once, answered with its own id, timed out, or unanswered (a
 *       {@code NoReplyException}), and no more replies come late than asks ended without their reply;</li>
 *   <li>failures: every failure the round threw is reported exactly once, by the round's finish, by the
 *       {@code forall} or (a task of a finish the close had already ended) to the runtime's unscoped-failure
 *       handler, and nothing else is reported but the close's {@link RuntimeClosedException}s; a round the
 *       close did not cut short reports nothing outside its finishes, and its {@code forall} runs every
 *       iteration and reports exactly the failures of its iterations;</li>
 *   <li>no interrupt set by one message is seen by the next; a mutex monitor never runs two letters at once and a
 *       readers-writer monitor never overlaps a write with anything; one sender's messages arrive in order;</li>
 *   <li>the finish ends (a generous timeout turns a hang into a reported discrepancy with the runtime's
 *       diagnosis).</li>
 * </ul>
 */
final class Round {
    /** A finish that has not ended after this long is a hang. */
    static final Duration HANG = Duration.ofSeconds(120);

    final long seed;
    final Config config;
    final Counters counters = new Counters();
    /** What went wrong: empty for a good round. */
    final Queue<String> discrepancies = new ConcurrentLinkedQueue<>();

    /** Tokens not yet retired; when it reaches zero the stopper sends every actor a Stop. */
    private final AtomicLong outstanding = new AtomicLong();
    private final CountDownLatch allRetired = new CountDownLatch(1);
    private final CountDownLatch closeSignal = new CountDownLatch(1);
    private final List<ActorRef<Msg>> targets = new ArrayList<>();
    /** The actors of {@link #targets}, index for index: their own counts are checked against what was sent. */
    private final List<ActorCore<Msg>> actors = new ArrayList<>();
    /** Stops that a full dropping mailbox dropped: the stopper sends them again. */
    private final java.util.Set<Long> droppedStops = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile TaskRuntime runtime;
    /** Set by the closer just before it closes the runtime. */
    private volatile boolean closing;
    /** What was sent to whom, asks ended, failures outside every finish; and the checks at the end. */
    private final RoundAudit audit = new RoundAudit(counters, discrepancies);

    Round(long seed) {
        this.seed = seed;
        this.config = Config.from(seed);
    }

    /** Messages the actors exchange. */
    sealed interface Msg permits Token, Stop, Seq, Nudge, Query {}

    /** Passed from actor to actor until {@code hops} reaches zero. */
    record Token(long id, int hops) implements Msg {
        Token hop() {
            return new Token(id, hops - 1);
        }
    }

    /** Ends an actor; the id tells a dropped Stop (a full dropping mailbox) from the one sent again. */
    record Stop(long id) implements Msg {}

    /** The n-th message one outside sender sent to this actor: must arrive in increasing order. */
    record Seq(int n) implements Msg {}

    /** A selector's note to itself to enable its second mailbox again. */
    record Nudge() implements Msg {}

    /** A question one actor asks another ({@code ask}, with a short timeout): answered with its id. */
    record Query(long id, ReplyTo<Long> replyTo) implements Msg {}

    /** Thrown on purpose by a message or a task. */
    static final class InjectedFailure extends RuntimeException {
        InjectedFailure(String what) {
            super(what, null, false, false);
        }
    }

    /** Thrown on purpose: an {@code Error} (not a {@code VirtualMachineError}), contained like an exception. */
    static final class InjectedError extends Error {
        InjectedError(String what) {
            super(what, null, false, false);
        }
    }

    /** The round's shape, drawn from its seed. */
    record Config(int workers, int throughput, int actors, int tokens, int maxHops, int failPerMille,
                  int exitPerMille, int interruptPerMille, int asyncPerMille, int loopSize, int closeAfter,
                  int askPerMille, long seed) {
        static Config from(long seed) {
            Mix r = new Mix(seed);
            int actors = 3 + r.below(30);
            int tokens = 20 + r.below(800);
            int maxHops = 1 + r.below(60);
            boolean close = r.below(4) == 0;
            return new Config(1 + r.below(4), new int[] {1, 5, 64}[r.below(3)], actors, tokens, maxHops,
                    r.below(4) == 0 ? 0 : r.below(6), r.below(5), r.below(20), r.below(200), r.below(5_000),
                    close ? 1 + r.below(Math.max(1, tokens * maxHops / 2)) : -1,
                    r.below(3) == 0 ? 0 : r.below(150), seed);
        }

        boolean closes() {
            return closeAfter > 0;
        }
    }

    /** A deterministic stream of choices from a seed (SplitMix64). */
    static final class Mix {
        private long state;

        Mix(long seed) {
            state = seed;
        }

        int below(int bound) {
            return (int) Long.remainderUnsigned(next(), bound);
        }

        long next() {
            state += 0x9E3779B97F4A7C15L;
            return mix(state);
        }

        static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }

    /** Whether the event {@code what} happens to token {@code id} at hop {@code hops}: {@code perMille} in 1000. */
    boolean chance(int what, long id, int hops, int perMille) {
        long h = Mix.mix(seed ^ Mix.mix(id * 0x100000001B3L + hops) ^ ((long) what << 56));
        return Long.remainderUnsigned(h, 1000) < perMille;
    }

    ActorRef<Msg> targetFor(Token t) {
        long h = Mix.mix(seed + Mix.mix(t.id() * 31 + t.hops()));
        return targets.get((int) Long.remainderUnsigned(h, targets.size()));
    }

    /** Sends {@code m}, counting it as sent once {@code send} returns; a full failing mailbox refuses it. */
    void send(ActorRef<Msg> to, Msg m) {
        try {
            to.send(m);
            audit.sent(to);
        } catch (MailboxFullException refused) {
            counters.refused.increment();
            if (m instanceof Token) {
                retire();
            }
        }
    }

    /** A token's journey ended (processed at its last hop, failed, exited, dead, or refused). */
    void retire() {
        if (outstanding.decrementAndGet() == 0) {
            allRetired.countDown();
            closeSignal.countDown();
        }
    }

    /** Called by every actor at the start of every message. */
    void processing(Object actor) {
        long n = counters.processed.incrementAndGet();
        if (n == config.closeAfter()) {
            closeSignal.countDown();
        }
        if (Thread.currentThread().isInterrupted()) {
            discrepancy("an interrupt set by an earlier message was visible to " + actor);
        }
    }

    void discrepancy(String what) {
        discrepancies.add(what);
    }

    /** A token arrived at {@code actor}: fail, exit, or pass it on (directly or through a task). */
    void onToken(SoakActors.Member actor, Token t) {
        if (chance(1, t.id(), t.hops(), config.interruptPerMille())) {
            Thread.currentThread().interrupt();                  // must not reach the next message on this worker
        }
        if (chance(2, t.id(), t.hops(), config.failPerMille())) {
            counters.thrown.increment();
            retire();
            if (chance(3, t.id(), t.hops(), 500)) {
                throw new InjectedError("token " + t.id() + " at " + actor);
            }
            throw new InjectedFailure("token " + t.id() + " at " + actor);
        }
        if (chance(4, t.id(), t.hops(), config.exitPerMille())) {
            retire();
            actor.leave();
            return;
        }
        if (t.hops() == 0) {
            retire();
            return;
        }
        Token next = t.hop();
        if (chance(6, t.id(), t.hops(), config.askPerMille())) {
            ask(t);
        }
        if (chance(5, t.id(), t.hops(), config.asyncPerMille())) {
            try {
                runtime.async(() -> {
                    counters.tasks.increment();
                    send(targetFor(next), next);
                });
            } catch (RuntimeClosedException closed) {
                retire();
            }
        } else {
            send(targetFor(next), next);
        }
    }

    /**
     * Asks another actor a {@link Query} with a timeout of 1 to 40 ms. Every ask must end exactly once: answered
     * with its own id, timed out, or refused with a {@link NoReplyException} (the actor asked terminated, failed
     * processing it, or dropped it); anything else is a discrepancy.
     */
    private void ask(Token t) {
        ActorRef<Msg> to = targetFor(t.hop());
        long id = t.id() * 1_000 + t.hops();
        Duration timeout = Duration.ofMillis(1 + Long.remainderUnsigned(Mix.mix(seed ^ id), 40));
        java.util.concurrent.CompletableFuture<Long> answer;
        try {
            answer = to.ask(r -> new Query(id, r), timeout);
        } catch (MailboxFullException refused) {
            counters.refused.increment();
            return;
        }
        audit.sent(to);
        counters.asks.increment();
        answer.whenComplete((value, failure) -> {
            Throwable f = failure instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                    ? c.getCause() : failure;
            if (f == null && value == id) {
                counters.asksAnswered.increment();
            } else if (f instanceof ReplyTimeoutException) {
                counters.asksTimedOut.increment();
            } else if (f instanceof NoReplyException) {
                counters.asksUnanswered.increment();
            } else {
                discrepancy("the ask " + id + " to " + to + " ended with "
                        + (f != null ? RoundAudit.describe(f) : value));
            }
            audit.askEnded();
        });
    }

    /** A Query arrived at {@code actor}: fail on it (its asker hears why), or answer it. */
    void onQuery(Object actor, Query q) {
        if (chance(7, q.id(), 0, config.failPerMille())) {
            counters.thrown.increment();
            throw new InjectedFailure("query " + q.id() + " at " + actor);
        }
        q.replyTo().reply(q.id());
    }

    /** Runs the round; the result is in {@link #counters} and {@link #discrepancies}. */
    void run() {
        TaskRuntime rt = TaskRuntime.builder()
                .name("soak-" + Long.toHexString(seed))
                .workers(config.workers())
                .throughput(config.throughput())
                .hangReporter(report -> { })                     // a hang is caught by the finish's timeout
                .noFailureLogging()                              // the round's failures are planted and counted
                .onUnscopedFailure(audit::reachedNoFinish)
                .build();
        DeadLetter.subscribe(rt, this::deadLetter);      // before any actor of the round exists
        runtime = rt;
        outstanding.set(config.tokens());
        Thread stopper = daemon(this::stopAllWhenRetired, "soak-stopper");
        Thread closer = daemon(() -> closeWhenSignalled(rt), "soak-closer");
        stopper.start();
        if (config.closes()) {
            closer.start();
        }
        Throwable outcome = null;
        LoopCheck loops = new LoopCheck();
        try {
            rt.finish(HANG, () -> body(rt, loops));
        } catch (Throwable t) {
            outcome = t;
        }
        boolean cutShort = closing;      // the close may have cut the round's work short
        if (config.closes()) {
            join(closer);
            allRetired.countDown();      // a task the closed runtime never ran may have held a token
        }
        join(stopper);
        if (!config.closes()) {
            closeWithin30s(rt);                // a round with a closer: the closer does it
        }
        audit.check(rt, outcome, cutShort, loops, targets, actors);
    }

    private Thread daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    private static boolean await(CountDownLatch latch, Duration timeout) {
        try {
            return latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void body(TaskRuntime rt, LoopCheck loops) {
        Config k = config;
        Mix r = new Mix(seed ^ 0x5EED);
        SoakActors kinds = new SoakActors(this);
        for (int i = 0; i < k.actors(); i++) {
            SoakActors.Started started = kinds.startOne(r, i, k.closes());
            targets.add(started.ref());
            actors.add(started.actor());
        }
        // tokens: from this thread, from tasks, from a forasync
        int fromBody = k.tokens() / 3;
        int fromTasks = k.tokens() / 3;
        int fromLoop = k.tokens() - fromBody - fromTasks;
        for (int i = 0; i < fromBody; i++) {
            Token t = new Token(i, r.below(k.maxHops() + 1));
            send(targetFor(t), t);
            if (i % 7 == 0) {
                ActorRef<Msg> to = targets.get(i % targets.size());
                send(to, new Seq(i));
            }
        }
        for (int i = 0; i < fromTasks; i++) {
            Token t = new Token(fromBody + i, r.below(k.maxHops() + 1));
            rt.async(() -> {
                counters.tasks.increment();
                send(targetFor(t), t);
            });
        }
        int maxHops = k.maxHops();
        rt.forasync(0, fromLoop, i -> {
            counters.tasks.increment();
            Token t = new Token(fromBody + fromTasks + i, (int) Long.remainderUnsigned(Mix.mix(seed + i), maxHops + 1));
            send(targetFor(t), t);
        });
        // tasks that fail, futures that fail, and a forall whose every iteration must run
        TaskFuture<Integer> value = rt.future(() -> {
            counters.tasks.increment();
            if (chance(6, -1, 0, 300)) {
                counters.thrown.increment();
                throw new InjectedFailure("future");
            }
            return 42;
        });
        rt.asyncAwait(value, () -> counters.tasks.increment());
        rt.forasync(0, k.loopSize(), i -> {
            counters.tasks.increment();
            if (chance(7, i, 0, k.failPerMille())) {
                counters.thrown.increment();
                throw new InjectedFailure("forasync iteration " + i);
            }
        });
        loops.run(rt, k.loopSize());
    }

    /** A forall inside the body: it must run every iteration and report exactly the failures of its iterations. */
    final class LoopCheck {
        final AtomicLong iterations = new AtomicLong();
        /** Failures its iterations threw, including iterations a close left running after the forall ended. */
        final AtomicLong thrown = new AtomicLong();
        /** Failures it reported, not counting the close. */
        long reported;
        /** Failures counted but not kept (past the cap): some may be closes. */
        long hidden;
        List<Throwable> failures = List.of();
        int size;
        Throwable unexpected;

        void run(TaskRuntime rt, int n) {
            size = n;
            try {
                rt.forall(0, n, i -> {
                    iterations.incrementAndGet();
                    if (chance(8, i, 0, config.failPerMille() * 2)) {
                        thrown.incrementAndGet();
                        throw new InjectedFailure("forall iteration " + i);
                    }
                });
            } catch (MultiException m) {
                long closes = m.failures().stream().filter(f -> f instanceof RuntimeClosedException).count();
                reported = m.failureCount() - closes;
                hidden = m.failureCount() - m.failures().size();
                failures = m.failures();
                m.failures().stream().filter(f -> !(f instanceof InjectedFailure)).findFirst()
                        .ifPresent(f -> unexpected = f);
            } catch (InjectedFailure one) {
                reported = 1;
                failures = List.of(one);
            } catch (RuntimeClosedException closed) {      // the close cut it: its iterations' failures suppressed
                failures = List.of(closed.getSuppressed());
                reported = failures.stream().filter(f -> !(f instanceof RuntimeClosedException)).count();
                unexpected = closed;
            } catch (Throwable other) {
                unexpected = other;
            }
        }
    }

    private void deadLetter(DeadLetter letter) {
        counters.deadLetters.increment();
        if (letter.reason() == DeadLetter.Reason.REPLY_TOO_LATE) {
            counters.lateReplies.increment();        // a reply, not a message sent: apart in the accounting
        }
        if (letter.reason() == DeadLetter.Reason.FAILED_PROCESSING) {
            counters.handled.increment();            // processed (it threw, and retired its token) and dropped
            return;
        }
        if (letter.message() instanceof Terminated) {
            counters.unsent.increment();             // a supervisor's watch message, come as it ended (escalated)
            return;
        }
        if (letter.message() instanceof Token) {
            retire();
        } else if (letter.message() instanceof Stop stop && letter.reason() == DeadLetter.Reason.MAILBOX_FULL) {
            droppedStops.add(stop.id());
        }
    }

    /**
     * Once every token is retired, sends every actor a Stop: again after a pause while a full failing mailbox
     * refuses it or a full dropping one drops it (nothing new is sent to them, so they drain).
     */
    private void stopAllWhenRetired() {
        await(allRetired, HANG);
        long deadline = System.nanoTime() + HANG.toNanos();
        long ids = 0;
        for (int index = 0; index < targets.size(); index++) {
            ActorRef<Msg> to = targets.get(index);
            if (Long.remainderUnsigned(Mix.mix(seed ^ (index * 0x9E3779B97F4A7C15L)), 3) == 0) {
                to.stop();                               // from outside: after what is queued, nothing sent
                counters.stops.increment();
                continue;
            }
            while (true) {
                long id = ids++;
                try {
                    to.send(new Stop(id));
                    audit.sent(to);
                    if (!droppedStops.remove(id)) {
                        break;
                    }
                } catch (MailboxFullException full) {
                    counters.refused.increment();
                }
                if (System.nanoTime() > deadline) {
                    discrepancy("a Stop to " + to + " was refused or dropped for " + HANG.toSeconds() + " s");
                    break;
                }
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private void closeWhenSignalled(TaskRuntime rt) {
        await(closeSignal, HANG);
        closing = true;
        closeWithin30s(rt);
    }

    private void closeWithin30s(TaskRuntime rt) {
        if (!rt.close(Duration.ofSeconds(30))) {
            discrepancy("close() did not end the runtime's tasks within 30 s");
        }
    }

    private void join(Thread t) {
        try {
            t.join(HANG.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            discrepancy(t.getName() + " did not end within " + HANG.toSeconds() + " s");
        }
    }


    @Override
    public String toString() {
        return "round " + Long.toHexString(seed) + " " + config;
    }
}

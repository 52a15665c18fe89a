package dev.switchboard.stm;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.Dispatcher;
import dev.switchboard.spi.MessageProcessing;
import dev.switchboard.spi.Seam;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * An actor that processes many of its messages at once, each inside a transaction over {@link TRef}s, with the
 * outcome of processing them one at a time ([TxActors]): a message whose transaction conflicts with another's is
 * rolled back and run again. Its state lives in {@code TRef}s; {@code process} reads and writes them.
 *
 * <pre>{@code
 * final class Bank extends TransactionalActor<BankMsg> {
 *     private final List<TRef<Long>> accounts = ...;
 *
 *     protected void process(BankMsg m) {
 *         switch (m) {
 *             case Transfer t -> {                                  // a transaction
 *                 TRef<Long> from = accounts.get(t.from()), to = accounts.get(t.to());
 *                 from.set(from.get() - t.amount());
 *                 to.set(to.get() + t.amount());
 *             }
 *             case Audit a -> a.replyTo().reply(                     // read-only: one read-only transaction,
 *                     Stm.atomic(() -> accounts.stream().mapToLong(TRef::get).sum()));   // one snapshot
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Messages are <em>transactional</em> or <em>read-only</em> ({@link ReadOnly}, or {@link #isReadOnly}), and each
 * class waits in its own queue. A transactional message runs inside a transaction: what it sends and asks
 * ({@code ask}: the request is sent at the commit), the actors it stops ({@code stop}, {@code stopNow}), the
 * answers it gives ({@code ReplyTo.reply}), the actors it starts, the tasks it spawns ({@code async},
 * {@code asyncAwait}) and its {@code exit()} take effect once, when it commits, in the order it made them (the
 * starts and spawns first), never for an attempt that rolls back; it may not wait ({@code finish}, a blocking
 * {@code get} or {@code join}, an ask's included, {@code future}: an {@code IllegalStateException} says so); an
 * exception escaping it rolls it back and terminates the actor, reaching its finish as any actor's failure does
 * (from then on no message starts; those running beside it run to their end), and so does one of its
 * {@code Stm.afterCommit} handlers, after the commit, whose effects take place. A
 * read-only message runs outside the actor's transactions and may not write a {@code TRef}: to read several
 * references as one snapshot (an audit's sum) it opens a read-only transaction of its own, {@code Stm.atomic} around
 * {@code get()}s;
 * {@link TRef#directGet()} and {@link TRef#relaxedGet()} give each value on its own, and two of them may see a
 * transaction half done (see {@link TRef}).
 *
 * <p><b>Order.</b> The outcome is that of <em>some</em> one-at-a-time order, not necessarily the order the messages
 * were sent in: transactional messages start in the order they arrived but run at once, and commit in whatever
 * order their transactions do, so two messages from one sender may take effect in either order; and the two
 * classes wait in different queues, so a read-only message is not ordered after the transactional ones sent before
 * it. A sender that needs one message to take effect before another waits for the first's answer. An exit keeps
 * that outcome: a message that calls {@code exit()} commits only when it runs alone (its attempt is rolled back,
 * nothing new starts, and once the running messages have finished it runs again with nothing beside it), so it
 * sees everything that committed, and nothing commits after it; what has not started then is dead letters. So does
 * a transactional message's {@code self().stopNow()}; a read-only message's {@code exit()}, and a {@code stopNow()}
 * from outside, end the actor at once, and messages running then may commit after it.
 *
 * <p>In parallel, the messages run as tasks on the runtime's workers, at most {@link Settings#threads()} at once
 * (no thread is created for them): that many are split between the two classes, statically or, by default,
 * dynamically: every period the ratio of commits to rollbacks is compared with a threshold α, and the
 * transactional share is halved (contention) or doubled, never leaving either class less than a tenth while it has
 * work ({@link #stats()} shows the split and the counts). Unless α is given, a short profiling phase finds it first
 * ({@link Settings#profiledSplit}). The actor's finish ends only when every message it started has ended.
 *
 * <p><b>Where they run.</b> A message run in parallel pays for a task of its own and the turns around it, and it
 * gains nothing while every worker is busy with other actors. So the runtime chooses, as it does for a
 * readers-writer monitor's reads: it measures what a message takes, and while that is less than handing it to
 * another worker costs (a few microseconds), or a little more with no worker spare to take it, the messages run one
 * after another on the actor's worker, each still in a transaction of its own with everything above true; when
 * they are longer, or queue up while a worker is spare, they run in parallel. On a runtime of one worker they
 * always run one after another. Messages that wait for each other (a read-only message that waits for an answer
 * only a later message of this actor gives) would wait forever one after another: give such an actor
 * {@link Settings#withAlwaysParallel()}; and a read-only message that waits for anything holds up the actor's
 * other messages while they run one after another. While they do, the split does not apply, and the dynamic split
 * (its profiling too) skips those periods: they show no contention either way.
 *
 * <p>What does not apply: {@code pause()} and {@code awaitReply} (the dispatcher decides what runs; ask with
 * {@code ActorRef.ask} and send the answer to yourself instead), and {@code become} (messages run concurrently:
 * keep behavior in {@code TRef}s).
 *
 * @param <M> the type of message the actor accepts
 */
public abstract class TransactionalActor<M> extends Actor<M> {
    /*
     * Implementation notes. The actor is a plain Actor whose messages a DispatchPolicy (Policy below, bound through
     * the core's seam) starts: two queues, filled by arrival; each turn starts messages while their class has free
     * slots. A started message runs in its own task through Policy.process: a read-only one with the read-only
     * scope set (a TRef write fails); a transactional one as Stm.atomic around the actor's process, its attempts a
     * MessageAttempts, with a send interceptor installed for each attempt (a HeldEffects) that holds the attempt's
     * sends and exit(), replayed after the commit (the interceptor is closed by then, so they take effect). The
     * policy lets the runtime run the started messages inline (DispatchPolicy.mayRunInline, unless
     * Settings.alwaysParallel): then they run through the same Policy.process, one after another after the turn
     * that started them; and while it is idle, the runtime leaves its turns out (startsEachArrivalWhenIdle: idle,
     * it starts any arrival at once), so Policy.process sees those messages with a null ticket and classifies them
     * itself. The period's timer is started by the first turn, which always comes before: the runtime leaves a
     * policy out only once it has started a message. Counters are LongAdders, written by the message tasks; every
     * period the runtime's timer thread records a Sample and hands the counters' differences to the ThreadSplit,
     * which applies the paper's rule, and asks for a turn when the split changed. Every start goes through an
     * ExitOrder, which puts an exit after the messages running beside it (the message is started again, alone).
     */

    /**
     * How a transactional actor's messages share its threads. Made by {@link #defaults()}, {@link #profiledSplit},
     * {@link #staticSplit} or {@link #dynamicSplit}.
     *
     * @param threads            how many of its messages run at once, both classes together (at least 2)
     * @param dynamic            whether the split changes every period (false: {@code transactionalShare} for good)
     * @param transactionalShare the share of the threads the transactional messages start with (between 0 and 1)
     * @param period             how often the dynamic split looks at the commits and rollbacks
     * @param alpha              the commits per rollback below which the dynamic split halves the transactional
     *                           threads; NaN to find it by profiling
     * @param maxAttempts        how many times a transactional message runs before its transaction is given up
     * @param alwaysParallel     whether every message runs as a task of its own whatever it costs (false: the
     *                           runtime may run them one after another on the actor's worker while that is
     *                           cheaper; see {@link #withAlwaysParallel()})
     */
    public record Settings(int threads, boolean dynamic, double transactionalShare, Duration period, double alpha,
                           int maxAttempts, boolean alwaysParallel) {
        /**
         * Checks the settings.
         *
         * @throws IllegalArgumentException naming the setting that is out of range
         */
        public Settings {
            if (threads < 2) {
                throw new IllegalArgumentException("a transactional actor needs at least 2 threads (one per message"
                        + " class), got " + threads);
            }
            if (!(transactionalShare > 0 && transactionalShare < 1)) {
                throw new IllegalArgumentException("the transactional share must be between 0 and 1, got "
                        + transactionalShare);
            }
            Objects.requireNonNull(period, "period");
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("the period must be positive, got " + period);
            }
            if (!(alpha > 0) && !Double.isNaN(alpha)) {
                throw new IllegalArgumentException("alpha must be positive (or NaN: found by profiling), got " + alpha);
            }
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
            }
        }

        /**
         * Settings that let the runtime run the messages inline when that is cheaper (as every factory here does).
         *
         * @param threads            how many of its messages run at once, both classes together (at least 2)
         * @param dynamic            whether the split changes every period
         * @param transactionalShare the share of the threads the transactional messages start with
         * @param period             how often the dynamic split looks at the commits and rollbacks
         * @param alpha              the commits per rollback below which the dynamic split halves the transactional
         *                           threads; NaN to find it by profiling
         * @param maxAttempts        how many times a transactional message runs before its transaction is given up
         */
        public Settings(int threads, boolean dynamic, double transactionalShare, Duration period, double alpha,
                        int maxAttempts) {
            this(threads, dynamic, transactionalShare, period, alpha, maxAttempts, false);
        }

        /**
         * These settings, with every message run as a task of its own, in parallel with the others, whatever the
         * messages cost: for an actor whose messages wait for each other (a read-only message that waits for an
         * answer only a later message of the same actor gives, say), which one after another would wait forever.
         *
         * <pre>{@code
         * super(TransactionalActor.Settings.defaults().withAlwaysParallel());
         * }</pre>
         *
         * @return the same settings, always in parallel
         */
        public Settings withAlwaysParallel() {
            return new Settings(threads, dynamic, transactionalShare, period, alpha, maxAttempts, true);
        }

        /**
         * The defaults: 8 threads, split dynamically every second, with α found by profiling the first periods
         * ({@link #profiledSplit}).
         *
         * @return the default settings
         */
        public static Settings defaults() {
            return profiledSplit(8, Duration.ofSeconds(1));
        }

        /**
         * {@link #dynamicSplit} with α found by a short profiling phase: the first periods run the transactional
         * messages on 1, 2, 4, ... of the threads (up to the most they may have), one period each, measuring
         * commits and rollbacks; the level with the most commits, t*, is kept, and α is set between the commits
         * per rollback seen at t* and at the next level up (their geometric mean), so that the rule holds t* while
         * the contention stays as profiled: above it the ratio falls below α and the threads are halved, at t* it
         * does not. When t* is the top level, α is half its ratio; when no level rolled back, a tenth of the
         * smallest ratio that any period could show (1 / the commits of the best period). {@link #stats()} shows
         * α once found.
         *
         * @param threads how many of its messages run at once
         * @param period  how long each profiling step and each later period lasts
         * @return the settings
         */
        public static Settings profiledSplit(int threads, Duration period) {
            return new Settings(threads, true, 0.9, period, Double.NaN, Stm.DEFAULT_MAX_ATTEMPTS);
        }

        /**
         * {@code threads} split {@code transactionalShare : 1 - transactionalShare} for good (paper: 0.9).
         *
         * @param threads            how many of its messages run at once
         * @param transactionalShare the transactional messages' share of them
         * @return the settings
         */
        public static Settings staticSplit(int threads, double transactionalShare) {
            return new Settings(threads, false, transactionalShare, Duration.ofSeconds(1), 1, Stm.DEFAULT_MAX_ATTEMPTS);
        }

        /**
         * {@code threads} split 90:10 at first, then every {@code period}: halve the transactional threads when
         * commits per rollback fell below {@code alpha}, double them otherwise.
         *
         * @param threads how many of its messages run at once
         * @param period  how often the split is looked at
         * @param alpha   the commits per rollback below which the transactional threads are halved
         * @return the settings
         */
        public static Settings dynamicSplit(int threads, Duration period, double alpha) {
            return new Settings(threads, true, 0.9, period, alpha, Stm.DEFAULT_MAX_ATTEMPTS);
        }

        /** The least number of threads either class keeps while it has work: a tenth, at least one. */
        int floor() {
            return Math.max(1, (int) Math.ceil(threads / 10.0));
        }
    }

    /**
     * What the actor has done so far, and how its threads are split now.
     *
     * @param commits               transactions committed (one per transactional message processed)
     * @param rollbacks             attempts rolled back (conflicts, and transactions that failed; not the attempt of
     *                              an exit that rolled back to wait for the messages running beside it)
     * @param transactional         transactional messages processed
     * @param readOnly              read-only messages processed
     * @param transactionalThreads  the threads transactional messages may use now
     * @param readOnlyThreads       the threads read-only messages may use now
     * @param alpha                 the threshold of the dynamic split (NaN while it is being profiled; for a static
     *                              split, the value given, unused)
     */
    public record Stats(long commits, long rollbacks, long transactional, long readOnly, int transactionalThreads,
                        int readOnlyThreads, double alpha) {
    }

    private final Settings settings;
    private final LongAdder commits = new LongAdder();
    private final LongAdder rollbacks = new LongAdder();
    /** Transactional messages whose transaction failed (transactional messages processed: these and the commits). */
    private final LongAdder failedTransactions = new LongAdder();
    private final LongAdder readOnly = new LongAdder();
    private final ThreadSplit split;

    /** A transactional actor with the {@linkplain Settings#defaults() default settings}. */
    protected TransactionalActor() {
        this(Settings.defaults());
    }

    /**
     * A transactional actor whose messages share their threads as {@code settings} say.
     *
     * @param settings the threads, their split and the attempts a transaction may take
     */
    protected TransactionalActor(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.split = new ThreadSplit(settings);
        Seam.bind(this, new Policy());
    }

    /**
     * Whether {@code message} is read-only (see the class comment). By default, whether its type implements
     * {@link ReadOnly}. Called once per message, when it arrives or, while the actor is idle, when it runs; it must
     * not throw.
     *
     * @param message a message that arrived
     * @return whether it runs as a read-only message
     */
    protected boolean isReadOnly(M message) {
        return message instanceof ReadOnly;
    }

    /**
     * One period of the actor's life: when it ended ({@code System.nanoTime()}), the commits and rollbacks in it,
     * the messages of each class processed so far, and the transactional threads during it.
     *
     * @param atNanos              when the period ended ({@code System.nanoTime()})
     * @param commits              transactions committed in the period
     * @param rollbacks            attempts rolled back in the period
     * @param transactionalSoFar   transactional messages processed since the start
     * @param readOnlySoFar        read-only messages processed since the start
     * @param transactionalThreads the threads transactional messages could use during the period
     */
    public record Sample(long atNanos, long commits, long rollbacks, long transactionalSoFar, long readOnlySoFar,
                         int transactionalThreads) {
    }

    /** The most periods {@link #history()} keeps. */
    public static final int HISTORY = 1_024;

    private final ArrayDeque<Sample> history = new ArrayDeque<>();

    private void record(Sample s) {
        synchronized (history) {
            if (history.size() == HISTORY) {
                history.removeFirst();
            }
            history.addLast(s);
        }
    }

    /**
     * Throughput and rollbacks over time: one sample per period ({@link Settings#period()}), the most recent
     * {@value #HISTORY}, oldest first; readable from any thread ([TxActors] Figs. 3–6 plot these).
     *
     * @return the samples, oldest first
     */
    public final List<Sample> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    /**
     * The counts and the current split; readable from any thread.
     *
     * @return the counts so far
     */
    public final Stats stats() {
        int tx = split.transactionalThreads();
        long c = commits.sum();
        return new Stats(c, rollbacks.sum(), c + failedTransactions.sum(), readOnly.sum(), tx,
                settings.threads() - tx, split.alpha());
    }

    /**
     * The settings it was created with.
     *
     * @return its settings
     */
    public final Settings settings() {
        return settings;
    }

    /** What kind of transaction a message's processing is, for the engine's guess that it only reads. */
    private static Class<?> kindOf(Object message) {
        return message == null ? Object.class : message.getClass();
    }

    /** The two classes of message, and the tickets their started messages carry. */
    private enum Kind { TRANSACTIONAL, READ_ONLY }

    /** Whether {@code actor} is this actor: the exit a {@link HeldEffects} holds is its own actor's. */
    final boolean isSelf(ActorRef<?> actor) {
        return actor.equals(self());
    }

    /** Exits, as {@code exit()} does: the held exit of a committed attempt ({@link HeldEffects#commit()}). */
    final void exitCommitted() {
        exit();
    }

    private final class Policy implements DispatchPolicy {
        private final ArrayDeque<Object> transactionalQueue = new ArrayDeque<>();
        private final ArrayDeque<Object> readOnlyQueue = new ArrayDeque<>();
        private int runningTransactional;
        private int runningReadOnly;
        private Dispatcher dispatcher;
        private ScheduledFuture<?> timer;
        private long lastCommits;
        private long lastRollbacks;
        private final ExitOrder exitOrder = new ExitOrder();
        /** Once the actor has terminated: where a message whose exit waited goes when it reports. */
        private Consumer<Object> deadLetters;

        @Override
        public void bound(ActorRef<?> actor, Dispatcher d) {
            dispatcher = d;
        }

        @Override
        public void arrived(Object envelope, Object message, int mailbox) {
            (kind(message) == Kind.READ_ONLY ? readOnlyQueue : transactionalQueue).add(envelope);
        }

        /** The class of {@code message} ({@link #isReadOnly}). */
        @SuppressWarnings("unchecked")
        private Kind kind(Object message) {
            return isReadOnly((M) message) ? Kind.READ_ONLY : Kind.TRANSACTIONAL;
        }

        @Override
        public void turn() {
            if (timer == null) {                         // every period: the history, and the dynamic split
                timer = dispatcher.scheduleAtFixedRate(settings.period(), this::adjust);
            }
            Object alone = exitOrder.startAlone(runningTransactional + runningReadOnly);
            if (alone != null) {                         // an exit waited for the others: it runs now, alone
                runningTransactional++;
                dispatcher.start(alone, new ExitOrder.Started(alone, true));
                return;
            }
            int tx = split.transactionalThreads();
            int ro = settings.threads() - tx;
            // a class without work lends its threads to the other, down to the other's floor
            if (readOnlyQueue.isEmpty() && runningReadOnly == 0) {
                tx = settings.threads();
            } else if (transactionalQueue.isEmpty() && runningTransactional == 0) {
                ro = settings.threads();
            }
            while (!transactionalQueue.isEmpty() && runningTransactional < tx && exitOrder.mayStart()) {
                runningTransactional++;
                Object envelope = transactionalQueue.poll();
                dispatcher.start(envelope, new ExitOrder.Started(envelope, false));
            }
            while (!readOnlyQueue.isEmpty() && runningReadOnly < ro && exitOrder.mayStart()) {
                runningReadOnly++;
                dispatcher.start(readOnlyQueue.poll(), Kind.READ_ONLY);
            }
        }

        /** Every period, on the timer thread: the history, then the paper's rule (§4.1) and a turn to apply it. */
        private void adjust() {
            long c = commits.sum();
            long r = rollbacks.sum();
            long dc = c - lastCommits;
            long dr = r - lastRollbacks;
            lastCommits = c;
            lastRollbacks = r;
            record(new Sample(System.nanoTime(), dc, dr, c + failedTransactions.sum(), readOnly.sum(),
                    split.transactionalThreads()));
            // Messages that run one after another neither conflict nor use the split: such a period says nothing
            // about contention, and is neither profiled nor ruled on (the runtime's latest choice, read racily).
            if (settings.dynamic() && !dispatcher.runsInline() && split.periodEnded(dc, dr)) {
                dispatcher.requestTurn();
            }
        }

        @Override
        public Object process(MessageProcessing processing) {
            Object ticket = processing.ticket();
            if (ticket == null) {                         // the policy was left out: classify it here
                ticket = kind(processing.message());
            }
            if (ticket == Kind.READ_ONLY) {
                Object previous = ReadOnlyScope.enter(TransactionalActor.this, processing.message());
                try {
                    processing.process();
                } finally {
                    ReadOnlyScope.exit(previous);
                    readOnly.increment();
                }
                return null;
            }
            MessageAttempts attempts = new MessageAttempts(TransactionalActor.this, processing,
                    ticket instanceof ExitOrder.Started started ? started : null);
            Throwable handlerFailure = null;
            try {
                Transaction.current().runKeepingCommit(settings.maxAttempts(), attempts, kindOf(processing.message()));
            } catch (Transaction.CommitHandlerFailed committed) {
                handlerFailure = committed.getCause();   // committed: its effects go out, then the actor fails
            } catch (ExitOrder.Wait wait) {
                attempts.dropLast();                     // started again, alone, once the others have finished
                if (attempts.count > 1) {                // conflicts before it: the wait is not one
                    rollbacks.add(attempts.count - 1);
                }
                return ExitOrder.WAITED;
            } catch (RuntimeException | Error failure) {
                rollbacks.add(attempts.count);             // every attempt rolled back, the last one with the failure
                failedTransactions.increment();
                attempts.dropLast();
                if (failure instanceof TransactionConflictException conflict) {
                    throw named(conflict, processing.message());
                }
                throw failure;
            }
            commits.increment();
            if (attempts.count > 1) {
                rollbacks.add(attempts.count - 1);
            }
            attempts.last.commit();
            if (handlerFailure != null) {
                throw Transaction.sneaky(handlerFailure);
            }
            return attempts.count;
        }

        /** {@code conflict}, saying whose message's transaction it was (the message's class, not its contents). */
        private TransactionConflictException named(TransactionConflictException conflict, Object message) {
            String type = message.getClass().getSimpleName();
            TransactionConflictException named = new TransactionConflictException("the transaction of a "
                    + (type.isEmpty() ? message.getClass().getName() : type) + " message of "
                    + TransactionalActor.this + ": "
                    + conflict.getMessage(), conflict.attempts());
            named.setStackTrace(conflict.getStackTrace());
            return named;
        }

        @Override
        public void finished(Object ticket, Object result, Throwable failure) {
            if (ticket == Kind.READ_ONLY) {
                runningReadOnly--;
            } else {
                runningTransactional--;
            }
            exitOrder.finished(ticket, result);
            if (deadLetters != null) {                   // terminated: an exit that waited will not run again
                exitOrder.waiting().forEach(deadLetters);
                exitOrder.waiting().clear();
            }
        }

        @Override
        public void terminated(Consumer<Object> deadLetters) {
            this.deadLetters = deadLetters;
            if (timer != null) {
                timer.cancel(false);
            }
            exitOrder.waiting().forEach(deadLetters);
            exitOrder.waiting().clear();
            transactionalQueue.forEach(deadLetters);
            readOnlyQueue.forEach(deadLetters);
            transactionalQueue.clear();
            readOnlyQueue.clear();
        }

        @Override
        public int held() {
            return transactionalQueue.size() + readOnlyQueue.size() + exitOrder.waiting().size();
        }

        /** Transactional messages running: one whose exit waits comes back to be started again alone. */
        @Override
        public int returning() {
            return runningTransactional;
        }

        @Override
        public boolean mayRunInline() {
            return !settings.alwaysParallel();
        }

        /** Idle, a turn starts any arrival at once: each class has a free thread. */
        @Override
        public boolean startsEachArrivalWhenIdle() {
            return true;
        }

        @Override
        public String toString() {
            return "the transactional dispatcher of " + TransactionalActor.this;
        }
    }
}

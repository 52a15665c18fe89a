package dev.switchboard.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A runtime's watchdog thread: its periodic look at the workers. Owns the thread, its periods and the count of its
 * looks ({@link #lookEpoch}); writes the scheduler's rough clock ({@link Scheduler#roughNanoTime()}). May touch:
 * the workers' handoff buffers (it moves those of a worker that makes no progress to the shared queue), their
 * progress and work counters (read only), the shared queue's pump, {@link SpreadingTrials}, which it feeds, and,
 * while a JFR recording runs, whether messages are sampled ({@link JfrHook#look}).
 */
final class Watchdog {
    /** How often the watchdog looks for workers holding hidden handoffs while making no progress. */
    static final long WATCHDOG_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * How often it looks while some worker has short turns it could spread to an idle worker
     * ({@link SpreadRule#sawShortTurnChance}): activations held back wait for it if the turn running now is a long one,
     * and its looks time {@link SpreadingTrials}.
     */
    static final long HOLDING_WATCHDOG_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Scheduler scheduler;
    private final Thread thread;
    /**
     * The watchdog's looks so far (written by the watchdog only): a worker closes its window of votes
     * ({@link TurnVotes#vote}) at its first vote after this changes, and publishes it only if it is of the look
     * before, so that the windows the watchdog sums cover about one look each.
     * Volatile so that a worker sees a new look within a vote or two; a vote reads it once per
     * {@value Worker#VOTE_PERIOD} turns, and on x86 a volatile read costs what a plain one does.
     */
    private volatile int lookEpoch;

    Watchdog(Scheduler scheduler) {
        this.scheduler = scheduler;
        this.thread = Thread.ofPlatform().daemon().name(scheduler.name() + "-watchdog").unstarted(this::watch);
    }

    void start() {
        thread.start();
    }

    /**
     * Once the pool is shut down: wakes the watchdog, which then ends, and waits up to {@code millis} for it (not
     * when called by the watchdog itself); returns whether it has ended.
     */
    boolean awaitEnd(long millis) throws InterruptedException {
        if (Thread.currentThread() == thread) {
            return true;                 // it ends once this look returns
        }
        LockSupport.unpark(thread);
        thread.join(millis);
        return !thread.isAlive();
    }

    /** The watchdog's looks so far (see {@link #lookEpoch}). */
    int lookEpoch() {
        return lookEpoch;
    }

    /**
     * For tests: the work the workers have counted so far ({@link Worker#work}), the work of their votes in the
     * windows they closed ({@link TurnVotes#vote}), and the part of it that each window's leading node did.
     */
    long[] workCounts() {
        long work = 0;
        long voted = 0;
        long leading = 0;
        for (Worker w : scheduler.workers) {
            work += w.work();
            leading += w.votes.leadingWork();
            voted += w.votes.votedWork();
        }
        return new long[] {work, voted, leading};
    }

    /**
     * The watchdog: every period ({@value #WATCHDOG_PERIOD_NANOS} ns; {@value #HOLDING_WATCHDOG_PERIOD_NANOS} ns
     * while a worker has short turns it could spread to an idle worker, see {@link SpreadRule#sawShortTurnChance}), it
     * advances {@link Scheduler#roughNanoTime()}, and any worker that has activations in its handoff buffer and has
     * started no node since the previous look (it is blocked in user code, or running one long message) loses them
     * to the shared queue, where the other workers pick them up. Each look also tells {@link SpreadingTrials} how
     * much work the workers have done, which decides whether short turns are spread. Bounds how long a handed-off
     * message can wait behind a busy or blocked worker, and rules out deadlock when a worker blocks waiting for
     * work it handed to itself. With one worker, and no thread the pool added while another waits, there is nobody
     * else to run them, so it leaves the buffers alone. It also submits a pump for the shared queue when entries
     * wait and none is pending (the pool refused the last one). It allocates nothing per look unless it submits a
     * pump, and survives any failure of its own (an OutOfMemoryError, say): it must outlive the program's troubles
     * to be of use.
     */
    private void watch() {
        Scheduler s = scheduler;
        Clock clock = s.clock();
        boolean chances = false;
        while (!s.pool.isShutdown()) {
            LockSupport.parkNanos(this, chances ? HOLDING_WATCHDOG_PERIOD_NANOS : WATCHDOG_PERIOD_NANOS);
            long real = Clock.system().nanoTime();            // the trials time the workers' real work
            long now = clock == Clock.system() ? real : clock.nanoTime();
            s.roughNanos(now);
            lookEpoch++;                          // the only writer: the workers' windows of votes close
            chances = false;
            JfrHook.look();                       // while a recording runs: is the sampled message event on?
            try {
                s.hangs.lookForStalls(real);      // real time: a test's clock moved by a minute stalls nothing
                s.hangs.logFailuresOfOpenFinishes(now);
            } catch (Throwable t) {
                // a report that could not be made (no memory): looked for again at the next look
            }
            try {
                if (!s.runQueue.isEmpty()) {
                    s.runQueue.signal(false);     // a pump the pool refused (out of memory) is submitted again
                }
            } catch (Throwable t) {
                // refused again: retried at the next look
            }
            if (s.parallelism() == 1 && s.workers.size() < 2) {
                continue;                         // nobody else to run them (the pool may add threads later)
            }
            try {
                long work = 0;
                long voted = 0;
                long leading = 0;
                for (Worker w : s.workers) {
                    long p = w.progress();
                    if (w.watchdogSeen == p) {
                        if (s.concentration.owns(w) && (!s.runQueue.isEmpty() || w.hasBuffered())) {
                            s.concentration.revoke(w);   // before the steal: the stolen entries need a new owner
                        }
                        if (w.hasBuffered()) {
                            w.stealBuffered();
                        }
                    }
                    w.watchdogSeen = p;
                    work += w.work();
                    leading += w.votes.leadingWork();   // first: see TurnVotes#votedWork
                    voted += w.votes.votedWork();
                    if (w.spreadRule.takeChance()) {
                        chances = true;
                    }
                }
                if (s.concentration.on() && s.concentration.held() && !s.runQueue.isEmpty()) {
                    chances = true;               // look again soon: an owner in a long turn loses its actors (R6)
                }
                s.spreading.trials().look(real, work, chances, voted, leading);
            } catch (Throwable t) {
                // keep watching; what failed (an allocation, most likely) is retried at the next look
            }
        }
    }
}

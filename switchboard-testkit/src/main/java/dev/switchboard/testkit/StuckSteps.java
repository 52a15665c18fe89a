package dev.switchboard.testkit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The schedule explorer's watchdog: a step that has run for {@link #after} of real time is a turn that waits for
 * something only another thread could give (a {@code CompletableFuture} of the program's own, a lock, a queue),
 * which never comes, since only the test's thread runs the program. It is told once, in the log, with the step and
 * where the thread waits, and the thread is interrupted (which ends an interruptible wait; {@code join()} is not
 * one, and the test then hangs with that line in its log).
 *
 * <p>One daemon thread for every explorer of the JVM, started by the first step that registers and looking every
 * {@value #LOOK_MILLIS} ms at the steps running; a step that ends is taken off. Real time, not the run's clock: the
 * run's clock stands still while a step runs.
 */
final class StuckSteps {
    /** How often the watchdog looks. */
    static final long LOOK_MILLIS = 100;
    private static final System.Logger LOG = System.getLogger("dev.switchboard.testkit");
    private static final Set<Step> RUNNING = ConcurrentHashMap.newKeySet();
    private static volatile long after = TimeUnit.SECONDS.toNanos(10);
    private static Thread watchdog;

    private StuckSteps() {
    }

    /** A step running on a thread, since a moment of real time: its number and what it runs. */
    static final class Step {
        final Thread thread = Thread.currentThread();
        final int number;
        final String what;
        final long startedAt = System.nanoTime();
        boolean told;

        Step(int number, String what) {
            this.number = number;
            this.what = what;
        }
    }

    /** For the tests: how long a step may run before it is told (default 10 s). */
    static void after(long nanos) {
        after = nanos;
    }

    /** Step {@code number}, running {@code what}, starts on this thread; {@link #ended} takes it off. */
    static Step started(int number, String what) {
        Step s = new Step(number, what);
        RUNNING.add(s);
        ensureWatchdog();
        return s;
    }

    static void ended(Step s) {
        RUNNING.remove(s);
    }

    private static synchronized void ensureWatchdog() {
        if (watchdog == null) {
            watchdog = Thread.ofPlatform().daemon().name("schedule-explorer-watchdog").start(StuckSteps::watch);
        }
    }

    private static void watch() {
        for (;;) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LOOK_MILLIS));
            long now = System.nanoTime();
            for (Step s : RUNNING) {
                if (!s.told && now - s.startedAt >= after) {
                    s.told = true;
                    tell(s, now);
                }
            }
        }
    }

    private static void tell(Step s, long now) {
        StringBuilder where = new StringBuilder();
        for (StackTraceElement e : s.thread.getStackTrace()) {
            where.append("\n    at ").append(e);
        }
        LOG.log(System.Logger.Level.WARNING, "schedule explorer: step " + s.number + " (" + s.what + ") has run"
                + " for " + Texts.duration(java.time.Duration.ofNanos(now - s.startedAt)) + " on thread '" + s.thread.getName()
                + "' (" + s.thread.getState() + "): a turn that waits for what only another thread could give (a"
                + " CompletableFuture of its own, a lock, a queue) never ends here, since only this thread runs the"
                + " program; it is interrupted now. It waits in:" + where);
        s.thread.interrupt();
    }
}

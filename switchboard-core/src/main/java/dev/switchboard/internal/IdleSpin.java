package dev.switchboard.internal;

import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Idle workers: how long one that ran out of work spins for more before it returns to the pool, which parks it
 * ({@code TaskRuntime.Builder.idleSpin}), the spin itself, and whether some worker is idle so that work made
 * stealable now would run sooner (the waking side of the spreading rule). Owns the count of spinning workers and
 * of their finds. May touch: the shared queue and the workers' deques (it takes from them), and the pool's count of
 * active workers (read only).
 */
final class IdleSpin {
    private final Scheduler scheduler;
    private final ForkJoinPool pool;
    private final int parallelism;
    /** How long a worker out of work looks for more before it parks (0: not at all); see {@link #spin}. */
    final long nanos;
    /** Workers in {@link #spin} now: idle for the spreading rules, active for the pool. */
    private final AtomicInteger spinning = new AtomicInteger();
    /** Times a spinning worker found work, for tests and diagnostics. */
    private final LongAdder finds = new LongAdder();

    IdleSpin(Scheduler scheduler, ForkJoinPool pool, int parallelism, long nanos) {
        this.scheduler = scheduler;
        this.pool = pool;
        this.parallelism = parallelism;
        this.nanos = nanos;
    }

    /**
     * Whether some worker is idle (parked, about to park, or spinning for work), so that work made stealable now
     * would run sooner.
     */
    boolean idleWorkers() {
        int active = pool.getActiveThreadCount();
        return active < parallelism || (nanos != 0 && active - spinning.get() < parallelism);
    }

    /**
     * For {@link Worker#spinForWork}, on worker {@code w}, which has checked that it may spin: looks for work — the
     * shared queue, then any worker's deque — until {@link #nanos} has passed without finding any, and runs what
     * it finds. Meanwhile the pool counts this worker as active (a fork does not try to wake it) and the spreading
     * rules count it as idle (they make work stealable for it).
     */
    void spin(Worker w) {
        long spin = nanos;
        started();
        try {
            long deadline = Clock.system().nanoTime() + spin;     // pacing: real time (see Clock)
            while (!scheduler.isClosed()) {
                Node h = scheduler.pollShared();
                ForkJoinTask<?> t = h == null ? Node.pollAnyTask() : null;
                if (h == null && t == null) {
                    if (Clock.system().nanoTime() - deadline >= 0) {
                        return;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                found();
                if (h == null && !(t instanceof CountedCompleter<?>)) {
                    t.fork();                    // not one of the runtime's tasks: the pool runs it
                    return;
                }
                ended();                         // busy while it runs what it found
                try {
                    if (h != null) {
                        w.runChain(h);
                    } else {
                        ((CountedCompleter<?>) t).compute();   // the runtime's own tasks catch everything
                    }
                } finally {
                    started();
                }
                deadline = Clock.system().nanoTime() + spin;
            }
        } finally {
            ended();
        }
    }

    void started() {
        spinning.incrementAndGet();
    }

    void ended() {
        spinning.decrementAndGet();
    }

    void found() {
        finds.increment();
    }

    /** Workers spinning for work now. */
    int spinningWorkers() {
        return spinning.get();
    }

    /** Times a spinning worker found work so far. */
    long finds() {
        return finds.sum();
    }
}

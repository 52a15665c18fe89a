package dev.switchboard.internal;

import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Idle workers: how long one that ran out of work spins for more before it returns to the pool, which parks it
 * ({@code TaskRuntime.Builder.idleSpin}, or a while after parallel work was expected), the spin itself, and whether
 * some worker is idle so that work made stealable now would run sooner (the waking side of the spreading rule).
 * Owns the count of spinning workers and of their finds, and the window of expected work. May touch: the shared
 * queue and the workers' deques (it takes from them), and the pool's count of active workers (read only).
 */
final class IdleSpin {
    /*
     * Implementation notes.
     *
     * A worker spins for one of two reasons. A runtime built with an idle spin has every worker that runs out of
     * work spin for that long. And whatever it was built with, a runtime of several workers has them spin while
     * parallel work is expected: an actor whose messages run in parallel (a monitor's reads, started beside one
     * another) says so at each such start (expectWork), which opens or extends a window of EXPECTED_WORK_NANOS.
     * Such an actor's parallel stretches are cut by messages that run alone (a write), during which the other
     * worker has nothing to do; parked, it takes tens of microseconds to wake (decision 004), longer than the
     * next stretch of reads lasts, so the second core would never come back in time. The window ends on its own
     * once the actor stops starting messages in parallel, so a runtime spins only while such work goes on. At
     * most EXPECTED_WORK_SPINNERS workers spin for it at a time (a racy check: rarely one more): they take the
     * first messages forked after the exclusive one, and the pool wakes others for the rest as usual, so that on a
     * machine of many cores one actor's windows keep two cores busy, not all the idle ones. Two, not one: on two
     * workers both may be idle between two requests, and one that parks then is not back for the next batch.
     *
     * The two spins differ in what others make of the spinner. The pool counts either as active (a fork does not
     * try to wake it), and a policy forks its messages from about 1 µs on while a worker spins (LetterLength).
     * The spreading rules count a worker of a configured spin as idle, and make buffered activations stealable
     * for it; one that spins for expected work they count as busy, so that an actor's parallel messages do not
     * also move the runtime's other actors about (idleWorkers): the spin is for those messages.
     *
     * expectedUntil is a deadline on the system clock's nanoTime (pacing, not the runtime's clock: a test's manual
     * clock must not stop a worker's spin from ending). It is volatile so that an idle worker sees a new window at
     * once; writers race (a plain read, then a write), and a lost extension only ends one spin early: the next
     * start extends it again. It is written only when it moves by a quarter window or more (so a spin lasts
     * between three quarters of the window and all of it after the last start), so the actor's turns, which call
     * expectWork for every message they start in parallel, mostly only read a line that stays shared. Every
     * worker asks at every chain's end whether to spin; `expecting`, cleared by the first to find the window
     * passed, answers that without a clock read while no work is expected (a clearing that races with a new
     * window is undone by the next expectWork).
     */
    /** How long workers spin after parallel work was last expected ({@link #expectWork}). */
    static final long EXPECTED_WORK_NANOS = 50_000;
    /** How many workers at most spin for expected work at a time. */
    static final int EXPECTED_WORK_SPINNERS = 2;
    private final Scheduler scheduler;
    private final ForkJoinPool pool;
    private final int parallelism;
    /** How long a worker out of work looks for more before it parks (0: not at all); see {@link #spin}. */
    final long nanos;
    /** Until when idle workers spin because parallel work is on its way (see the notes); in the past: none. */
    private volatile long expectedUntil = Clock.system().nanoTime();
    /** Whether {@link #expectedUntil} may still lie ahead: false spares the workers a clock read at every chain end. */
    private volatile boolean expecting;
    /** Workers in {@link #spin} now: active for the pool; idle for the spreading rules under a configured spin. */
    private final AtomicInteger spinning = new AtomicInteger();
    /** Times the expected work's window was opened or extended ({@link #expectWork}), for tests and diagnostics. */
    private final LongAdder expectations = new LongAdder();
    /** Times a spinning worker found work, for tests and diagnostics. */
    private final LongAdder finds = new LongAdder();

    IdleSpin(Scheduler scheduler, ForkJoinPool pool, int parallelism, long nanos) {
        this.scheduler = scheduler;
        this.pool = pool;
        this.parallelism = parallelism;
        this.nanos = nanos;
    }

    /**
     * Whether some worker is idle (parked, about to park, or spinning for work in a runtime built with an idle
     * spin), so that work made stealable now would run sooner.
     */
    boolean idleWorkers() {
        int active = pool.getActiveThreadCount();
        return active < parallelism || (nanos != 0 && active - spinning.get() < parallelism);
    }

    /**
     * Parallel work is on its way: for up to the next {@link #EXPECTED_WORK_NANOS}, a worker that runs out of work
     * spins for more (two at most), as if the runtime had been built with an idle spin. Called by the turn of an actor
     * that runs its messages in parallel (a monitor's reads) each time it starts one beside another: between two
     * batches of such messages (a write runs alone) the other worker would otherwise park, and the next batch would be
     * done before it woke.
     */
    void expectWork() {
        long until = Clock.system().nanoTime() + EXPECTED_WORK_NANOS;   // pacing: real time (see Clock)
        if (until - expectedUntil > EXPECTED_WORK_NANOS / 4) {
            expectedUntil = until;      // written at most every quarter window: a shared line, written rarely
            expectations.increment();
        }
        if (!expecting) {
            expecting = true;           // after expectedUntil: who sees the flag sees the window
        }
    }

    /**
     * Whether a worker that runs out of work spins now: an idle spin is configured, or work is expected and fewer
     * than {@link #EXPECTED_WORK_SPINNERS} workers spin.
     */
    boolean spinsNow() {
        if (nanos != 0) {
            return true;
        }
        if (!expecting || spinning.get() >= EXPECTED_WORK_SPINNERS) {
            return false;               // the common case: no clock read
        }
        if (expectedUntil - Clock.system().nanoTime() > 0) {
            return true;
        }
        expecting = false;              // the window has passed; a racing expectWork sets it again at its next call
        return false;
    }

    /**
     * For {@link Worker#spinForWork}, on worker {@code w}, which has checked that it may spin ({@link #spinsNow}):
     * looks for work — the shared queue, then any worker's deque — and runs what it finds, until {@link #nanos}
     * has passed without finding any and no work is expected ({@link #expectWork}). Meanwhile the pool counts this
     * worker as active (a fork does not try to wake it); the spreading rules count it as idle (they make work
     * stealable for it) if the runtime was built with an idle spin.
     */
    void spin(Worker w) {
        started();
        try {
            long idleSince = Clock.system().nanoTime();          // pacing: real time (see Clock)
            while (!scheduler.isClosed()) {
                Node h = scheduler.runQueue.poll();
                ForkJoinTask<?> t = h == null ? Node.pollAnyTask() : null;
                if (h == null && t == null) {
                    long now = Clock.system().nanoTime();
                    if (now - idleSince >= nanos && now - expectedUntil >= 0) {
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
                idleSince = Clock.system().nanoTime();
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

    /** Times the expected work's window was opened or extended so far. */
    long expectations() {
        return expectations.sum();
    }

    /** Times a spinning worker found work so far. */
    long finds() {
        return finds.sum();
    }
}

package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.Dispatcher;
import org.apache.pekko.dispatch.MessageDispatcher;

/**
 * Waits, between timed runs, until no runtime has work left over: Pekko detaches a stopped actor from its
 * dispatcher a little after {@code postStop}, and its own actors (on the internal dispatcher) hear of the stops
 * after that; with two cores any leftover work would be charged to the next run, whichever side it is. A runtime
 * still busy after ten seconds is stuck (a Pekko side that timed out leaves its actors, and maybe a spinning pool
 * thread, behind): every figure measured beside it would be disturbed, so the wait fails, naming it, and the
 * benchmark fails instead of reporting such figures.
 *
 * <p>{@link #requireNoneSpinning} looks at the Pekko systems' and the Switchboard runtime's threads
 * ({@link SpinningThreads}), once a benchmark's runs are over: a thread that keeps a core busy with no actor of a
 * run left (a Pekko pool worker the JDK's {@code ForkJoinPool} left spinning, which would not stop by waiting)
 * fails the benchmark, naming it. Once per benchmark, not after every run: a look pauses 20 ms, in which every
 * worker parks.
 */
final class Quiescence {
    /** Pekko's dispatcher for its own actors (the guardians, death watch, the scheduler's ticks). */
    static final String INTERNAL_DISPATCHER = "pekko.actor.internal-dispatcher";
    /** How long a runtime may stay busy after a run before it counts as stuck. */
    static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Spins before the wait starts to park between looks (most runtimes are quiescent within microseconds). */
    private static final int SPINS = 1_000;
    private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final TaskRuntime switchboard;
    /** The share of a core an idle runtime's thread must use to count as spinning (lower in tests on a busy machine). */
    double spinShare = SpinningThreads.SHARE;
    private final ForkJoinPool pool;
    private final List<String> names = new ArrayList<>();
    private final List<ActorSystem> systems = new ArrayList<>();
    private final List<MessageDispatcher> dispatchers = new ArrayList<>();
    /** Per dispatcher, how many (system) actors it has when no benchmark's actor is left. */
    private final List<Long> baselines = new ArrayList<>();
    /**
     * Per system, the pool of its internal dispatcher (null if that is not a fork-join pool): work of a run's actors
     * goes on there after they are detached (their stopping, reported to Pekko's own actors).
     */
    private final List<ForkJoinPool> internalPools = new ArrayList<>();

    /**
     * Records the baselines of {@code systems}: create it when none of their benchmark actors exist. {@code pool}
     * may be null (no ForkJoinPool side).
     */
    Quiescence(TaskRuntime switchboard, Collection<ActorSystem> systems, ForkJoinPool pool) {
        this.switchboard = switchboard;
        this.pool = pool;
        for (ActorSystem system : systems) {
            MessageDispatcher d = (MessageDispatcher) system.dispatcher();
            names.add("the Pekko system " + system.name());
            this.systems.add(system);
            dispatchers.add(d);
            baselines.add(d.inhabitants());
            internalPools.add(forkJoinPoolOf(system.dispatchers().lookup(INTERNAL_DISPATCHER)));
        }
    }

    /** The fork-join pool {@code dispatcher} runs its mailboxes on, or null if it runs them elsewhere. */
    static ForkJoinPool forkJoinPoolOf(MessageDispatcher dispatcher) {
        return dispatcher instanceof Dispatcher d && d.executorService().executor() instanceof ForkJoinPool pool
                ? pool : null;
    }

    /**
     * Waits until every runtime is quiescent.
     *
     * @throws IllegalStateException naming what is still busy, if something still is after {@code limitNanos}
     */
    void await(long limitNanos) {
        long deadline = System.nanoTime() + limitNanos;
        for (int looks = 0; ; looks++) {
            String busy = busy();
            if (busy == null) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException(busy + " still had work " + limitNanos / 1_000_000
                        + " ms after the run ended: it is stuck, and what runs beside it would be measured"
                        + " on a machine it shares");
            }
            if (looks < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NANOS);      // not a core of the two the runtimes need
            }
        }
    }

    /**
     * The Pekko systems that still have actors of a run (a side that timed out leaves them behind), or a thread
     * that spins with no work.
     */
    List<ActorSystem> busyPekkoSystems() {
        List<ActorSystem> busy = new ArrayList<>();
        for (int i = 0; i < dispatchers.size(); i++) {
            if (dispatchers.get(i).inhabitants() > baselines.get(i)
                    || !SpinningThreads.among(systems.get(i).name() + "-", spinShare).isEmpty()) {
                busy.add(systems.get(i));
            }
        }
        return busy;
    }

    /**
     * Looks, when no runtime has work, for a thread of one that keeps a core busy anyway.
     *
     * @throws IllegalStateException naming the runtime and the thread, if one does
     */
    void requireNoneSpinning() {
        String spinning = spinning();
        if (spinning != null) {
            throw new IllegalStateException(spinning + " kept a core busy after the benchmark's last run, with no"
                    + " actor of a run left: a pool thread that spins, or work of the runs that the wait between"
                    + " them does not see; either way what ran beside it was measured on a machine it shares");
        }
    }

    /** The first runtime with a thread that keeps a core busy although nothing has work, named with it; or null. */
    private String spinning() {
        for (int i = 0; i < systems.size(); i++) {
            List<String> threads = SpinningThreads.among(systems.get(i).name() + "-", spinShare);
            if (!threads.isEmpty()) {
                return names.get(i) + " (its thread " + threads.get(0) + ")";
            }
        }
        List<String> threads = SpinningThreads.among(switchboard.name() + "-worker-", spinShare);
        return threads.isEmpty() ? null : "the Switchboard runtime (its thread " + threads.get(0) + ")";
    }

    /** What still has work left over, or null if nothing has. */
    private String busy() {
        for (int i = 0; i < dispatchers.size(); i++) {
            long extra = dispatchers.get(i).inhabitants() - baselines.get(i);
            if (extra > 0) {
                return names.get(i) + " (" + extra + (extra == 1 ? " actor" : " actors")
                        + " of the run not yet detached)";
            }
            ForkJoinPool internal = internalPools.get(i);
            if (internal != null && !internal.isQuiescent()) {
                return names.get(i) + " (work on its internal dispatcher)";
            }
        }
        if (!switchboard.isQuiescent()) {
            return "the Switchboard runtime";
        }
        if (pool != null && !pool.isQuiescent()) {
            return "the ForkJoinPool";
        }
        return null;
    }
}

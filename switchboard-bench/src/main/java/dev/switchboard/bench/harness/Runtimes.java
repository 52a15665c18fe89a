package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import scala.concurrent.Await;

/**
 * The runtimes of a harness run, created once and shared by every benchmark: one Switchboard runtime, one Pekko
 * actor system per configuration asked for, and one {@code new ForkJoinPool(workers)}, all with the same number
 * of workers. Runs a benchmark once on one side, and waits, untimed, until none of them has work left over.
 */
final class Runtimes implements AutoCloseable {
    /** How long a stuck Pekko system's threads get to end once it has terminated, before it counts as lost. */
    static final long THREADS_END_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long a stuck Pekko system gets to terminate before it counts as lost (shorter in tests). */
    long terminateNanos = TimeUnit.SECONDS.toNanos(30);

    private final TaskRuntime switchboard;
    private final Map<Side, ActorSystem> pekko = new EnumMap<>(Side.class);
    private final ForkJoinPool pool;
    private final int workers;
    private final int budget;
    private Quiescence quiescence;
    /** The share of a core an idle runtime's thread must use to count as spinning ({@link #spinShare(double)}). */
    private double spinShare = SpinningThreads.SHARE;
    /**
     * Why a stuck Pekko system could not be replaced (it did not terminate, a thread of it kept running, or its
     * replacement could not be created), or null. Once set, every later wait fails with it: a terminated system
     * no longer counts as busy, so the wait alone would not see what it left running.
     */
    private IllegalStateException lost;

    /**
     * Starts the runtimes: Switchboard with {@code workers} workers, throughput budget {@code budget} and idle
     * spin {@code idleSpin}, and a Pekko system for each of {@code pekkoSides} ({@link PekkoSettings#of}), and a
     * pool of parallelism {@code workers} (it starts its threads when first used), in FIFO mode if
     * {@code poolFifo}.
     */
    Runtimes(int workers, int budget, Duration idleSpin, List<Side> pekkoSides, boolean poolFifo) {
        this.workers = workers;
        this.budget = budget;
        switchboard = TaskRuntime.builder().name("switchboard").workers(workers).throughput(budget)
                .idleSpin(idleSpin).build();
        pool = poolFifo ? new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true)
                : new ForkJoinPool(workers);
        try {
            for (Side side : pekkoSides) {
                pekko.put(side, ActorSystem.create("pekko-" + side.key(), PekkoSettings.of(side, workers, budget)));
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        quiescence = newQuiescence();
    }

    /** Lowers the share of a core that counts as spinning, for tests on a machine busy with other work. */
    void spinShare(double share) {
        spinShare = share;
        quiescence.spinShare = share;
    }

    private Quiescence newQuiescence() {
        Quiescence q = new Quiescence(switchboard, pekko.values(), pool);
        q.spinShare = spinShare;
        return q;
    }

    /** The Switchboard runtime. */
    TaskRuntime switchboard() {
        return switchboard;
    }

    /** The Pekko system of {@code side}, or null if it was not asked for. */
    ActorSystem pekko(Side side) {
        return pekko.get(side);
    }

    /** Runs {@code b} once on {@code side} and returns its checksum; does not wait for quiescence. */
    long run(Benchmark b, Side side) throws Exception {
        return switch (side) {
            case SWITCHBOARD -> b.runSwitchboard(switchboard);
            case PEKKO_DEFAULT, PEKKO_MATCHED -> {
                ActorSystem system = pekko.get(side);
                if (system == null) {
                    throw new IllegalStateException("no Pekko system for " + side.label());
                }
                yield b.runPekko(system);
            }
            case FORK_JOIN_POOL -> b.runForkJoin(pool);
        };
    }

    /**
     * Waits until no runtime has work left over from a run.
     *
     * @throws IllegalStateException naming the runtime, if one is still busy after ten seconds (it is stuck)
     */
    void awaitQuiescence() {
        requireNothingLost();
        quiescence.await(Quiescence.LIMIT_NANOS);
    }

    /**
     * Once a benchmark's runs are over (the runtimes quiescent): fails if a thread of a runtime keeps a core busy
     * with no work, naming it, so that the benchmark's figures, measured beside it, are not reported.
     */
    void requireNoneSpinning() {
        requireNothingLost();
        quiescence.requireNoneSpinning();
    }

    private void requireNothingLost() {
        if (lost != null) {
            throw new IllegalStateException("an earlier benchmark left a Pekko system stuck that could not be"
                    + " replaced: " + lost.getMessage(), lost);
        }
    }

    /**
     * After a benchmark failed: waits for quiescence once more, and replaces each Pekko system still busy with
     * actors of the run (a side that timed out leaves them behind), or with a thread that spins, by a new one of the
     * same configuration, once the old one has terminated and its threads have ended, so that the benchmarks after it
     * run beside nothing left over. Returns the names of the systems replaced (empty if every runtime was
     * quiescent).
     *
     * @throws IllegalStateException naming what is stuck, if the Switchboard runtime or the pool is still busy, or a
     *         Pekko system does not terminate or keeps a thread running (then this and every later wait and
     *         recovery fail with it, so the benchmarks after it fail too)
     */
    List<String> recover(long limitNanos) {
        requireNothingLost();
        try {
            quiescence.await(limitNanos);
            quiescence.requireNoneSpinning();
            return List.of();
        } catch (IllegalStateException stuck) {
            List<ActorSystem> busy = quiescence.busyPekkoSystems();
            if (busy.isEmpty()) {
                throw stuck;                    // Switchboard or the pool: nothing to replace
            }
            List<String> replaced = new ArrayList<>();
            try {
                for (Map.Entry<Side, ActorSystem> e : pekko.entrySet()) {
                    ActorSystem old = e.getValue();
                    if (!busy.contains(old)) {
                        continue;
                    }
                    replace(e);
                    replaced.add(old.name());
                }
            } catch (RuntimeException failed) {
                lost = failed instanceof IllegalStateException ise ? ise
                        : new IllegalStateException("replacing a stuck Pekko system failed: " + failed, failed);
                throw lost;
            } finally {
                quiescence = newQuiescence();   // the systems there are now
            }
            quiescence.await(limitNanos);      // the rest must be quiescent too
            return replaced;
        }
    }

    /** Terminates the system of {@code e}, waits for its threads to end, and puts a new one in its place. */
    private void replace(Map.Entry<Side, ActorSystem> e) {
        ActorSystem old = e.getValue();
        old.terminate();
        try {
            Await.result(old.whenTerminated(), scala.concurrent.duration.Duration.fromNanos(terminateNanos));
        } catch (Exception failed) {
            throw new IllegalStateException("the stuck Pekko system " + old.name() + " did not terminate in "
                    + TimeUnit.NANOSECONDS.toSeconds(terminateNanos) + " s", failed);
        }
        awaitThreadsEnded(old.name());
        e.setValue(ActorSystem.create(old.name(), PekkoSettings.of(e.getKey(), workers, budget)));
    }

    /** Waits until no thread of the terminated system {@code name} is alive; throws naming one that still is. */
    private static void awaitThreadsEnded(String name) {
        long deadline = System.nanoTime() + THREADS_END_NANOS;
        for (;;) {
            Thread alive = null;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.isAlive() && t.getName().startsWith(name + "-")) {
                    alive = t;
                    break;
                }
            }
            if (alive == null) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("the stuck Pekko system " + name + " terminated, but its thread '"
                        + alive.getName() + "' still runs (" + alive.getState() + ")");
            }
            try {
                alive.join(TimeUnit.NANOSECONDS.toMillis(THREADS_END_NANOS) / 10 + 1);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name + "'s threads", ie);
            }
        }
    }

    @Override
    public void close() {
        List<Throwable> failures = new ArrayList<>();
        for (ActorSystem system : pekko.values()) {
            try {
                system.terminate();
                Await.result(system.whenTerminated(), scala.concurrent.duration.Duration.apply(30, TimeUnit.SECONDS));
            } catch (Exception e) {
                failures.add(e);
            }
        }
        switchboard.close();
        pool.shutdownNow();
        if (!failures.isEmpty()) {
            IllegalStateException e = new IllegalStateException("a Pekko system did not terminate in 30 s");
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }
}

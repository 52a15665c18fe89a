package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
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
    private final TaskRuntime switchboard;
    private final Map<Side, ActorSystem> pekko = new EnumMap<>(Side.class);
    private final ForkJoinPool pool;
    private final Quiescence quiescence;

    /**
     * Starts the runtimes: Switchboard with {@code workers} workers and throughput budget {@code budget}, and a
     * Pekko system for each of {@code pekkoSides} ({@link PekkoSettings#of}), and a pool of parallelism
     * {@code workers} (it starts its threads when first used), in FIFO mode if {@code poolFifo}.
     */
    Runtimes(int workers, int budget, List<Side> pekkoSides, boolean poolFifo) {
        switchboard = TaskRuntime.builder().name("switchboard").workers(workers).throughput(budget).build();
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
        quiescence = new Quiescence(switchboard, pekko.values(), pool);
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
        quiescence.await(Quiescence.LIMIT_NANOS);
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

package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import org.apache.pekko.actor.ActorSystem;

/**
 * One benchmark, implemented twice with the same algorithm and parameters: on Switchboard and on its
 * {@linkplain #peer() peer} - Apache Pekko classic actors (written the way the Pekko documentation recommends)
 * for message passing, the JDK's {@link ForkJoinPool} for task parallelism. Each run returns a checksum that the
 * harness compares with {@link #expected()} every iteration.
 */
public interface Benchmark {
    /** The runtime a benchmark's Switchboard side is compared with. */
    enum Peer { PEKKO, FORK_JOIN_POOL }

    /** Short name, as in the report and in {@code --only}. */
    String name();

    /** One line saying what it measures. */
    String description();

    /** The parameters both sides use (Savina's defaults unless stated). */
    Map<String, Object> params();

    /** The checksum every correct run returns. */
    long expected();

    /** Runs the benchmark once on Switchboard and returns its checksum. */
    long runSwitchboard(TaskRuntime runtime) throws Exception;

    /** What the Switchboard side is compared with; {@link Peer#PEKKO} unless a benchmark says otherwise. */
    default Peer peer() {
        return Peer.PEKKO;
    }

    /** Runs the benchmark once on Pekko and returns its checksum (benchmarks whose peer is Pekko). */
    default long runPekko(ActorSystem system) throws Exception {
        throw new UnsupportedOperationException(name() + " has no Pekko side (its peer is " + peer() + ")");
    }

    /**
     * Runs the benchmark once on {@code pool}, a {@link ForkJoinPool} with the harness's worker count, and returns
     * its checksum (benchmarks whose peer is the pool).
     */
    default long runForkJoin(ForkJoinPool pool) throws Exception {
        throw new UnsupportedOperationException(name() + " has no ForkJoinPool side (its peer is " + peer() + ")");
    }

    /**
     * What the benchmark's most recent Switchboard run recorded over time, if it records anything (empty for
     * most). The harness asks after the measured iterations, so the report shows the last measured run's.
     */
    default List<Series> lastRunSeries() {
        return List.of();
    }

    /**
     * Releases what the benchmark keeps between its runs (the remote benchmarks keep child JVMs for all of their
     * runs); nothing for most. The harness calls it once, after the benchmark's last run, whether its runs
     * succeeded or not. A benchmark that starts such resources lazily starts them again if it is run again.
     */
    default void close() throws Exception {
    }
}

package dev.switchboard.bench.harness;

import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * One benchmark, implemented twice with the same algorithm and parameters: on Switchboard and on Apache Pekko
 * classic actors (written the way the Pekko documentation recommends). Each run returns a checksum that the
 * harness compares with {@link #expected()} every iteration.
 */
public interface Benchmark {
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

    /** Runs the benchmark once on Pekko and returns its checksum. */
    long runPekko(ActorSystem system) throws Exception;
}

package dev.switchboard.bench.harness;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * The Pekko configurations the harness compares with. Both run the default dispatcher on a fork-join executor
 * with exactly {@code workers} threads ({@code parallelism-min = parallelism-max = workers}):
 * <ul>
 *   <li>{@link #defaults(int)}: everything else as Pekko ships it, in particular {@code throughput = 5}. This is
 *       what Pekko users run, and the headline of the harness ({@link Side#PEKKO_DEFAULT}).</li>
 *   <li>{@link #matched(int, int)}: the same with {@code throughput} set to Switchboard's budget
 *       ({@link Side#PEKKO_MATCHED}).</li>
 * </ul>
 * Both also turn logging down to warnings and dead-letter logging off (no dispatcher setting), and declare the
 * mailbox types of the benchmarks that need one: Pekko reads mailbox types only from the actor system's
 * configuration.
 */
public final class PekkoSettings {
    /** Where the default dispatcher's throughput lives in a configuration. */
    static final String THROUGHPUT = "pekko.actor.default-dispatcher.throughput";

    private PekkoSettings() {
    }

    /** Pekko's default dispatcher settings, with {@code workers} threads. */
    public static Config defaults(int workers) {
        String cfg = """
                pekko {
                  loglevel = WARNING
                  stdout-loglevel = WARNING
                  log-dead-letters = off
                  log-dead-letters-during-shutdown = off
                  actor.default-dispatcher.fork-join-executor {
                    parallelism-min = %d
                    parallelism-max = %d
                  }
                }
                switchboard-bench.mailboxes {
                  nqueens-priority.mailbox-type = "dev.switchboard.bench.nqueensk.PekkoNQueensFirstK$DepthPriorityMailbox"
                  astar-priority.mailbox-type = "dev.switchboard.bench.astar.PekkoAStar$DistancePriorityMailbox"
                }
                """.formatted(workers, workers);
        return ConfigFactory.parseString(cfg).withFallback(ConfigFactory.load());
    }

    /**
     * For tests of the harness's tools, which check the Pekko programs' answers and not their speed: {@link
     * #matched(int, int)} with the default dispatcher on a {@code thread-pool-executor} of {@code workers} threads
     * instead of the fork-join pool. On the pool, a mailbox that Pekko executes again as the same object can move
     * a deque's {@code base} back; its threads then spin for the rest of the JVM or refuse the mailbox, and the run
     * waits forever (docs/decisions/034-a-pekko-pool-thread-that-spins-for-the-rest-of-a-jvm.md). A thread pool's
     * queue takes a node of its own for every execution, so a test cannot hang on that.
     */
    public static Config threadPool(int workers, int throughput) {
        String cfg = """
                pekko.actor.default-dispatcher {
                  executor = "thread-pool-executor"
                  thread-pool-executor.fixed-pool-size = %d
                }
                """.formatted(workers);
        return ConfigFactory.parseString(cfg).withFallback(matched(workers, throughput));
    }

    /** {@link #defaults(int)} with the default dispatcher's {@code throughput} set to {@code throughput}. */
    public static Config matched(int workers, int throughput) {
        return ConfigFactory.parseString(THROUGHPUT + " = " + throughput).withFallback(defaults(workers));
    }

    /** The configuration of {@code side}, one of Pekko's: {@code budget} is Switchboard's throughput budget. */
    public static Config of(Side side, int workers, int budget) {
        return switch (side) {
            case PEKKO_DEFAULT -> defaults(workers);
            case PEKKO_MATCHED -> matched(workers, budget);
            default -> throw new IllegalArgumentException(side + " is not a Pekko configuration");
        };
    }

    /** The default dispatcher's throughput in {@code config}: messages an actor processes per turn. */
    public static int throughput(Config config) {
        return config.getInt(THROUGHPUT);
    }
}

package dev.switchboard.bench.harness;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * The Pekko configuration every comparison uses: the default dispatcher on a fork-join executor with exactly
 * {@code workers} threads and Switchboard's throughput budget, logging of dead letters off, and the mailbox
 * types of the benchmarks that need one (Pekko reads mailbox types only from the actor system's configuration).
 */
public final class PekkoSettings {
    private PekkoSettings() {
    }

    public static Config config(int workers, int throughput) {
        String cfg = """
                pekko {
                  loglevel = WARNING
                  stdout-loglevel = WARNING
                  log-dead-letters = off
                  log-dead-letters-during-shutdown = off
                  actor.default-dispatcher {
                    type = Dispatcher
                    executor = "fork-join-executor"
                    fork-join-executor {
                      parallelism-min = %d
                      parallelism-factor = 1.0
                      parallelism-max = %d
                    }
                    throughput = %d
                  }
                }
                switchboard-bench.mailboxes {
                  nqueens-priority.mailbox-type = "dev.switchboard.bench.nqueensk.PekkoNQueensFirstK$DepthPriorityMailbox"
                  astar-priority.mailbox-type = "dev.switchboard.bench.astar.PekkoAStar$DistancePriorityMailbox"
                }
                """.formatted(workers, workers, throughput);
        return ConfigFactory.parseString(cfg).withFallback(ConfigFactory.load());
    }
}

package dev.switchboard.bench.harness;

import dev.switchboard.bench.Suite;
import dev.switchboard.task.TaskRuntime;
import java.util.Locale;
import java.util.Set;
import org.apache.pekko.actor.ActorSystem;

/**
 * Runs one benchmark on one side only, many times, printing each time: for profiling and for looking at one
 * runtime in isolation. Not a comparison: use {@link Harness} for that.
 *
 * <pre>java -cp switchboard-bench.jar dev.switchboard.bench.harness.Solo Chameneos switchboard 50</pre>
 */
public final class Solo {
    private Solo() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Solo <benchmark> switchboard|pekko [runs] [workers]");
            System.exit(2);
        }
        Benchmark b = Suite.select(Set.of(args[0].toLowerCase(Locale.ROOT))).get(0);
        boolean switchboard = args[1].equalsIgnoreCase("switchboard");
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : Runtime.getRuntime().availableProcessors();
        try (TaskRuntime runtime = TaskRuntime.builder().workers(workers).build()) {
            ActorSystem system = switchboard ? null
                    : ActorSystem.create("pekko", PekkoSettings.matched(workers, TaskRuntime.DEFAULT_THROUGHPUT));
            for (int i = 0; i < runs; i++) {
                long t0 = System.nanoTime();
                long checksum = switchboard ? b.runSwitchboard(runtime) : b.runPekko(system);
                System.out.printf(Locale.ROOT, "%s %s run %d: %.2f ms%s%n", b.name(), args[1], i,
                        (System.nanoTime() - t0) / 1e6, checksum == b.expected() ? "" : " WRONG CHECKSUM " + checksum);
            }
            if (system != null) {
                system.terminate();
            }
        }
    }
}

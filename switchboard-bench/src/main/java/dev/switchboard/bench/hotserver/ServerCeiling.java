package dev.switchboard.bench.hotserver;

import com.typesafe.config.Config;
import dev.switchboard.bench.harness.PekkoSettings;
import dev.switchboard.bench.harness.Rounds;
import dev.switchboard.bench.harness.SpinningThreads;
import dev.switchboard.bench.hotserver.HotServer.Params;
import dev.switchboard.bench.hotserver.HotServer.Requests;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorSystem;

/**
 * The ceiling of a request-reply grid cell on this machine: the cell's requests served on one plain thread, as
 * messages that cost nothing to deliver, beside the cell's Switchboard and Pekko servers (Pekko at its defaults,
 * two workers each), in one JVM, the three taking turns round after round.
 *
 * <p>A server actor processes its requests one at a time, so no runtime can serve them faster than one thread
 * doing only the server's work: take a request, look up or store in the map, make the reply, and let the client
 * queue its next request, with no synchronisation and no other thread. The one thread's time is what any runtime
 * could reach; the cell's target against Pekko is reachable only where Pekko's time over that ceiling is above it.
 * Taking turns in one JVM matters on a shared host: the same lookups run up to 2.5 times as long for tens of
 * seconds at a time, and a ceiling from another JVM or another minute would be measured in another machine.
 *
 * <p>With {@code --one-worker} a fourth side takes its turn too: the Switchboard server on a runtime of one worker,
 * so that what the second worker gives the cell (or costs it) is measured in the same rounds.
 *
 * <pre>
 * java -Xms2g -Xmx2g -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.hotserver.ServerCeiling [CELL,CELL,... (Server1M-20c-10w)] [ROUNDS (30)] [--one-worker]
 * </pre>
 */
public final class ServerCeiling {
    /** Rounds of the first cell run before any is measured, while the compilers take the other core. */
    private static final int WARM_UP_ROUNDS = 20;

    /** The Pekko system's name, and so the start of its threads' names. */
    private static final String SYSTEM = "server-ceiling";

    /**
     * Median milliseconds of a run of the cell, over the measured rounds (the second half of them); the one-worker
     * runtime's is NaN unless it was measured.
     */
    record Result(String cell, double ceilingMs, double switchboardMs, double pekkoMs, double oneWorkerMs) {
        /** The grid's ratio: Pekko's time over Switchboard's. */
        double ratio() {
            return pekkoMs / switchboardMs;
        }

        /** Pekko's time over the ceiling's: the highest ratio any runtime could show against this Pekko. */
        double ratioCeiling() {
            return pekkoMs / ceilingMs;
        }

        /** Switchboard's time over the ceiling's (1: nothing spent beyond the server's own work). */
        double switchboardOverCeiling() {
            return switchboardMs / ceilingMs;
        }

        /** Switchboard's time on two workers over its time on one (NaN if one worker was not measured). */
        double twoWorkersOverOne() {
            return switchboardMs / oneWorkerMs;
        }
    }

    /** A request on the one thread: whose, a write or a read, and of which key. */
    private record Request(int client, boolean write, int key) {
    }

    /** Its reply. */
    private record Reply(int value) {
    }

    private ServerCeiling() {
    }

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>(List.of(args));
        boolean oneWorker = positional.remove("--one-worker");
        List<HotServer> cells = new ArrayList<>();
        for (String name : (positional.size() > 0 ? positional.get(0) : "Server1M-20c-10w").split(",")) {
            cells.add(HotServer.gridCell(name.strip()));
        }
        int rounds = positional.size() > 1 ? Rounds.positive(positional.get(1), "ROUNDS") : 30;
        System.out.printf(Locale.ROOT, "median of the last %d of %d rounds, ms; ratio = Pekko / Switchboard,"
                + " ratio ceiling = Pekko / one thread%s%n", rounds - rounds / 2, rounds,
                oneWorker ? "; 1w: Switchboard on one worker" : "");
        System.out.printf(Locale.ROOT, "%-26s %10s %12s %10s %7s %14s %18s%s%n", "cell", "one thread",
                "Switchboard", "Pekko", "ratio", "ratio ceiling", "Switchboard / one",
                oneWorker ? String.format(Locale.ROOT, " %10s %8s", "1w", "2w / 1w") : "");
        try {
            measure(cells, rounds, oneWorker, PekkoSettings.defaults(2), r -> System.out.printf(Locale.ROOT,
                    "%-26s %10.2f %12.2f %10.2f %7.2f %14.2f %18.2f%s%n", r.cell(), r.ceilingMs(), r.switchboardMs(),
                    r.pekkoMs(), r.ratio(), r.ratioCeiling(), r.switchboardOverCeiling(), oneWorker
                            ? String.format(Locale.ROOT, " %10.2f %8.2f", r.oneWorkerMs(), r.twoWorkersOverOne())
                            : ""));
        } catch (IllegalStateException stopped) {
            System.out.println("stopped: " + stopped.getMessage());
            System.exit(1);                     // a spinning pool thread would keep the JVM alive
        } catch (Exception | Error failed) {
            // a run that failed or timed out: behind a timeout there may be a Pekko pool thread that spins (decision
            // 034), which would keep the JVM alive with a core busy, so it ends here too, saying so
            System.out.println("stopped: " + failed + " (the cells printed above were measured before it)");
            failed.printStackTrace();
            System.exit(1);
        }
    }

    /**
     * Runs each cell's three sides {@code rounds} times, in turn, on a Switchboard runtime of two workers and a Pekko
     * system on {@code pekkoConfig} (and, if {@code oneWorker}, a fourth side: Switchboard on a runtime of one
     * worker); checks every run's checksum; hands each cell's result to {@code done} as it is measured.
     */
    static List<Result> measure(List<HotServer> cells, int rounds, boolean oneWorker, Config pekkoConfig,
            Consumer<Result> done) throws Exception {
        List<Result> results = new ArrayList<>();
        ActorSystem pekko = ActorSystem.create(SYSTEM, pekkoConfig);
        try (TaskRuntime runtime = TaskRuntime.create(2); TaskRuntime one = oneWorker ? TaskRuntime.create(1) : null) {
            if (!cells.isEmpty()) {
                measure(cells.get(0), WARM_UP_ROUNDS, runtime, one, pekko);   // the JIT's first work, not a cell's
            }
            for (HotServer cell : cells) {
                Result r = measure(cell, rounds, runtime, one, pekko);
                results.add(r);
                done.accept(r);
            }
        } catch (Exception | Error failed) {
            pekko.terminate();                    // not waited for: a spinning pool thread would never let it end
            throw failed;
        }
        pekko.terminate();
        pekko.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
        return results;
    }

    private static Result measure(HotServer cell, int rounds, TaskRuntime runtime, TaskRuntime oneWorker,
            ActorSystem pekko) throws Exception {
        Params p = cell.shape();
        HashMap<Integer, Integer> map = HotServer.state(p);
        List<Rounds.Run> sides = new ArrayList<>(List.of(
            () -> oneThread(p, map),
            () -> SwitchboardHotServer.run(runtime, p, cell.variant(), map),
            () -> PekkoHotServer.run(pekko, p, map)));
        if (oneWorker != null) {
            sides.add(() -> SwitchboardHotServer.run(oneWorker, p, cell.variant(), map));
        }
        Rounds.Run[] runs = sides.toArray(Rounds.Run[]::new);
        long[][] times = Rounds.takeTurns(cell.name(), runs, rounds, cell.expected(), () -> {
            List<String> spinning = SpinningThreads.among(SYSTEM + "-");
            if (!spinning.isEmpty()) {
                throw new IllegalStateException(cell.name() + ": Pekko's thread " + spinning.get(0) + " keeps a core"
                        + " busy with no work (its ForkJoinPool spins), so every later figure of this JVM would be"
                        + " measured beside it; the cells printed above were measured before it. Run again in a new"
                        + " JVM.");
            }
        });
        return new Result(cell.name(), Rounds.medianOfSecondHalfMs(times[0]), Rounds.medianOfSecondHalfMs(times[1]),
                Rounds.medianOfSecondHalfMs(times[2]),
                oneWorker != null ? Rounds.medianOfSecondHalfMs(times[3]) : Double.NaN);
    }

    /**
     * The server's work on one thread: the clients' requests in a queue, served in arrival order; each reply is
     * taken by its client at once, which queues its next request.
     */
    static long oneThread(Params p, HashMap<Integer, Integer> shared) {
        HashMap<Integer, Integer> map = p.serverMap(shared);
        Requests[] clients = new Requests[p.clients()];
        ArrayDeque<Request> queue = new ArrayDeque<>(p.clients());
        for (int c = 0; c < clients.length; c++) {
            clients[c] = new Requests(c, p);
            if (clients[c].next()) {
                queue.add(new Request(c, clients[c].write, clients[c].key));
            }
        }
        long checksum = 0;
        Request r;
        while ((r = queue.poll()) != null) {
            int value;
            if (r.write()) {
                value = HotServer.valueOf(r.key());
                map.put(r.key(), value);
            } else {
                value = map.get(r.key());
            }
            Reply reply = new Reply(p.reply(value));
            checksum += 1 + reply.value();                          // the client takes its reply
            Requests mine = clients[r.client()];
            if (mine.next()) {
                queue.add(new Request(r.client(), mine.write, mine.key));
            }
        }
        return checksum;
    }
}

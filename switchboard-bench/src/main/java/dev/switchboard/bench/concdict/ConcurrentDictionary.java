package dev.switchboard.bench.concdict;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import dev.switchboard.task.TaskRuntime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina concurrent dictionary ([Selectors] §6.1, Fig. 17): {@code workers} actors each send
 * {@code messagesPerWorker} requests to one dictionary, waiting for each reply before the next; a request is a
 * write ({@code writePercentage} percent, chosen with a seeded generator per worker) or a read of a random key.
 * On Switchboard the dictionary is a reader-writer selector (Fig. 16) that serves reads in parallel; the policy
 * (AO, RF or WF) decides whether requests are taken in arrival order or readers or writers go first. On Pekko it
 * is a serial actor, whatever the policy.
 *
 * <p>The dictionary is Savina's: a {@code HashMap} holding every key below {@code keys} (524,287 by default,
 * so most lookups miss the caches), and every request names one of those keys. So that the checksum does not
 * depend on how requests interleave, a key only ever maps to {@link #valueOf}: the map is filled with those
 * values, and a write stores the same value again (Savina writes random values). A write therefore never
 * changes the map's contents, and the filled map is built once and shared by every run of both sides instead
 * of being copied per run as Savina does. The checksum is the sum over all replies of 1 + the value replied.
 *
 * <p>Parameters: Savina's defaults (20 workers, 10,000 requests each, 10 % writes, 524,287 keys) except
 * 20,000 requests per worker, so that a Pekko run takes about 0.3 s on two cores.
 */
public final class ConcurrentDictionary implements Benchmark {
    private final Policy policy;
    private final Params p;
    private final long expected;

    public ConcurrentDictionary(Policy policy, int workers, int messagesPerWorker, int writePercentage, int keys) {
        if (workers < 1 || messagesPerWorker < 0 || writePercentage < 0 || writePercentage > 100 || keys < 1) {
            throw new IllegalArgumentException("bad ConcurrentDictionary parameters");
        }
        this.policy = policy;
        this.p = new Params(workers, messagesPerWorker, writePercentage, keys);
        this.expected = simulate(p);
    }

    /** 20 workers, 20,000 requests each, 10 % writes, Savina's 524,287 keys (see the class comment). */
    public ConcurrentDictionary(Policy policy) {
        this(policy, 20, 20_000, 10, Integer.MAX_VALUE / 4_096);
    }

    @Override
    public String name() {
        return "ConcurrentDictionary" + policy;
    }

    @Override
    public String description() {
        return "request-reply to a shared dictionary, reads in parallel on Switchboard (" + policy
                + "), a serial actor on Pekko (Savina concdict; 20,000 requests per worker)";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("policy", policy.name());
        m.put("workers", p.workers());
        m.put("messages_per_worker", p.messagesPerWorker());
        m.put("write_percentage", p.writePercentage());
        m.put("keys", p.keys());
        return m;
    }

    /** Sum over all replies of 1 + the value replied. */
    @Override
    public long expected() {
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardConcurrentDictionary.run(runtime, policy, p, table(p.keys()));
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoConcurrentDictionary.run(system, p, table(p.keys()));
    }

    private static HashMap<Integer, Integer> table;

    /**
     * The filled dictionary, built on first use and shared by every run and every variant: writes store the
     * values it already holds, so its contents never change.
     */
    static synchronized HashMap<Integer, Integer> table(int keys) {
        if (table == null || table.size() != keys) {
            HashMap<Integer, Integer> t = new HashMap<>(keys * 2);
            for (int k = 0; k < keys; k++) {
                t.put(k, valueOf(k));
            }
            table = t;
        }
        return table;
    }

    /** The one value the dictionary ever holds for {@code key}. */
    static int valueOf(int key) {
        return key * 31 + 7;
    }

    record Params(int workers, int messagesPerWorker, int writePercentage, int keys) {
    }

    /**
     * The requests of one worker, drawn from its own seeded generator (Savina's seed), the same on both sides.
     */
    static final class Requests {
        private final Random random;
        private final Params p;
        private int left;
        /** Whether the request made by the last {@link #next} is a write. */
        boolean write;
        /** Its key. */
        int key;

        Requests(int worker, Params p) {
            this.random = new Random(worker + p.messagesPerWorker() + p.writePercentage());
            this.p = p;
            this.left = p.messagesPerWorker();
        }

        /** Draws the next request; false when the worker has made all of them. */
        boolean next() {
            if (left == 0) {
                return false;
            }
            left--;
            write = random.nextInt(100) < p.writePercentage();
            key = Math.floorMod(random.nextInt(), p.keys());
            return true;
        }
    }

    private static long simulate(Params p) {
        long sum = 0;
        for (int w = 0; w < p.workers(); w++) {
            Requests r = new Requests(w, p);
            while (r.next()) {
                sum += 1 + valueOf(r.key);
            }
        }
        return sum;
    }
}

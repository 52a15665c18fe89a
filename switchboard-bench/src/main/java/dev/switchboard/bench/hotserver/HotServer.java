package dev.switchboard.bench.hotserver;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.pekko.actor.ActorSystem;

/**
 * A hot server with request-reply clients: one server actor and {@code clients} client actors; each client sends
 * a request, waits for the reply, then sends the next, {@code requests / clients} times. A request is a read or
 * (10 % of the time, chosen by a seeded generator per client) a write, and costs either a field increment
 * ({@link Cost#INCREMENT}) or a lookup in, or a store into, a {@code HashMap} of 524,287 entries
 * ({@link Cost#MAP}, most lookups missing the caches), or that lookup followed by about 2 µs of computation that
 * makes the reply from the value ({@link Cost#RENDER}: {@link #render}, a server that formats or encodes what it
 * looked up).
 *
 * <p>Both sides are written as their users write them: the server is a plain actor that replies to the client
 * named in the request (Switchboard: an {@code ActorRef} in the request record; Pekko: {@code getSender()}), and
 * a client is an actor that sends its next request when the reply arrives. The Switchboard variant
 * {@link Variant#READERS_WRITER} binds the same server to a {@code ReadersWriterMonitor}, so reads run in
 * parallel and writes alone (the Pekko side stays the serial actor); {@link Variant#AWAIT_REPLY} has the clients
 * ask with {@code awaitReply} (the paper's synchronous request-reply), the server answering the request's
 * {@code ReplyTo}. The checksum is the sum over all replies of
 * 1 + the value replied; a key only ever maps to {@link #valueOf} (and a reply under {@link Cost#RENDER} to its
 * {@link #render}), so it does not depend on the interleaving.
 */
public final class HotServer implements Benchmark {
    /** What one request costs the server. */
    public enum Cost {
        /** A field increment. */
        INCREMENT,
        /** A lookup in (or a store into) the large map. */
        MAP,
        /** The map lookup (or store), then {@link #render} of the value: about 2 µs per request. */
        RENDER
    }

    /** Mixing rounds of {@link #render}: about 2 µs on the machines the figures come from. */
    static final int RENDER_ROUNDS = 1_024;

    /**
     * How the Switchboard side is written: a plain server actor whose clients send their reference in the request
     * ({@code ACTOR}); the same server under a {@code ReadersWriterMonitor} ({@code READERS_WRITER}); or the plain
     * server whose clients ask with {@code awaitReply} and which answers the request's {@code ReplyTo}
     * ({@code AWAIT_REPLY}).
     */
    public enum Variant { ACTOR, READERS_WRITER, AWAIT_REPLY }

    /** Keys of the large map (Savina's concurrent-dictionary size). */
    static final int MAP_KEYS = Integer.MAX_VALUE / 4_096;
    /** Keys of the increment server's requests (only their values are replied). */
    static final int SMALL_KEYS = 1_024;

    private final Params p;
    private final Variant variant;
    private final long expected;
    /** The name of a benchmark of the request-reply grid ({@link #grid}, {@link #fresh}); null for the others. */
    private final String gridName;

    /**
     * @param clients       client actors
     * @param requests      requests in all (each client makes {@code requests / clients})
     * @param writePercent  writes among the requests
     * @param cost          what a request costs the server
     * @param variant       how the Switchboard server is run
     */
    public HotServer(int clients, int requests, int writePercent, Cost cost, Variant variant) {
        this(new Params(clients, requests / Math.max(1, clients), writePercent, cost, MAP_KEYS, false), variant, null);
    }

    private HotServer(Params p, Variant variant, String gridName) {
        int clients = p.clients();
        int requests = p.requestsPerClient() * clients;
        int writePercent = p.writePercent();
        Cost cost = p.cost();
        if (clients < 1 || requests < clients || writePercent < 0 || writePercent > 100 || p.mapKeys() < 1) {
            throw new IllegalArgumentException("bad HotServer parameters: clients " + clients + ", requests "
                    + requests + ", writes " + writePercent + " %");
        }
        if (variant == Variant.READERS_WRITER && cost == Cost.INCREMENT) {
            throw new IllegalArgumentException("the readers-writer server needs the MAP or RENDER cost (an increment"
                    + " is a write)");
        }
        this.p = p;
        this.variant = variant;
        this.gridName = gridName;
        this.expected = simulate(p);
    }

    /**
     * A cell of the request-reply grid: a server whose state is a map of {@code mapKeys} entries, built once per JVM
     * and shared by every run; {@code clients} clients, 200,000 requests in all, {@code writePercent} of them
     * writes; the clients send their reference in the request ({@link Variant#ACTOR}) or ask with
     * {@code awaitReply} and a {@code ReplyTo} ({@link Variant#AWAIT_REPLY}). Named like
     * {@code Server100K-20c-10w} and {@code Server100K-20c-10w-ReplyTo}.
     */
    public static HotServer grid(int mapKeys, int clients, int writePercent, Variant variant) {
        if (variant == Variant.READERS_WRITER) {
            throw new IllegalArgumentException("the grid's servers are plain actors");
        }
        return mapServer(mapKeys, clients, writePercent, false, variant,
                variant == Variant.AWAIT_REPLY ? "-ReplyTo" : "");
    }

    /**
     * The grid's cells, {@link #grid} for every map size (1,000, 100,000, 1,000,000 entries), client count (1, 4,
     * 20, 64), write share (0, 10, 50 %) and reply style (a reference, a {@code ReplyTo}), in that nesting order.
     */
    public static List<HotServer> gridCells() {
        List<HotServer> cells = new ArrayList<>();
        for (int keys : new int[] {1_000, 100_000, 1_000_000}) {
            for (int clients : new int[] {1, 4, 20, 64}) {
                for (int writes : new int[] {0, 10, 50}) {
                    cells.add(grid(keys, clients, writes, Variant.ACTOR));
                    cells.add(grid(keys, clients, writes, Variant.AWAIT_REPLY));
                }
            }
        }
        return List.copyOf(cells);
    }

    /** The grid cell called {@code name} (as {@code Server1M-20c-10w-ReplyTo}; case-insensitive). */
    public static HotServer gridCell(String name) {
        List<HotServer> cells = gridCells();
        return cells.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no grid cell called '" + name + "'; the cells are "
                        + cells.get(0).name() + " to " + cells.get(cells.size() - 1).name()
                        + ": Server{1K,100K,1M}-{1,4,20,64}c-{0,10,50}w, with or without -ReplyTo"));
    }

    /**
     * A server that builds its state, a fresh map of {@code mapKeys} entries, in its constructor at every run, as a
     * program that starts a new service each time does: {@code ServerFresh500K-20c-10w}.
     */
    public static HotServer fresh(int mapKeys, int clients, int writePercent) {
        return mapServer(mapKeys, clients, writePercent, true, Variant.ACTOR, "");
    }

    /** A grid server: 200,000 requests in all, named Server[Fresh]{size}-{clients}c-{writes}w{suffix}. */
    private static HotServer mapServer(int mapKeys, int clients, int writePercent, boolean fresh, Variant variant,
                                       String suffix) {
        return new HotServer(new Params(clients, 200_000 / clients, writePercent, Cost.MAP, mapKeys, fresh), variant,
                "Server" + (fresh ? "Fresh" : "") + size(mapKeys) + "-" + clients + "c-" + writePercent + "w" + suffix);
    }

    /** 1K, 100K, 1M: a map size for a name. */
    private static String size(int keys) {
        return keys % 1_000_000 == 0 ? keys / 1_000_000 + "M" : keys % 1_000 == 0 ? keys / 1_000 + "K" : keys + "";
    }

    /** 200,000 requests in all, 10 % writes: the shape of the independently written workload. */
    public HotServer(int clients, Cost cost, Variant variant) {
        this(clients, 200_000, 10, cost, variant);
    }

    @Override
    public String name() {
        if (gridName != null) {
            return gridName;
        }
        return "HotServer" + p.clients() + switch (p.cost()) {
            case INCREMENT -> "Inc";
            case MAP -> "Map";
            case RENDER -> "Render";
        }
                + switch (variant) {
                    case ACTOR -> "";
                    case READERS_WRITER -> "-ReadersWriter";
                    case AWAIT_REPLY -> "-AwaitReply";
                };
    }

    @Override
    public String description() {
        if (gridName != null) {
            return p.clients() + " request-reply clients of one server, a lookup (" + (100 - p.writePercent())
                    + " %) or store (" + p.writePercent() + " %) in a " + size(p.mapKeys()) + "-entry HashMap "
                    + (p.fresh() ? "the server builds anew at every run" : "built once per JVM") + "; replies to "
                    + (variant == Variant.AWAIT_REPLY ? "a ReplyTo (Switchboard clients ask with awaitReply)"
                    : "the client's reference in the request") + " (Pekko: tell and getSender())";
        }
        return p.clients() + " request-reply clients of one server, "
                + switch (p.cost()) {
                    case INCREMENT -> "a field increment";
                    case MAP -> "a 524K-entry HashMap lookup";
                    case RENDER -> "a 524K-entry HashMap lookup and ~2 us rendering the reply";
                } + " per request"
                + switch (variant) {
                    case ACTOR -> "";
                    case READERS_WRITER -> " (Switchboard: readers-writer monitor; Pekko: serial actor)";
                    case AWAIT_REPLY -> " (Switchboard clients ask with awaitReply; Pekko: tell and getSender())";
                };
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("clients", p.clients());
        m.put("requests_per_client", p.requestsPerClient());
        m.put("write_percent", p.writePercent());
        m.put("cost", p.cost().name());
        m.put("map_keys", p.cost() == Cost.INCREMENT ? 0 : p.mapKeys());
        m.put("fresh_map", p.fresh());
        m.put("switchboard", variant.name());
        return m;
    }

    @Override
    public long expected() {
        return expected;
    }

    /** The shape of this server's runs (for {@link ServerCeiling}). */
    Params shape() {
        return p;
    }

    /** How its Switchboard side is written. */
    Variant variant() {
        return variant;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardHotServer.run(runtime, p, variant, state(p));
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoHotServer.run(system, p, state(p));
    }

    /**
     * @param mapKeys the entries of the server's map (MAP and RENDER)
     * @param fresh   whether the server builds its map in its constructor at every run, rather than taking the one
     *                built once per JVM
     */
    record Params(int clients, int requestsPerClient, int writePercent, Cost cost, int mapKeys, boolean fresh) {
        int keys() {
            return cost == Cost.INCREMENT ? SMALL_KEYS : mapKeys;
        }

        /** The map a server serves from: {@code shared}, or a new one of its own when {@code fresh}. */
        HashMap<Integer, Integer> serverMap(HashMap<Integer, Integer> shared) {
            return fresh ? filled(mapKeys) : shared;
        }

        /** The reply to a request whose value is {@code value}. */
        int reply(int value) {
            return cost == Cost.RENDER ? render(value) : value;
        }
    }

    /**
     * The server's shared state: the map of {@code p.mapKeys()} entries, except for {@link Cost#INCREMENT} and a
     * server that builds its own ({@link Params#fresh}).
     */
    static HashMap<Integer, Integer> state(Params p) {
        return p.cost() == Cost.INCREMENT || p.fresh() ? null : map(p.mapKeys());
    }

    private static final Map<Integer, HashMap<Integer, Integer>> MAPS = new HashMap<>();

    /**
     * The filled map of {@code keys} entries, built once per size and shared by every run of both sides: a write
     * stores the value the map already holds, so its contents never change.
     */
    static synchronized HashMap<Integer, Integer> map(int keys) {
        return MAPS.computeIfAbsent(keys, HotServer::filled);
    }

    /** A new map of {@code keys} entries, each key to {@link #valueOf} it. */
    static HashMap<Integer, Integer> filled(int keys) {
        HashMap<Integer, Integer> m = new HashMap<>(keys * 2);
        for (int k = 0; k < keys; k++) {
            m.put(k, valueOf(k));
        }
        return m;
    }

    /**
     * The reply made from {@code value} under {@link Cost#RENDER}: {@value #RENDER_ROUNDS} rounds of a 64-bit mix
     * (a chain of dependent multiplications the processor cannot overlap), folded to an int.
     */
    static int render(int value) {
        long h = value;
        for (int i = 0; i < RENDER_ROUNDS; i++) {
            h ^= h >>> 33;
            h *= 0xff51afd7ed558ccdL;
        }
        return (int) (h ^ (h >>> 32));
    }

    /** The one value a key ever has. */
    static int valueOf(int key) {
        return key * 31 + 7;
    }

    /** One client's requests, drawn from its own seeded generator, the same on both sides. */
    static final class Requests {
        private final Random random;
        private final Params p;
        private int left;
        /** Whether the request drawn by the last {@link #next} is a write. */
        boolean write;
        /** Its key. */
        int key;

        Requests(int client, Params p) {
            this.random = new Random(1_000_003L * client + p.requestsPerClient());
            this.p = p;
            this.left = p.requestsPerClient();
        }

        /** Draws the next request; false when the client has made all of them. */
        boolean next() {
            if (left == 0) {
                return false;
            }
            left--;
            write = random.nextInt(100) < p.writePercent();
            key = random.nextInt(p.keys());
            return true;
        }
    }

    private static long simulate(Params p) {
        long sum = 0;
        for (int c = 0; c < p.clients(); c++) {
            Requests r = new Requests(c, p);
            while (r.next()) {
                sum += 1 + p.reply(valueOf(r.key));
            }
        }
        return sum;
    }
}

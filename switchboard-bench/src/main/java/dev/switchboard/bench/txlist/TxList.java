package dev.switchboard.bench.txlist;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.Series;
import dev.switchboard.stm.TransactionalActor;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.pekko.actor.ActorSystem;

/**
 * The list benchmark of [TxActors] §5.1 (after Imam and Sarkar's distributed sorted linked list): request actors
 * send lookup, insert, remove and sum requests to list actors, each of which owns a range of the values of one
 * sorted linked list, and wait for each answer before they send the next request. List actor {@code i} holds the
 * values of {@code [i·n, (i+1)·n)} that are present, as a sorted singly linked list; a lookup, insert or remove
 * walks it from the head; a sum walks every element of every list actor (the requester asks all of them and
 * waits for every answer).
 *
 * <p>Variants on Switchboard ({@link Split}, {@link SumRead}):
 * <ul>
 *   <li>{@code Serial}: each list actor is a plain {@code Actor} whose nodes have plain {@code next} fields.</li>
 *   <li>Transactional: each list actor is a {@link TransactionalActor} of {@value #THREADS} threads whose nodes'
 *       {@code next} fields are {@code TRef}s; lookups, inserts and removes are transactional messages (lookups
 *       read with {@code get()}); the split between transactional and read-only messages is static 90:10
 *       ({@code Static}: 7 and 1 of the 8 threads) or dynamic ({@code Dynamic}: the paper's rule every
 *       {@value #PERIOD_MS} ms with the workload's α, starting at 90:10); the sum is a transactional message
 *       walking with {@code get()} ({@code Tx}), a read-only message walking with {@code relaxedGet()} inside an
 *       {@code Stm.atomic} of its own ({@code Relaxed}: the paper's unrecorded read), or a read-only message
 *       walking with {@code directGet()} ({@code Direct}: the paper's {@code singleRelaxedGet}).</li>
 * </ul>
 * The Pekko peer of every variant is the serial list actor on Pekko classic actors (a plain field per node), the
 * requesters replying to {@code getSender()}; on Switchboard a requester waits with {@code awaitReply}, and a
 * list actor answers the request's {@code ReplyTo} (a transactional message's answer leaves when it commits).
 *
 * <p>Workloads ({@link Workload}), per request, drawn from each requester's own seeded generator: write-dominated
 * (98 % modify, i.e. insert or remove with equal odds, 1 % lookup, 1 % sum), mixed (50 / 49 / 1) and
 * read-dominated (2 % modify, 97 % lookup, 1 % sum).
 *
 * <p><b>Checksum.</b> Transactional messages commit in some serializable order, not the order they were sent in,
 * so the benchmark is built for an outcome that does not depend on the order: requester {@code r} of {@code R}
 * owns the values {@code v ≡ r (mod R)} and looks up, inserts and removes only those, one request at a time, so
 * each value's history is one requester's sequence and the final list, every insert's and remove's success and
 * every lookup's answer are those of replaying each requester alone ({@link Checksum#simulate}). Neighbouring values
 * belong to different requesters, so inserts and removes still conflict on the list's nodes as in the paper. The
 * checksum is the number of answers + lookups answered "present" + inserts and removes that changed the list +
 * the final number of elements + a sum of a 64-bit mix of every final element; after every run each list actor's
 * list is checked to be strictly increasing, within its range, and as long as the initial length plus the
 * successful inserts minus the successful removes the requesters were told of (a failure says which). Sums vary
 * with the interleaving (they are relaxed in two of the variants) and count only as answers.
 *
 * <p><b>Scaling.</b> The paper: 8 list actors over 41,216 values, 500 requesters × 1,000 requests, 32 threads on
 * 48 cores. Here, for two cores: the same 8 list actors over 8 × 1,024 = 8,192 values (a fifth; half of them
 * present at the start, drawn from a fixed seed, so a list actor holds about 512 nodes and a walk visits about
 * 256), 128 requesters × 1,000 requests (128,000 requests, a quarter; about 1,280 of them sums of the whole
 * list), each transactional list actor with {@value #THREADS} threads, i.e. at most 8 of its messages running at
 * once on the runtime's workers (the harness's {@code --workers}, 2 on two cores). A run then takes about
 * 0.1–0.25 s for the serial list actors and 0.35–0.8 s for the transactional ones on two cores
 * (docs/benchmarks.md). The dynamic split's period is {@value #PERIOD_MS} ms instead of the paper's 1 s, so that
 * it decides about as often within these shorter runs; α is the paper's profiled 0.21 (write-dominated) and 0.08
 * (mixed), and the module's default 0.2 for the read-dominated workload, which the paper did not run with the
 * split.
 */
public final class TxList implements Benchmark {
    /*
     * Implementation notes. Counts is declared here, beside Op, because Counts.answer switches on an Op for every
     * answer a requester gets, on both sides: javac compiles a switch over an enum of the same top-level class to a
     * tableswitch on ordinal(), but one over an enum of another top-level class to a load from a synthetic lookup
     * array ($SwitchMap) before the tableswitch, which Counts declared elsewhere would add to the request path.
     */

    /** Threads of each transactional list actor (its {@code Settings.threads()}). */
    public static final int THREADS = 8;
    /** The dynamic split's period, in milliseconds. */
    public static final int PERIOD_MS = 50;
    /** The paper's static split: 90 % of the threads for transactional messages. */
    public static final double STATIC_SHARE = 0.9;
    /** The transactional threads of the paper's static split: 90 % of {@value #THREADS}, rounded. */
    public static final int STATIC_THREADS = 7;

    /** The request mix. */
    public enum Workload {
        /** 98 % modify, 1 % lookup, 1 % sum; α 0.21 ([TxActors] §5.1). */
        WRITE("Write", "write-dominated", 98, 1, 0.21),
        /** 50 % modify, 49 % lookup, 1 % sum; α 0.08 ([TxActors] §5.1). */
        MIXED("Mixed", "mixed", 50, 49, 0.08),
        /** 2 % modify, 97 % lookup, 1 % sum ([TxActors] §3); α the module's default 0.2. */
        READ("Read", "read-dominated", 2, 97, 0.2);

        final String label;
        final String words;
        final int modifyPercent;
        final int lookupPercent;
        final double alpha;

        Workload(String label, String words, int modifyPercent, int lookupPercent, double alpha) {
            this.label = label;
            this.words = words;
            this.modifyPercent = modifyPercent;
            this.lookupPercent = lookupPercent;
            this.alpha = alpha;
        }

        /** The sums' percentage: the rest. */
        int sumPercent() {
            return 100 - modifyPercent - lookupPercent;
        }

        /** Commits per rollback below which the dynamic split halves the transactional threads. */
        public double alpha() {
            return alpha;
        }
    }

    /** How the Switchboard list actors run their messages. */
    public enum Split {
        /** A plain actor, plain fields: one message at a time. */
        SERIAL("Serial"),
        /** A transactional actor, threads split 90:10 for good. */
        STATIC("Static"),
        /** A transactional actor, the split adjusted every period by the paper's rule. */
        DYNAMIC("Dynamic");

        final String label;

        Split(String label) {
            this.label = label;
        }
    }

    /** How a transactional list actor's sum reads the list. */
    public enum SumRead {
        /** A transactional message walking with {@code get()}. */
        TX("Tx", "a transactional read (get())"),
        /** A read-only message walking with {@code relaxedGet()} inside its own {@code Stm.atomic}. */
        RELAXED("Relaxed", "an unrecorded read (relaxedGet() in its own Stm.atomic, a read-only message)"),
        /** A read-only message walking with {@code directGet()}. */
        DIRECT("Direct", "a direct read (directGet(), a read-only message)");

        final String label;
        final String words;

        SumRead(String label, String words) {
            this.label = label;
            this.words = words;
        }
    }

    /**
     * The parameters both sides use.
     *
     * @param lists          list actors
     * @param valuesPerList  the values each list actor is responsible for ({@code n} of the paper)
     * @param requesters     request actors
     * @param requestsPerRequester requests each request actor makes, one at a time
     * @param workload       the request mix
     * @param hotKeys        counters in each list actor that requests may also increment (the conflict setting)
     * @param hotPercent     the share of lookups, inserts and removes that also increment one of them, in percent
     */
    public record Params(int lists, int valuesPerList, int requesters, int requestsPerRequester,
                         Workload workload, int hotKeys, int hotPercent) {
        /** Without hot keys. */
        public Params(int lists, int valuesPerList, int requesters, int requestsPerRequester, Workload workload) {
            this(lists, valuesPerList, requesters, requestsPerRequester, workload, 0, 0);
        }

        /** Every value: {@code lists · valuesPerList}. */
        int values() {
            return lists * valuesPerList;
        }
    }

    /** What a request asks. */
    enum Op { LOOKUP, INSERT, REMOVE, SUM }

    /** The seed of the initial values and, with the requester's number, of each requester's requests. */
    static final long SEED = 0x5EEDL;

    private final Params p;
    private final Split split;
    private final SumRead sumRead;
    /** The transactional threads of a static split ({@value #STATIC_THREADS}: the paper's 90:10). */
    private final int staticThreads;
    private final BitSet initial;
    private final long expected;
    /** How many requests increment a hot key: what the hot keys must sum to after a Switchboard run. */
    private final long hotTouches;
    /** Commits and rollbacks of the transactional list actors of the last Switchboard run ({@link #lastRun()}). */
    private volatile RunStats lastRun = RunStats.NONE;

    /**
     * @param split    how the Switchboard list actors run
     * @param sumRead  how a transactional list actor's sum reads (ignored for {@link Split#SERIAL}; pass null)
     */
    public TxList(Workload workload, Split split, SumRead sumRead, int lists, int valuesPerList, int requesters,
                  int requestsPerRequester) {
        this(workload, split, sumRead, STATIC_THREADS, lists, valuesPerList, requesters, requestsPerRequester);
    }

    private TxList(Workload workload, Split split, SumRead sumRead, int staticThreads, int lists, int valuesPerList,
                   int requesters, int requestsPerRequester) {
        this(workload, split, sumRead, staticThreads, new Params(lists, valuesPerList, requesters,
                requestsPerRequester, workload));
    }

    /** A variant with any parameters, hot keys included (tests; the named factories for the harness). */
    TxList(Workload workload, Split split, SumRead sumRead, int staticThreads, Params params) {
        int lists = params.lists();
        int valuesPerList = params.valuesPerList();
        int requesters = params.requesters();
        int requestsPerRequester = params.requestsPerRequester();
        if (staticThreads < 1 || staticThreads >= THREADS) {
            throw new IllegalArgumentException("a static split gives transactional messages 1 to " + (THREADS - 1)
                    + " of the " + THREADS + " threads, not " + staticThreads);
        }
        if (lists < 1 || valuesPerList < 1 || requesters < 1 || requestsPerRequester < 0
                || requesters > lists * valuesPerList) {
            throw new IllegalArgumentException("bad TxList parameters: lists " + lists + ", values per list "
                    + valuesPerList + ", requesters " + requesters + ", requests per requester "
                    + requestsPerRequester + " (every requester needs a value of its own)");
        }
        if ((split == Split.SERIAL) != (sumRead == null)) {
            throw new IllegalArgumentException("the serial list takes no sum read, a transactional one needs one");
        }
        if (params.hotPercent() < 0 || params.hotPercent() > 100 || (params.hotPercent() > 0) != (params.hotKeys() > 0)) {
            throw new IllegalArgumentException("hot keys need a share between 1 and 100 %, and a share needs hot"
                    + " keys: got " + params.hotKeys() + " keys, " + params.hotPercent() + " %");
        }
        this.p = params;
        this.split = split;
        this.sumRead = sumRead;
        this.staticThreads = staticThreads;
        this.initial = initial(p);
        this.expected = Checksum.simulate(p, initial);
        this.hotTouches = p.hotPercent() == 0 ? 0 : Checksum.hotTouches(p);
    }

    /** The scaled-down paper parameters: 8 list actors × 1,024 values, 128 requesters × 1,000 requests. */
    public TxList(Workload workload, Split split, SumRead sumRead) {
        this(workload, split, sumRead, 8, 1_024, 128, 1_000);
    }

    /**
     * A static split other than the paper's, at the scaled-down paper parameters: {@code transactionalThreads} of
     * the {@value #THREADS} threads for transactional messages, for good; named {@code
     * TxList-<workload>-Static<k>-<read>}. {@code --compare} runs these to find the best fixed split of a
     * workload, which bounds what any split, the dynamic one included, can gain over the paper's 90:10.
     */
    public static TxList staticSplit(Workload workload, int transactionalThreads, SumRead sumRead) {
        return new TxList(workload, Split.STATIC, sumRead, transactionalThreads, 8, 1_024, 128, 1_000);
    }

    /**
     * One list actor holding all {@code 8,192} values, 128 requesters × 500 requests: named {@code
     * TxList-<workload>-OneList-<split>[-<read>]}. A serial list actor then runs on one core while the other waits
     * for it, so this is where running one actor's messages at once can pay on two cores; {@code --compare} runs
     * these.
     */
    public static TxList oneList(Workload workload, Split split, SumRead sumRead) {
        return new TxList(workload, split, sumRead, STATIC_THREADS, 1, 8_192, 128, 500);
    }

    /**
     * The conflict setting, on one list actor ({@link #oneList}): the list actor also holds {@code hotKeys}
     * counters, and {@code hotPercent} % of the lookups, inserts and removes also increment one of them, drawn at
     * random: they read it before their walk and write it after, so two transactions that increment the same
     * counter while both run conflict, and one of them rolls back with its walk. Named {@code TxList-<workload>-OneList-Hot<percent>-<split>[-<read>]}; {@code --compare}
     * runs these. The counters' final sum is checked against the increments asked for; the Pekko side of these
     * is the plain one-list run (it has no counters), so they are for comparing Switchboard's splits.
     */
    public static TxList oneListHot(Workload workload, Split split, SumRead sumRead, int hotKeys, int hotPercent) {
        return new TxList(workload, split, sumRead, STATIC_THREADS, new Params(1, 8_192, 128, 500, workload,
                hotKeys, hotPercent));
    }

    @Override
    public String name() {
        String splitLabel = split == Split.STATIC && staticThreads != STATIC_THREADS ? split.label + staticThreads
                : split.label;
        return "TxList-" + p.workload().label + (p.lists() == 1 ? "-OneList" : "")
                + (p.hotPercent() > 0 ? "-Hot" + p.hotPercent() : "") + "-" + splitLabel
                + (sumRead == null ? "" : "-" + sumRead.label);
    }

    /** The split in words: "90:10", or "k:(8-k) threads" for another static one. */
    private String staticWords() {
        return staticThreads == STATIC_THREADS ? "90:10" : staticThreads + ":" + (THREADS - staticThreads);
    }

    @Override
    public String description() {
        String mix = String.format(Locale.ROOT, "%s (%d%% modify, %d%% lookup, %d%% sum)", p.workload().words,
                p.workload().modifyPercent, p.workload().lookupPercent, p.workload().sumPercent())
                + (p.hotPercent() > 0 ? String.format(Locale.ROOT, ", %d%% of them also incrementing one of %d hot"
                + " keys", p.hotPercent(), p.hotKeys()) : "");
        String sb = switch (split) {
            case SERIAL -> "serial list actors";
            case STATIC -> "transactional list actors of " + THREADS + " threads split " + staticWords()
                    + ", sum by " + sumRead.words;
            case DYNAMIC -> "transactional list actors of " + THREADS + " threads, dynamic split (every "
                    + PERIOD_MS + " ms, alpha " + p.workload().alpha + "), sum by " + sumRead.words;
        };
        return String.format(Locale.ROOT, "[TxActors] list, %s: %d list actors over %,d values, %d requesters x %,d"
                        + " requests; Switchboard: %s; Pekko: serial list actors", mix, p.lists(), p.values(),
                p.requesters(), p.requestsPerRequester(), sb);
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", p.workload().name());
        m.put("modify_percent", p.workload().modifyPercent);
        m.put("lookup_percent", p.workload().lookupPercent);
        m.put("sum_percent", p.workload().sumPercent());
        m.put("list_actors", p.lists());
        m.put("values_per_list", p.valuesPerList());
        m.put("initial_elements", initial.cardinality());
        m.put("requesters", p.requesters());
        m.put("requests_per_requester", p.requestsPerRequester());
        if (p.hotPercent() > 0) {
            m.put("hot_keys", p.hotKeys());
            m.put("hot_percent", p.hotPercent());
        }
        m.put("switchboard", split.name());
        if (split != Split.SERIAL) {
            m.put("sum_read", sumRead.name());
            m.put("threads_per_list_actor", THREADS);
            if (split == Split.STATIC) {
                m.put("split", "static " + staticWords());
            } else {
                m.put("split", "dynamic, period " + PERIOD_MS + " ms, alpha " + p.workload().alpha);
            }
        }
        return m;
    }

    @Override
    public long expected() {
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        SwitchboardTxList.Outcome outcome = SwitchboardTxList.run(runtime, p, initial,
                split == Split.SERIAL ? null : settings(), sumRead);
        lastRun = outcome.stats();
        if (outcome.hotSum() != hotTouches) {
            throw new IllegalStateException("the hot keys count " + outcome.hotSum() + " increments, but "
                    + hotTouches + " requests asked for one");
        }
        return outcome.checksum();
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoTxList.run(system, p, initial);
    }

    /** The workload's parameters. */
    public Params parameters() {
        return p;
    }

    /** The Switchboard variant. */
    public Split split() {
        return split;
    }

    /** What the transactional list actors of the last Switchboard run did ({@link RunStats#NONE} if serial). */
    public RunStats lastRun() {
        return lastRun;
    }

    /**
     * What the transactional list actors of one run did, summed over the list actors: after the run ({@code
     * TransactionalActor.stats()}) the commits, rollbacks and read-only messages, and each list actor's
     * transactional threads at the end (the dynamic split's last decision); over the run ({@code history()}, the
     * actors' periods, started together, lining up by index) the commits, the rollbacks and the transactional
     * threads of period {@code i} of {@link #PERIOD_MS} ms, each summed over the list actors, for the periods
     * every list actor recorded.
     */
    public record RunStats(long commits, long rollbacks, long readOnly, int[] transactionalThreads,
                           long[] commitsPerPeriod, long[] rollbacksPerPeriod, long[] threadsPerPeriod) {
        static final RunStats NONE = new RunStats(0, 0, 0, new int[0], new long[0], new long[0], new long[0]);

        /**
         * The two charts of the report: commits and rollbacks per period, and the threads the dispatchers gave
         * transactional messages; none for the serial list actors.
         */
        public List<Series> series() {
            if (commitsPerPeriod.length == 0) {
                return List.of();
            }
            return List.of(
                    new Series("Commits and rollbacks per period, all list actors", PERIOD_MS, List.of(
                            new Series.Line("commits", commitsPerPeriod),
                            new Series.Line("rollbacks", rollbacksPerPeriod))),
                    new Series("Threads given to transactional messages, summed over all list actors, " + THREADS
                            + " each at most", PERIOD_MS,
                            List.of(new Series.Line("transactional threads", threadsPerPeriod))));
        }
    }

    @Override
    public List<Series> lastRunSeries() {
        return lastRun.series();
    }

    /** The settings of a transactional list actor of this variant. */
    TransactionalActor.Settings settings() {
        return switch (split) {
            // the same period as the dynamic split: it is also the period of the actor's history
            case STATIC -> new TransactionalActor.Settings(THREADS, false, (double) staticThreads / THREADS,
                    Duration.ofMillis(PERIOD_MS), 1, dev.switchboard.stm.Stm.DEFAULT_MAX_ATTEMPTS);
            case DYNAMIC -> TransactionalActor.Settings.dynamicSplit(THREADS, Duration.ofMillis(PERIOD_MS),
                    p.workload().alpha);
            case SERIAL -> throw new IllegalArgumentException("the serial list actor is not transactional");
        };
    }

    /** The values present at the start: about half, drawn from a fixed seed, the same on both sides. */
    static BitSet initial(Params p) {
        SplittableRandom random = new SplittableRandom(SEED);
        BitSet present = new BitSet(p.values());
        for (int v = 0; v < p.values(); v++) {
            if (random.nextBoolean()) {
                present.set(v);
            }
        }
        return present;
    }

    /** What the requesters count from the answers they get. */
    static final class Counts {
        long answers;
        long lookupHits;
        long inserted;
        long removed;

        void add(Counts c) {
            answers += c.answers;
            lookupHits += c.lookupHits;
            inserted += c.inserted;
            removed += c.removed;
        }

        /** Counts the answer to a lookup, insert or remove. */
        void answer(Op op, boolean yes) {
            answers++;
            if (yes) {
                switch (op) {
                    case LOOKUP -> lookupHits++;
                    case INSERT -> inserted++;
                    case REMOVE -> removed++;
                    case SUM -> throw new IllegalArgumentException("a sum's answer is a number");
                }
            }
        }
    }
}

package dev.switchboard.bench.txlist;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.bench.txlist.Checksum.Digest;
import dev.switchboard.bench.txlist.TxList.Counts;
import dev.switchboard.bench.txlist.TxList.Op;
import dev.switchboard.bench.txlist.TxList.Params;
import dev.switchboard.bench.txlist.TxList.RunStats;
import dev.switchboard.bench.txlist.TxList.SumRead;
import dev.switchboard.stm.ReadOnly;
import dev.switchboard.stm.Stm;
import dev.switchboard.stm.TRef;
import dev.switchboard.stm.TransactionalActor;
import dev.switchboard.task.TaskRuntime;
import java.util.BitSet;
import java.util.PrimitiveIterator;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * TxList on Switchboard: serial list actors (plain fields) or transactional ones ({@code TRef} fields); the
 * requesters ask with {@code awaitReply} and the list actors answer the request's {@code ReplyTo}.
 */
final class SwitchboardTxList {
    /** What a list actor accepts. */
    sealed interface ListMsg permits Lookup, Insert, Remove, SumTx, SumRelaxed, SumDirect, Close {
    }

    /** Transactional: walks with {@code get()}. */
    record Lookup(int value, int hot, ReplyTo<Boolean> replyTo) implements ListMsg {
    }

    record Insert(int value, int hot, ReplyTo<Boolean> replyTo) implements ListMsg {
    }

    record Remove(int value, int hot, ReplyTo<Boolean> replyTo) implements ListMsg {
    }

    /** The sum as a transactional message: {@code get()} all along. */
    record SumTx(ReplyTo<Long> replyTo) implements ListMsg {
    }

    /** The sum as a read-only message: {@code relaxedGet()} inside an {@code Stm.atomic} of its own. */
    record SumRelaxed(ReplyTo<Long> replyTo) implements ListMsg, ReadOnly {
    }

    /** The sum as a read-only message: {@code directGet()}. */
    record SumDirect(ReplyTo<Long> replyTo) implements ListMsg, ReadOnly {
    }

    /** Every requester is done: the list actor exits. */
    record Close() implements ListMsg {
    }

    /** What a requester accepts: the start; the answers go to its {@code awaitReply} handlers. */
    record Start() {
    }

    /** The outcome of a run: its checksum, and what the transactional list actors did. */
    record Outcome(long checksum, RunStats stats, long hotSum) {
    }

    private SwitchboardTxList() {
    }

    /** One run: serial list actors when {@code settings} is null, else transactional ones with those settings. */
    static Outcome run(TaskRuntime runtime, Params p, BitSet initial, TransactionalActor.Settings settings,
                       SumRead sumRead) {
        boolean serial = settings == null;
        ListActor[] lists = new ListActor[p.lists()];
        Requester[] requesters = new Requester[p.requesters()];
        Function<ReplyTo<Long>, ListMsg> sum = switch (serial ? SumRead.DIRECT : sumRead) {
            case TX -> SumTx::new;
            case RELAXED -> SumRelaxed::new;
            case DIRECT -> SumDirect::new;
        };
        runtime.finish(() -> {
            ActorRef<ListMsg>[] refs = ActorRef.newArray(p.lists());
            for (int l = 0; l < lists.length; l++) {
                int lo = l * p.valuesPerList();
                int hi = lo + p.valuesPerList();
                lists[l] = serial ? new SerialListActor(initial, lo, hi, p.hotKeys())
                        : new TransactionalListActor(settings, initial, lo, hi, p.hotKeys());
                refs[l] = lists[l].start();
            }
            ActorRef<Integer> master = new Master(refs, p.requesters()).start();
            for (int r = 0; r < requesters.length; r++) {
                requesters[r] = new Requester(master, refs, new Requests(r, p), sum);
                requesters[r].start().send(new Start());
            }
        });
        Counts counts = new Counts();
        for (Requester r : requesters) {
            counts.add(r.counts);
        }
        long hotSum = 0;
        for (ListActor l : lists) {
            hotSum += l.hotSum();
        }

        Digest digest = new Digest();
        long commits = 0;
        long rollbacks = 0;
        long readOnly = 0;
        int[] threads = new int[serial ? 0 : lists.length];
        java.util.List<java.util.List<TransactionalActor.Sample>> histories = new java.util.ArrayList<>();
        for (int l = 0; l < lists.length; l++) {
            int lo = l * p.valuesPerList();
            digest.addList(l, lo, lo + p.valuesPerList(), lists[l].values());
            if (lists[l] instanceof TransactionalListActor t) {
                TransactionalActor.Stats s = t.stats();
                commits += s.commits();
                rollbacks += s.rollbacks();
                readOnly += s.readOnly();
                threads[l] = s.transactionalThreads();
                histories.add(t.history());
            }
        }
        // The periods every list actor recorded: the actors exit one by one, so the last periods of some are
        // missing from the others' histories, and a sum over fewer actors would read as a drop.
        int periods = histories.stream().mapToInt(java.util.List::size).min().orElse(0);
        long[] commitsPerPeriod = new long[periods];
        long[] rollbacksPerPeriod = new long[periods];
        long[] threadsPerPeriod = new long[periods];
        for (java.util.List<TransactionalActor.Sample> h : histories) {
            for (int i = 0; i < periods; i++) {
                commitsPerPeriod[i] += h.get(i).commits();
                rollbacksPerPeriod[i] += h.get(i).rollbacks();
                threadsPerPeriod[i] += h.get(i).transactionalThreads();
            }
        }
        RunStats stats = serial ? RunStats.NONE : new RunStats(commits, rollbacks, readOnly, threads,
                commitsPerPeriod, rollbacksPerPeriod, threadsPerPeriod);
        return new Outcome(Checksum.checksum(p, initial, counts, digest), stats, hotSum);
    }

    /** A list actor of either kind: its values in list order, read after the run. */
    private interface ListActor {
        ActorRef<ListMsg> start();

        PrimitiveIterator.OfInt values();

        /** The sum of its hot keys' counters (after the run). */
        long hotSum();
    }

    /** The serial list actor: one message at a time, plain fields. */
    static final class SerialListActor extends Actor<ListMsg> implements ListActor {
        private final SerialList list;

        private final long[] hot;

        SerialListActor(BitSet initial, int lo, int hi, int hotKeys) {
            this.list = new SerialList(initial, lo, hi);
            this.hot = new long[hotKeys];
        }

        @Override
        public long hotSum() {
            return java.util.Arrays.stream(hot).sum();
        }

        @Override
        protected void process(ListMsg msg) {
            switch (msg) {
                case Lookup l -> l.replyTo().reply(touch(l.hot(), list.lookup(l.value())));
                case Insert i -> i.replyTo().reply(touch(i.hot(), list.insert(i.value())));
                case Remove r -> r.replyTo().reply(touch(r.hot(), list.remove(r.value())));
                case SumTx s -> s.replyTo().reply(list.sum());
                case SumRelaxed s -> s.replyTo().reply(list.sum());
                case SumDirect s -> s.replyTo().reply(list.sum());
                case Close c -> exit();
            }
        }

        private boolean touch(int key, boolean answer) {
            if (key >= 0) {
                hot[key]++;
            }
            return answer;
        }

        @Override
        public PrimitiveIterator.OfInt values() {
            return list.values();
        }
    }

    /**
     * A node of the transactional list: its value, and, as the {@code TRef} it extends, the next node (null at the
     * end), so that a walk loads one object per node, as the serial list's does.
     */
    static final class Node extends TRef<Node> {
        final int value;

        Node(int value, Node next) {
            super(next);
            this.value = value;
        }
    }

    /** The transactional list actor: the nodes' {@code next} fields are {@code TRef}s. */
    static final class TransactionalListActor extends TransactionalActor<ListMsg> implements ListActor {
        /** A sentinel before the smallest value. */
        private final Node head;

        /** The hot keys: counters that a share of the requests read before their walk and increment after it. */
        private final TRef<Long>[] hot;

        @SuppressWarnings("unchecked")
        TransactionalListActor(Settings settings, BitSet initial, int lo, int hi, int hotKeys) {
            super(settings);
            hot = new TRef[hotKeys];
            for (int k = 0; k < hotKeys; k++) {
                hot[k] = TRef.of(0L);
            }
            Node next = null;
            for (int v = initial.previousSetBit(hi - 1); v >= lo; v = initial.previousSetBit(v - 1)) {
                next = new Node(v, next);
            }
            head = new Node(Integer.MIN_VALUE, next);
        }

        @Override
        protected void process(ListMsg msg) {
            switch (msg) {
                case Lookup l -> {
                    long counted = counted(l.hot());
                    Node cur = head.get();
                    while (cur != null && cur.value < l.value()) {
                        cur = cur.get();
                    }
                    touch(l.hot(), counted);
                    l.replyTo().reply(cur != null && cur.value == l.value());
                }
                case Insert i -> {
                    long counted = counted(i.hot());
                    Node prev = head;
                    Node cur = prev.get();
                    while (cur != null && cur.value < i.value()) {
                        prev = cur;
                        cur = cur.get();
                    }
                    boolean absent = cur == null || cur.value != i.value();
                    if (absent) {
                        prev.set(new Node(i.value(), cur));
                    }
                    touch(i.hot(), counted);
                    i.replyTo().reply(absent);
                }
                case Remove r -> {
                    long counted = counted(r.hot());
                    Node prev = head;
                    Node cur = prev.get();
                    while (cur != null && cur.value < r.value()) {
                        prev = cur;
                        cur = cur.get();
                    }
                    boolean present = cur != null && cur.value == r.value();
                    if (present) {
                        prev.set(cur.get());
                    }
                    touch(r.hot(), counted);
                    r.replyTo().reply(present);
                }
                case SumTx s -> {
                    long sum = 0;
                    for (Node cur = head.get(); cur != null; cur = cur.get()) {
                        sum += cur.value;
                    }
                    s.replyTo().reply(sum);
                }
                case SumRelaxed s -> s.replyTo().reply(Stm.atomic(() -> {
                    long sum = 0;
                    for (Node cur = head.relaxedGet(); cur != null; cur = cur.relaxedGet()) {
                        sum += cur.value;
                    }
                    return sum;
                }));
                case SumDirect s -> {
                    long sum = 0;
                    for (Node cur = head.directGet(); cur != null; cur = cur.directGet()) {
                        sum += cur.value;
                    }
                    s.replyTo().reply(sum);
                }
                case Close c -> exit();
            }
        }

        /** A hot key's count, read before the walk, so that the whole walk conflicts with its other writers. */
        private long counted(int key) {
            return key >= 0 ? hot[key].get() : 0;
        }

        /** After the walk: the hot key's count, read before it, plus one. */
        private void touch(int key, long counted) {
            if (key >= 0) {
                hot[key].set(counted + 1);
            }
        }

        @Override
        public long hotSum() {
            long sum = 0;
            for (TRef<Long> k : hot) {
                sum += k.directGet();
            }
            return sum;
        }

        /** The committed values in list order (after the run, when every transaction has committed). */
        @Override
        public PrimitiveIterator.OfInt values() {
            IntStream.Builder b = IntStream.builder();
            for (Node cur = head.directGet(); cur != null; cur = cur.directGet()) {
                b.add(cur.value);
            }
            return b.build().iterator();
        }
    }

    /** Closes the list actors once every requester is done. */
    static final class Master extends Actor<Integer> {
        private final ActorRef<ListMsg>[] lists;
        private int running;

        Master(ActorRef<ListMsg>[] lists, int requesters) {
            this.lists = lists;
            this.running = requesters;
        }

        @Override
        protected void process(Integer requesterDone) {
            if (--running == 0) {
                for (ActorRef<ListMsg> list : lists) {
                    list.send(new Close());
                }
                exit();
            }
        }
    }

    /** A request actor: one request at a time, the next once the answer (every answer, for a sum) is in. */
    static final class Requester extends Actor<Start> {
        private final ActorRef<Integer> master;
        private final ActorRef<ListMsg>[] lists;
        private final Requests requests;
        private final Function<ReplyTo<Long>, ListMsg> sum;
        private int sumsPending;
        /** What the answers said; read after the run. */
        final Counts counts = new Counts();

        Requester(ActorRef<Integer> master, ActorRef<ListMsg>[] lists, Requests requests,
                  Function<ReplyTo<Long>, ListMsg> sum) {
            this.master = master;
            this.lists = lists;
            this.requests = requests;
            this.sum = sum;
        }

        @Override
        protected void process(Start start) {
            next();
        }

        private void next() {
            if (!requests.next()) {
                master.send(0);
                exit();
                return;
            }
            int value = requests.value;
            int hot = requests.hot;
            Op op = requests.op;
            switch (op) {
                case LOOKUP -> awaitReply(lists[requests.list()], replyTo -> new Lookup(value, hot, replyTo),
                        (Boolean yes) -> answered(op, yes));
                case INSERT -> awaitReply(lists[requests.list()], replyTo -> new Insert(value, hot, replyTo),
                        (Boolean yes) -> answered(op, yes));
                case REMOVE -> awaitReply(lists[requests.list()], replyTo -> new Remove(value, hot, replyTo),
                        (Boolean yes) -> answered(op, yes));
                case SUM -> {
                    sumsPending = lists.length;
                    for (ActorRef<ListMsg> list : lists) {
                        awaitReply(list, sum, (Long partial) -> {
                            counts.answers++;
                            if (--sumsPending == 0) {
                                next();
                            }
                        });
                    }
                }
            }
        }

        private void answered(Op op, boolean yes) {
            counts.answer(op, yes);
            next();
        }
    }
}

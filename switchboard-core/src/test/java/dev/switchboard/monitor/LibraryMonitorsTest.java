package dev.switchboard.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The library monitors: mutual exclusion, readers-writer in three policies, synchronizers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibraryMonitorsTest {
    static TaskRuntime rt;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    sealed interface Op permits Read, Write {
    }

    record Read(String id) implements Op {
    }

    record Write(String id) implements Op {
    }

    static final Category READS = Category.of("read", Read.class);
    static final Category WRITES = Category.of("write", Write.class);

    /**
     * A store whose operations record when they start and end, and check that a write never overlaps anything;
     * it exits after {@code expected} operations.
     */
    static final class Store extends Actor<Op> {
        final List<String> starts = new CopyOnWriteArrayList<>();
        final AtomicInteger readers = new AtomicInteger();
        final AtomicInteger writers = new AtomicInteger();
        final AtomicInteger violations = new AtomicInteger();
        final AtomicInteger maxReaders = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        private final int expected;

        Store(int expected) {
            this.expected = expected;
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Read r -> {
                    starts.add(r.id());
                    maxReaders.accumulateAndGet(readers.incrementAndGet(), Math::max);
                    if (writers.get() != 0) {
                        violations.incrementAndGet();
                    }
                    burn();
                    readers.decrementAndGet();
                }
                case Write w -> {
                    starts.add(w.id());
                    if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                        violations.incrementAndGet();
                    }
                    burn();
                    writers.decrementAndGet();
                }
            }
            if (done.incrementAndGet() == expected) {
                exit();
            }
        }

        private static void burn() {
            double x = 0;
            for (int i = 0; i < 50_000; i++) {
                x += Math.sqrt(i);
            }
            if (x < 0) {
                throw new AssertionError();
            }
        }
    }

    static Store run(Monitor monitor, List<Op> ops) {
        Store store = new Store(ops.size());
        monitor.bind(store);
        ops.forEach(store.ref()::send);                // all arrive in the first turn, in this order
        rt.finish(() -> store.start());
        return store;
    }

    static final List<Op> MIXED = List.of(new Read("r1"), new Read("r2"), new Write("w1"), new Read("r3"),
            new Read("r4"));

    @RepeatedTest(3)
    void fairReadersWriterKeepsArrivalOrderAroundTheWriter() {
        Store s = run(new ReadersWriterMonitor(READS, WRITES, ReadersWriterMonitor.Policy.FAIR), MIXED);
        assertThat(s.violations.get()).isZero();
        assertThat(s.starts.subList(0, 2)).containsExactlyInAnyOrder("r1", "r2");
        assertThat(s.starts.get(2)).isEqualTo("w1");
        assertThat(s.starts.subList(3, 5)).containsExactlyInAnyOrder("r3", "r4");
    }

    @RepeatedTest(3)
    void readersPreferredLetsEveryWaitingReaderGoFirst() {
        Store s = run(new ReadersWriterMonitor(READS, WRITES, ReadersWriterMonitor.Policy.READERS_PREFERRED), MIXED);
        assertThat(s.violations.get()).isZero();
        assertThat(s.starts.subList(0, 4)).containsExactlyInAnyOrder("r1", "r2", "r3", "r4");
        assertThat(s.starts.get(4)).isEqualTo("w1");
    }

    @RepeatedTest(3)
    void writersPreferredStartsNoReaderWhileAWriterWaits() {
        Store s = run(new ReadersWriterMonitor(READS, WRITES, ReadersWriterMonitor.Policy.WRITERS_PREFERRED), MIXED);
        assertThat(s.violations.get()).isZero();
        assertThat(s.starts.get(0)).isEqualTo("w1");
        assertThat(s.starts.subList(1, 5)).containsExactlyInAnyOrder("r1", "r2", "r3", "r4");
    }

    @RepeatedTest(3)
    void readersWriterUnderAConcurrentStreamNeverOverlapsAWrite() {
        concurrentStream(rt);
    }

    @RepeatedTest(3)
    void readersWriterOnARuntimeWhoseIdleWorkersSpinNeverOverlapsAWrite() {
        // idle workers that spin take the letters forked for them at once (and letters count as long sooner)
        try (TaskRuntime spinning = TaskRuntime.builder().name("test-2w-spin").workers(2)
                .idleSpin(java.time.Duration.ofMillis(1)).build()) {
            concurrentStream(spinning);
        }
    }

    private static void concurrentStream(TaskRuntime rt) {
        for (ReadersWriterMonitor.Policy policy : ReadersWriterMonitor.Policy.values()) {
            int clients = 4;
            int perClient = 150;
            Store store = new Store(clients * perClient);
            new ReadersWriterMonitor(READS, WRITES, policy).bind(store);
            rt.finish(() -> {
                ActorRef<Op> ref = store.start();
                for (int c = 0; c < clients; c++) {
                    int client = c;
                    rt.async(() -> {
                        java.util.Random random = new java.util.Random(client);
                        for (int i = 0; i < perClient; i++) {
                            ref.send(random.nextInt(10) == 0 ? new Write("w") : new Read("r"));
                        }
                    });
                }
            });
            assertThat(store.violations.get()).as(policy.name()).isZero();
            assertThat(store.done.get()).isEqualTo(clients * perClient);
        }
    }

    /**
     * A message in both categories (here every operation is a read, and a write is a write too) is a write: it runs
     * alone, and its end lets the letters behind it start. It started as a writer and ended as a reader, which left
     * the monitor writing for ever: the letters behind it never started.
     */
    @RepeatedTest(3)
    void aLetterInBothCategoriesIsAWrite() {
        Category everyOp = Category.of("read", Op.class);
        for (ReadersWriterMonitor.Policy policy : ReadersWriterMonitor.Policy.values()) {
            Store store = new Store(MIXED.size());
            new ReadersWriterMonitor(everyOp, WRITES, policy).alwaysParallel().bind(store);
            MIXED.forEach(store.ref()::send);
            rt.finish(java.time.Duration.ofSeconds(30), () -> store.start());
            assertThat(store.done.get()).as(policy + ": every letter ran").isEqualTo(MIXED.size());
            assertThat(store.violations.get()).as(policy + ": the write ran alone").isZero();
        }
    }

    @RepeatedTest(3)
    void mutexRunsOneLetterAtATimeInArrivalOrder() {
        List<Op> ops = List.of(new Read("a"), new Read("b"), new Write("c"), new Read("d"));
        Store s = run(new MutexMonitor(), ops);
        assertThat(s.starts).containsExactly("a", "b", "c", "d");
        assertThat(s.maxReaders.get()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- synchronizers

    sealed interface AdminMsg permits Request, Release, Pair {
    }

    record Request(int admin) implements AdminMsg {
    }

    record Release(int admin) implements AdminMsg {
    }

    record Pair(String half) implements AdminMsg {
    }

    @RepeatedTest(3)
    void synchronizerBoundsTheRequestsOutstandingOnTwoAdministrators() {
        // Listing 6: at most `max` requests outstanding on adm1 and adm2 together, where a request is outstanding
        // from its start until a release starts (the letters themselves run in parallel, so their bodies may
        // overlap a little more: the bound is on starts, which the updates see in order).
        int max = 2;
        int[] prev = {0};
        int[] maxOutstanding = {0};
        AtomicInteger handled = new AtomicInteger();
        int total = 40;
        final class Administration extends Actor<AdminMsg> {
            @Override
            protected void process(AdminMsg m) {
                if (handled.incrementAndGet() == total) {
                    exit();
                }
            }
        }
        Category requests = Category.of("request", Request.class);
        Category releases = Category.of("release", Release.class);
        Administration admin = new Administration();
        new SynchronizerMonitor()
                .update(requests, letter -> maxOutstanding[0] = Math.max(maxOutstanding[0], ++prev[0]))
                .update(releases, letter -> prev[0]--)
                .disable(() -> prev[0] >= max, requests)
                .bind(admin);
        rt.finish(() -> {
            ActorRef<AdminMsg> ref = admin.start();
            for (int i = 0; i < total / 2; i++) {
                ref.send(new Request(i % 2));
            }
            for (int i = 0; i < total / 2; i++) {
                ref.send(new Release(i % 2));
            }
        });
        // All 20 requests arrive before any release: without the disable, all 20 would be outstanding at once.
        assertThat(maxOutstanding[0]).isEqualTo(max);
        assertThat(handled.get()).isEqualTo(total);
    }

    @Test
    void anAtomicGroupStartsTogetherAndAlone() {
        List<String> log = new CopyOnWriteArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlapWithOthers = new AtomicInteger();
        final class Pairing extends Actor<AdminMsg> {
            final AtomicInteger count = new AtomicInteger();   // the letters run in parallel: both requests, both halves

            @Override
            protected void process(AdminMsg m) {
                running.incrementAndGet();
                if (m instanceof Pair p) {
                    log.add(p.half());
                } else {
                    log.add("other");
                }
                running.decrementAndGet();
                if (count.incrementAndGet() == 4) {
                    exit();
                }
            }
        }
        Category left = Category.of("left", msg -> msg instanceof Pair p && p.half().equals("left"));
        Category right = Category.of("right", msg -> msg instanceof Pair p && p.half().equals("right"));
        Pairing pairing = new Pairing();
        SynchronizerMonitor sync = new SynchronizerMonitor().atomic(left, right);
        sync.bind(pairing);
        pairing.ref().send(new Pair("left"));          // before start()
        pairing.ref().send(new Request(0));
        pairing.ref().send(new Request(1));
        rt.finish(() -> {
            ActorRef<AdminMsg> ref = pairing.start();
            ref.send(new Pair("right"));         // completes the group
        });
        assertThat(log).containsExactlyInAnyOrder("left", "right", "other", "other");
        int l = log.indexOf("left");
        int r = log.indexOf("right");
        assertThat(Math.abs(l - r)).as("the pair ran as one group: " + log).isEqualTo(1);
    }
}

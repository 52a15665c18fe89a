package dev.switchboard.bench.txlist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bench.harness.Series;
import dev.switchboard.bench.txlist.Checksum.Digest;
import dev.switchboard.bench.txlist.TxList.Counts;
import dev.switchboard.bench.txlist.TxList.Op;
import dev.switchboard.bench.txlist.TxList.Params;
import dev.switchboard.bench.txlist.TxList.Split;
import dev.switchboard.bench.txlist.TxList.SumRead;
import dev.switchboard.bench.txlist.TxList.Workload;
import dev.switchboard.task.TaskRuntime;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The checks behind {@link TxList}'s checksum: a list out of order, out of range or of the wrong length is
 * refused; the requesters touch only values of their own; and every transactional message of a run commits
 * exactly once; a run records its commits, rollbacks and threads per period for the report. Not a timing test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TxListTest {

    @Test
    void aListOutOfOrderWithADuplicateOrOutOfRangeIsRefused() {
        assertThatThrownBy(() -> new Digest().addList(1, 10, 20, IntStream.of(11, 13, 12).iterator()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("list actor 1: 12 follows 13");
        assertThatThrownBy(() -> new Digest().addList(0, 10, 20, IntStream.of(11, 11).iterator()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("11 follows 11");
        assertThatThrownBy(() -> new Digest().addList(2, 10, 20, IntStream.of(11, 20).iterator()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("outside its range [10, 20)");
    }

    @Test
    void aListWhoseLengthDisagreesWithTheAnswersIsRefused() {
        Params p = new Params(1, 8, 1, 0, Workload.WRITE);
        BitSet initial = new BitSet();
        initial.set(1);
        initial.set(3);
        Counts counts = new Counts();
        counts.answer(Op.INSERT, true);                     // told of one insert: 3 elements expected
        Digest digest = new Digest();
        digest.addList(0, 0, 8, IntStream.of(1, 3).iterator());
        assertThatThrownBy(() -> Checksum.checksum(p, initial, counts, digest))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("hold 2 elements")
                .hasMessageContaining("1 inserts and 0 removes");
    }

    @Test
    void aDifferentFinalSetOfTheSameLengthChangesTheChecksum() {
        Params p = new Params(1, 8, 1, 0, Workload.WRITE);
        BitSet initial = new BitSet();
        initial.set(1);
        Digest one = new Digest();
        one.addList(0, 0, 8, IntStream.of(1).iterator());
        Digest other = new Digest();
        other.addList(0, 0, 8, IntStream.of(2).iterator());
        assertThat(Checksum.checksum(p, initial, new Counts(), one))
                .isNotEqualTo(Checksum.checksum(p, initial, new Counts(), other));
    }

    @Test
    void eachRequesterTouchesOnlyItsOwnValuesAndTheMixFollowsTheWorkload() {
        Params p = new Params(8, 1_024, 128, 1_000, Workload.MIXED);
        int[] ops = new int[Op.values().length];
        for (int r = 0; r < p.requesters(); r++) {
            Requests q = new Requests(r, p);
            while (q.next()) {
                ops[q.op.ordinal()]++;
                assertThat(q.value % p.requesters()).isEqualTo(r);
                assertThat(q.value).isBetween(0, p.values() - 1);
                assertThat(q.list()).isEqualTo(q.value / p.valuesPerList());
            }
        }
        int total = p.requesters() * p.requestsPerRequester();
        assertThat(ops[Op.INSERT.ordinal()] + ops[Op.REMOVE.ordinal()]).isBetween(total * 45 / 100, total * 55 / 100);
        assertThat(ops[Op.LOOKUP.ordinal()]).isBetween(total * 44 / 100, total * 54 / 100);
        assertThat(ops[Op.SUM.ordinal()]).isBetween(total / 200, total * 2 / 100);
    }

    @Test
    void everyTransactionalMessageCommitsOnceAndTheSumsRunAsTheVariantSays() throws Exception {
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            for (SumRead read : SumRead.values()) {
                for (Split split : new Split[] {Split.STATIC, Split.DYNAMIC}) {
                    TxList b = new TxList(Workload.WRITE, split, read, 4, 64, 8, 300);
                    assertThat(b.runSwitchboard(runtime)).as(b.name()).isEqualTo(b.expected());
                    Params p = b.parameters();
                    long sums = 0;
                    for (int r = 0; r < p.requesters(); r++) {
                        Requests q = new Requests(r, p);
                        while (q.next()) {
                            sums += q.op == Op.SUM ? 1 : 0;
                        }
                    }
                    long others = (long) p.requesters() * p.requestsPerRequester() - sums;
                    long sumMessages = sums * p.lists();
                    long closes = p.lists();
                    TxList.RunStats s = b.lastRun();
                    assertThat(sums).as("the run has sums").isPositive();
                    if (read == SumRead.TX) {
                        assertThat(s.commits()).as(b.name()).isEqualTo(others + sumMessages + closes);
                        assertThat(s.readOnly()).as(b.name()).isZero();
                    } else {
                        assertThat(s.commits()).as(b.name()).isEqualTo(others + closes);
                        assertThat(s.readOnly()).as(b.name()).isEqualTo(sumMessages);
                    }
                    assertThat(s.transactionalThreads()).hasSize(p.lists());
                }
            }
        }
    }

    /**
     * The conflict setting: a share of the requests also increment a hot key; every variant gives the answers of
     * the run without them, the hot keys count every increment asked for (the run fails if one is lost), and every
     * transactional message commits once, however many times its increment conflicted. A request without hot keys
     * never touches one; with them, every request but a sum touches one of the keys.
     */
    @Test
    void withHotKeysEveryIncrementCountsAndEveryTransactionalMessageCommitsOnce() throws Exception {
        Params hot = new Params(1, 512, 16, 300, Workload.READ, 2, 100);
        Params plain = new Params(1, 512, 16, 300, Workload.READ);
        for (int r = 0; r < hot.requesters(); r++) {
            Requests h = new Requests(r, hot);
            Requests q = new Requests(r, plain);
            while (q.next()) {
                assertThat(h.next()).isTrue();
                assertThat(h.hot).isEqualTo(h.op == Op.SUM ? -1 : h.hot).isBetween(h.op == Op.SUM ? -1 : 0, 1);
                assertThat(q.hot).isEqualTo(-1);
            }
            assertThat(h.next()).isFalse();
        }
        assertThat(Checksum.hotTouches(hot)).isPositive();
        assertThat(Checksum.hotTouches(plain)).isZero();
        long sums = 0;
        for (int r = 0; r < hot.requesters(); r++) {
            Requests q = new Requests(r, hot);
            while (q.next()) {
                sums += q.op == Op.SUM ? 1 : 0;
            }
        }
        long transactional = (long) hot.requesters() * hot.requestsPerRequester() - sums + hot.lists();
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            for (Split split : Split.values()) {
                TxList b = new TxList(Workload.READ, split, split == Split.SERIAL ? null : SumRead.DIRECT,
                        TxList.STATIC_THREADS, hot);
                for (int run = 0; run < 3; run++) {
                    assertThat(b.runSwitchboard(runtime)).as(b.name()).isEqualTo(b.expected());
                    if (split != Split.SERIAL) {
                        assertThat(b.lastRun().commits()).as(b.name()).isEqualTo(transactional);
                    }
                }
            }
        }
    }

    @Test
    void aRunOfSeveralPeriodsRecordsCommitsRollbacksAndThreadsPerPeriodForTheReport() throws Exception {
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            TxList serial = new TxList(Workload.WRITE, Split.SERIAL, null, 4, 64, 8, 100);
            assertThat(serial.runSwitchboard(runtime)).isEqualTo(serial.expected());
            assertThat(serial.lastRunSeries()).isEmpty();

            // the paper's sizes scaled for two cores: several periods of 50 ms on any machine this runs on
            TxList b = new TxList(Workload.WRITE, Split.DYNAMIC, SumRead.DIRECT);
            assertThat(b.runSwitchboard(runtime)).isEqualTo(b.expected());
            TxList.RunStats s = b.lastRun();
            assertThat(s.commitsPerPeriod()).isNotEmpty().hasSameSizeAs(s.rollbacksPerPeriod())
                    .hasSameSizeAs(s.threadsPerPeriod());
            // the periods before the run's end: no more than the run's commits and rollbacks
            assertThat(java.util.Arrays.stream(s.commitsPerPeriod()).sum()).isPositive()
                    .isLessThanOrEqualTo(s.commits());
            assertThat(java.util.Arrays.stream(s.rollbacksPerPeriod()).sum()).isLessThanOrEqualTo(s.rollbacks());
            int lists = b.parameters().lists();
            for (long threads : s.threadsPerPeriod()) {      // each list actor 1 to THREADS - 1: a tenth is read-only's
                assertThat(threads).isBetween((long) lists, (long) lists * (TxList.THREADS - 1));
            }
            List<Series> series = b.lastRunSeries();
            assertThat(series).hasSize(2);
            assertThat(series.get(0).periodMs()).isEqualTo(TxList.PERIOD_MS);
            assertThat(series.get(0).lines()).extracting(Series.Line::label).containsExactly("commits", "rollbacks");
            assertThat(series.get(0).lines().get(0).values()).containsExactly(s.commitsPerPeriod());
            assertThat(series.get(0).lines().get(1).values()).containsExactly(s.rollbacksPerPeriod());
            assertThat(series.get(1).lines().get(0).values()).containsExactly(s.threadsPerPeriod());
        }
    }

    @Test
    void aStaticSplitOtherThanThePapersIsNamedDescribedAndRunsOnThoseThreads() throws Exception {
        TxList one = TxList.staticSplit(Workload.WRITE, 1, SumRead.DIRECT);
        assertThat(one.name()).isEqualTo("TxList-Write-Static1-Direct");
        assertThat(one.params()).containsEntry("split", "static 1:7").containsEntry("list_actors", 8)
                .containsEntry("requesters", 128);
        assertThat(one.description()).contains("split 1:7");
        assertThat(TxList.staticSplit(Workload.MIXED, TxList.STATIC_THREADS, SumRead.TX).name())
                .isEqualTo(new TxList(Workload.MIXED, Split.STATIC, SumRead.TX).name())
                .isEqualTo("TxList-Mixed-Static-Tx");
        assertThat(new TxList(Workload.MIXED, Split.STATIC, SumRead.TX).params()).containsEntry("split", "static 90:10");
        assertThatThrownBy(() -> TxList.staticSplit(Workload.WRITE, TxList.THREADS, SumRead.TX))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a static split gives transactional messages 1 to 7 of the 8 threads, not 8");
        assertThatThrownBy(() -> TxList.staticSplit(Workload.WRITE, 0, SumRead.TX))
                .hasMessageEndingWith("not 0");
        try (TaskRuntime runtime = TaskRuntime.create(2)) {
            for (int threads : new int[] {1, 4}) {
                TxList b = TxList.staticSplit(Workload.WRITE, threads, SumRead.DIRECT);
                assertThat(b.runSwitchboard(runtime)).as(b.name()).isEqualTo(b.expected());
                assertThat(b.lastRun().transactionalThreads()).as(b.name()).containsOnly(threads);
            }
        }
    }
}

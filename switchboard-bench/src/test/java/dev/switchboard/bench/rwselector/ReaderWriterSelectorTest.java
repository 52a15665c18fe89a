package dev.switchboard.bench.rwselector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.bench.rwselector.ReaderWriterSelector.Policy;
import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where a reader-writer selector runs its reads: cheap ones inline in its turn, long ones as tasks, on a runtime
 * of two workers; every one inline on one worker. Reads never overlap a write, in either place. The lengths are
 * far from the placement's lines (a read that does nothing, a read that spins for 40 µs), so a loaded machine,
 * which lengthens a few samples, does not move the median across them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReaderWriterSelectorTest {
    private static final long LONG_READ_NANOS = 40_000;

    sealed interface Request permits Read, Write, Ask {
    }

    /** A read that spins for {@code nanos}. */
    record Read(long nanos) implements Request {
    }

    record Write() implements Request {
    }

    /** A control message: where reads run now; the store exits after it if {@code last}. */
    record Ask(DataDrivenFuture<Boolean> inline, boolean last) implements Request {
    }

    static final class Store extends ReaderWriterSelector<Request> {
        final AtomicInteger readsRunning = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        /** Reads that saw a write running, and writes that saw a read running: always none. */
        final AtomicInteger overlaps = new AtomicInteger();
        private volatile boolean writing;
        /** Reads and writes processed, and when the current phase ends (set by the test before it sends). */
        private final AtomicInteger processed = new AtomicInteger();
        private volatile int phaseEnd;
        private volatile DataDrivenFuture<Boolean> phaseDone;

        /** A future completed when {@code requests} more reads and writes have been processed. */
        DataDrivenFuture<Boolean> expect(int requests) {
            DataDrivenFuture<Boolean> done = new DataDrivenFuture<>();
            phaseDone = done;
            phaseEnd = processed.get() + requests;
            if (requests == 0) {
                done.put(Boolean.TRUE);
            }
            return done;
        }

        private void processed() {
            if (processed.incrementAndGet() == phaseEnd) {
                phaseDone.put(Boolean.TRUE);
            }
        }

        Store(Policy policy, int readBatch) {
            super(policy, readBatch);
        }

        @Override
        protected boolean isWrite(Request message) {
            return message instanceof Write;
        }

        @Override
        protected boolean isControl(Request message) {
            return message instanceof Ask;
        }

        @Override
        protected void processRead(Request message) {
            readsRunning.incrementAndGet();
            if (writing) {
                overlaps.incrementAndGet();
            }
            long end = System.nanoTime() + ((Read) message).nanos();
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            if (writing) {
                overlaps.incrementAndGet();
            }
            reads.incrementAndGet();
            readsRunning.decrementAndGet();
            processed();
        }

        @Override
        protected void processWrite(Request message) {
            writing = true;
            if (readsRunning.get() != 0) {
                overlaps.incrementAndGet();
            }
            writes.incrementAndGet();
            writing = false;
            processed();
        }

        @Override
        protected void processControl(Request message) {
            Ask ask = (Ask) message;
            ask.inline().put(readsRunInline());
            if (ask.last()) {
                exit();
            }
        }
    }

    /**
     * Sends {@code reads} reads of {@code nanos} each, a write after every tenth; waits until the store has
     * processed them all; then asks where reads run.
     */
    private static boolean sendAndAsk(Store store, ActorRef<Request> ref, int reads, long nanos, boolean last)
            throws TimeoutException {
        DataDrivenFuture<Boolean> processed = store.expect(reads + reads / 10);
        for (int i = 1; i <= reads; i++) {
            ref.send(new Read(nanos));
            if (i % 10 == 0) {
                ref.send(new Write());
            }
        }
        processed.get(Duration.ofSeconds(30));
        DataDrivenFuture<Boolean> inline = new DataDrivenFuture<>();
        ref.send(new Ask(inline, last));
        return inline.get(Duration.ofSeconds(30));
    }

    /**
     * Runs {@code body} on a runtime of {@code workers} in a finish that waits for the store to exit; if the body
     * fails (an assertion), the store is told to exit, so that the failure ends the finish at once.
     */
    private static void onRuntime(int workers, Store store, Phases body) {
        try (TaskRuntime runtime = TaskRuntime.create(workers)) {
            runtime.finish(Duration.ofSeconds(50), () -> {
                ActorRef<Request> ref = store.start();
                try {
                    body.run(ref);
                } catch (Exception | Error failed) {
                    ref.send(new Ask(new DataDrivenFuture<>(), true));
                    throw failed;
                }
            });
        }
    }

    interface Phases {
        void run(ActorRef<Request> store) throws Exception;
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void cheapReadsRunInlineAndLongOnesAsTasksOnTwoWorkers(Policy policy) {
        Store store = new Store(policy, 1);
        // Inline, about one read in SAMPLE_PERIOD is timed: enough long reads for a few trials.
        int longReads = 4 * ReadPlacement.TRIAL * ReadPlacement.SAMPLE_PERIOD;
        onRuntime(2, store, ref -> {
            assertThat(sendAndAsk(store, ref, 2_000, 0, false)).as("after cheap reads, inline").isTrue();
            assertThat(sendAndAsk(store, ref, longReads, LONG_READ_NANOS, false))
                    .as("after long reads, tasks").isFalse();
            assertThat(sendAndAsk(store, ref, 4 * longReads, 0, true)).as("cheap again, inline").isTrue();
        });
        assertThat(store.reads.get()).isEqualTo(2_000 + longReads + 4 * longReads);
        assertThat(store.writes.get()).isEqualTo(2_000 / 10 + longReads / 10 + 4 * longReads / 10);
        assertThat(store.overlaps.get()).as("reads overlapping a write").isZero();
    }

    @Test
    void readsCheapAloneButWorthATaskTogetherGoToTasksWhereTheyShareOne() throws TimeoutException {
        long read = 1_100;               // under INLINE_BELOW_NANOS alone; eight of them over TASKS_ABOVE_NANOS
        assertThat(read).isLessThan(ReadPlacement.INLINE_BELOW_NANOS);
        assertThat(8 * read).isGreaterThan(ReadPlacement.TASKS_ABOVE_NANOS);
        int reads = 4 * ReadPlacement.TRIAL * ReadPlacement.SAMPLE_PERIOD;
        Store alone = new Store(Policy.AO, 1);
        onRuntime(2, alone, ref ->
                assertThat(sendAndAsk(alone, ref, reads, read, true)).as("one read a task").isTrue());
        Store together = new Store(Policy.AO, 8);
        onRuntime(2, together, ref -> {
            // One at a time, no read waits behind another: a task would carry one, and the reads come inline.
            // Waited for by polling the count: a future's waiter woken from inside the read would lengthen it.
            // Every batch is timed until the first choice, then about one in SAMPLE_PERIOD; on a loaded machine
            // the median of a choice's samples can be over the line, so the reads go on for up to 16 choices.
            boolean inline = false;
            for (int choice = 0; choice < 16 && !inline; choice++) {
                int singles = 2 * ReadPlacement.TRIAL * (choice == 0 ? 1 : ReadPlacement.SAMPLE_PERIOD);
                for (int i = 0; i < singles; i++) {
                    int target = together.processed.get() + 1;
                    ref.send(new Read(read));
                    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    while (together.processed.get() < target) {
                        assertThat(System.nanoTime()).as("read %d processed within 30 s", i).isLessThan(deadline);
                        Thread.yield();
                    }
                }
                inline = sendAndAsk(together, ref, 0, 0, false);
            }
            assertThat(inline).as("one at a time, inline within 16 choices").isTrue();
            assertThat(sendAndAsk(together, ref, reads, read, true)).as("queued: eight reads a task").isFalse();
        });
        assertThat(together.overlaps.get()).isZero();
    }

    @Test
    void longReadsInBatchesGoToTasks() {
        Store store = new Store(Policy.AO, 8);
        onRuntime(2, store, ref ->
                assertThat(sendAndAsk(store, ref, 16 * ReadPlacement.TRIAL, LONG_READ_NANOS, true)).isFalse());
        assertThat(store.reads.get()).isEqualTo(16 * ReadPlacement.TRIAL);
        assertThat(store.overlaps.get()).isZero();
    }

    @Test
    void onOneWorkerEveryReadRunsInline() {
        Store store = new Store(Policy.RF, 1);
        onRuntime(1, store, ref ->
                assertThat(sendAndAsk(store, ref, 4 * ReadPlacement.TRIAL, LONG_READ_NANOS, true)).isTrue());
        assertThat(store.reads.get()).isEqualTo(4 * ReadPlacement.TRIAL);
        assertThat(store.overlaps.get()).isZero();
    }
}

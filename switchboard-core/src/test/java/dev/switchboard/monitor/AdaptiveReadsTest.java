package dev.switchboard.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.internal.ManualClock;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The readers-writer monitor's reads run inline while they cost less than a hand-over to another worker, and in
 * parallel again once they cost more. The runtime reads a manual clock, and each read moves it by what the read
 * is to cost: so what the monitor measures, and therefore what it chooses, is decided by the test alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdaptiveReadsTest {
    sealed interface Op permits Get, Put, Boom, Stop {
    }

    /** A read that moves the runtime's clock by {@code nanos}: what it costs, as the runtime measures it. */
    record Get(long nanos) implements Op {
    }

    record Put() implements Op {
    }

    record Boom() implements Op {
    }

    record Stop() implements Op {
    }

    static final Category READS = Category.of("read", Get.class, Boom.class);
    static final Category WRITES = Category.of("write", Put.class, Stop.class);

    /** Counts what it processed and checks that a write never overlaps anything; counts down the phase's latch. */
    static final class Store extends Actor<Op> {
        final ManualClock clock;
        final AtomicInteger readers = new AtomicInteger();
        final AtomicInteger writers = new AtomicInteger();
        final AtomicInteger violations = new AtomicInteger();
        final AtomicInteger processed = new AtomicInteger();
        volatile CountDownLatch phase = new CountDownLatch(0);
        /** Reads run as tasks and inline (in the actor's turn) since the counts were last cleared. */
        final AtomicInteger tasks = new AtomicInteger();
        final AtomicInteger inline = new AtomicInteger();

        /** The share of reads that ran as tasks since the last call, in per cent; clears the counts. */
        int taskShare() {
            int t = tasks.getAndSet(0);
            int i = inline.getAndSet(0);
            return t + i == 0 ? 0 : 100 * t / (t + i);
        }

        Store(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        protected void process(Op op) {
            switch (op) {
                case Get g -> {
                    readers.incrementAndGet();
                    if (writers.get() != 0) {
                        violations.incrementAndGet();
                    }
                    (asTask() ? tasks : inline).incrementAndGet();
                    clock.advance(g.nanos());
                    readers.decrementAndGet();
                }
                case Put p -> {
                    if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                        violations.incrementAndGet();
                    }
                    writers.decrementAndGet();
                }
                case Boom b -> throw new IllegalStateException("boom");
                case Stop s -> exit();
            }
            processed.incrementAndGet();
            phase.countDown();
        }
    }

    /**
     * Whether the message being processed runs as a task of its own, not inline in the actor's turn: the nearest
     * frame that processes a started message is a message task's (a turn may itself run on a task's thread).
     */
    static boolean asTask() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> f.getClassName().equals("dev.switchboard.actor.MessageTask")
                        || f.getClassName().equals("dev.switchboard.actor.PolicyDispatch")
                        && (f.getMethodName().equals("runInline") || f.getMethodName().equals("runDirect")))
                .findFirst().map(f -> f.getClassName().endsWith("MessageTask")).orElse(false));
    }

    /**
     * Sends {@code count} operations (every tenth a write if {@code writes}) and waits until all are processed. The
     * choice is made as letters start, and a burst of reads that arrive together starts at once: the writes make
     * the reads start a few at a time, each batch after the last write, so that the later ones see the measurements
     * of the earlier ones.
     */
    static void phase(Store store, int count, long readNanos, boolean writes) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(count);
        store.phase = latch;
        for (int i = 0; i < count; i++) {
            store.ref().send(writes && i % 10 == 9 ? new Put() : new Get(readNanos));
        }
        assertThat(latch.await(30, TimeUnit.SECONDS)).as("the phase's operations were processed").isTrue();
    }

    /** Sends {@code op} alone and waits until it is processed. */
    static void one(Store store, Op op) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        store.phase = latch;
        store.ref().send(op);
        assertThat(latch.await(30, TimeUnit.SECONDS)).as("%s was processed", op).isTrue();
    }

    static TaskRuntime runtime(int workers, ManualClock clock) {
        return RuntimeInternals.clock(TaskRuntime.builder().name("adaptive-" + workers + "w").workers(workers), clock)
                .build();
    }

    /** Runs the store in a finish on another thread; returns that finish's outcome. */
    static CompletableFuture<Void> started(TaskRuntime rt, Store store) {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> rt.finish(() -> {
            store.start();
            started.countDown();
        }));
        try {
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return done;
    }

    @Test
    void readsStartInlineGoParallelWhenLongAndComeBackWhenCheap() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(2, clock)) {
            ReadersWriterMonitor monitor = new ReadersWriterMonitor(READS, WRITES);
            Store store = monitor.bind(new Store(clock));
            CompletableFuture<Void> done = started(rt, store);
            phase(store, 1, 0, false);
            assertThat(monitor.runsLettersInline()).as("at first, reads run inline").isTrue();
            store.taskShare();

            // Reads of 200 us: far longer than a hand-over, so parallel pays.
            phase(store, 2_000, 200_000, true);
            assertThat(store.taskShare()).as("per cent of long reads run as tasks").isGreaterThanOrEqualTo(80);

            // Reads that cost nothing: a hand-over costs more than they do. About one read in 16 is timed, and
            // the choice waits for 32 samples: some 500 reads run as tasks before it.
            phase(store, 8_000, 0, true);
            assertThat(store.taskShare()).as("per cent of cheap reads run as tasks").isLessThanOrEqualTo(20);

            phase(store, 6_000, 200_000, true);
            assertThat(store.taskShare()).as("per cent of long reads run as tasks, again").isGreaterThanOrEqualTo(80);

            store.ref().send(new Stop());
            done.get(30, TimeUnit.SECONDS);
            assertThat(store.violations.get()).as("writes overlapping anything").isZero();
            assertThat(store.processed.get()).isEqualTo(1 + 2_000 + 8_000 + 6_000 + 1);
            assertThat(store.readers.get()).isZero();
        }
    }

    /** Between the least a hand-over is taken to cost (2 µs) and twice that: the worth of a spare worker decides. */
    static final long MIDDLING_READ = 3_000;

    @Test
    void readsOfAFewMicrosecondsThatQueueUpGoParallelWhileAWorkerIsSpare() throws Exception {
        assertThat(middlingReadsAsTasks(false, false)).as("per cent of queued reads run as tasks")
                .isGreaterThanOrEqualTo(70);
    }

    @Test
    void readsOfAFewMicrosecondsStayInlineWhileTheOtherWorkerIsBusy() throws Exception {
        assertThat(middlingReadsAsTasks(true, false)).as("per cent of reads run as tasks, no worker spare")
                .isLessThanOrEqualTo(10);
    }

    @Test
    void readsOfAFewMicrosecondsThatComeOneAtATimeStayInline() throws Exception {
        assertThat(middlingReadsAsTasks(false, true)).as("per cent of lone reads run as tasks")
                .isLessThanOrEqualTo(5);
    }

    /**
     * Runs 3,000 reads of {@link #MIDDLING_READ} (every tenth operation a write) on two workers and returns the per
     * cent of them run as tasks: sent at once, so that each waits behind others, or one at a time (a client that
     * waits for each answer); with the other worker idle, or busy with a task of its own throughout.
     */
    static int middlingReadsAsTasks(boolean otherWorkerBusy, boolean oneAtATime) throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(2, clock)) {
            ReadersWriterMonitor monitor = new ReadersWriterMonitor(READS, WRITES);
            Store store = monitor.bind(new Store(clock));
            CompletableFuture<Void> done = started(rt, store);
            AtomicBoolean release = new AtomicBoolean();
            CountDownLatch spinning = new CountDownLatch(1);
            CompletableFuture<Void> busy = !otherWorkerBusy ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.runAsync(() -> rt.finish(() -> rt.async(() -> {
                        spinning.countDown();
                        while (!release.get()) {
                            Thread.onSpinWait();            // the other worker's own work, for the whole phase
                        }
                    })));
            int share;
            try {
                assertThat(!otherWorkerBusy || spinning.await(30, TimeUnit.SECONDS)).as("a worker runs the busy task")
                        .isTrue();
                phase(store, 1, 0, false);
                store.taskShare();
                if (oneAtATime) {
                    for (int i = 0; i < 3_000; i++) {
                        one(store, i % 10 == 9 ? new Put() : new Get(MIDDLING_READ));
                    }
                } else {
                    phase(store, 3_000, MIDDLING_READ, true);
                }
                share = store.taskShare();
            } finally {
                release.set(true);
            }
            busy.get(30, TimeUnit.SECONDS);
            store.ref().send(new Stop());
            done.get(30, TimeUnit.SECONDS);
            assertThat(store.violations.get()).as("writes overlapping anything").isZero();
            assertThat(store.processed.get()).isEqualTo(3_002);
            return share;
        }
    }

    /** A readers-writer monitor that counts what it is told: it decides for itself, so it hears of every letter. */
    static final class Counting extends ReadersWriterMonitor {
        final AtomicInteger left = new AtomicInteger();

        Counting() {
            super(READS, WRITES);
        }

        @Override
        protected void leave(Letter letter) {
            left.incrementAndGet();
            super.leave(letter);
        }
    }

    @Test
    void whileReadsRunInlineTheLibraryMonitorIsSkippedButASubclassHearsOfEveryLetter() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(2, clock)) {
            Counting monitor = new Counting();
            Store store = monitor.bind(new Store(clock));
            CompletableFuture<Void> done = started(rt, store);
            phase(store, 3_000, 0, true);
            assertThat(monitor.runsLettersInline()).isTrue();
            store.ref().send(new Stop());
            done.get(30, TimeUnit.SECONDS);
            assertThat(monitor.left.get()).as("leave() calls").isEqualTo(3_001);
            assertThat(store.violations.get()).isZero();
        }
    }

    @Test
    void aBurstBeforeTheFirstChoiceRunsPartlyAsTasksAndTheActorGoesOn() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(2, clock)) {
            ReadersWriterMonitor monitor = new ReadersWriterMonitor(READS, WRITES);
            Store store = monitor.bind(new Store(clock));
            CountDownLatch burst = new CountDownLatch(500);
            store.phase = burst;
            for (int i = 0; i < 500; i++) {
                store.ref().send(new Get(0));               // all there for the first turn, before anything is timed
            }
            CompletableFuture<Void> done = started(rt, store);
            assertThat(burst.await(30, TimeUnit.SECONDS)).as("the burst was processed").isTrue();
            assertThat(store.tasks.get()).as("reads of the burst run as tasks").isPositive();
            phase(store, 3_000, 0, false);                  // then one at a time, the policy left out
            assertThat(monitor.runsLettersInline()).isTrue();
            store.ref().send(new Stop());
            done.get(30, TimeUnit.SECONDS);
            assertThat(store.processed.get()).isEqualTo(3_501);
        }
    }

    @Test
    void onOneWorkerEveryLetterRunsInlineHoweverLong() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(1, clock)) {
            ReadersWriterMonitor monitor = new ReadersWriterMonitor(READS, WRITES);
            Store store = monitor.bind(new Store(clock));
            CompletableFuture<Void> done = started(rt, store);
            phase(store, 200, 1_000_000, true);
            assertThat(monitor.runsLettersInline()).isTrue();
            assertThat(store.tasks.get()).as("reads run as tasks").isZero();
            store.ref().send(new Stop());
            done.get(30, TimeUnit.SECONDS);
            assertThat(store.processed.get()).isEqualTo(201);
            assertThat(store.violations.get()).isZero();
        }
    }

    @Test
    void alwaysParallelKeepsCheapReadsAsTasksAndMustComeBeforeBind() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(2, clock)) {
            ReadersWriterMonitor monitor = new ReadersWriterMonitor(READS, WRITES).alwaysParallel();
            Store store = monitor.bind(new Store(clock));
            assertThatThrownBy(monitor::alwaysParallel).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("before bind()");
            CompletableFuture<Void> done = started(rt, store);
            phase(store, 3_000, 0, true);
            assertThat(monitor.runsLettersInline()).isFalse();
            assertThat(store.inline.get()).as("reads run inline").isZero();
            assertThat(monitor.toString()).contains("always parallel");
            store.ref().send(new Stop());
            done.get(30, TimeUnit.SECONDS);
            assertThat(store.violations.get()).isZero();
        }
    }

    @Test
    void aReadThatThrowsInlineFailsTheActorAndReachesItsFinish() throws Exception {
        ManualClock clock = new ManualClock();
        try (TaskRuntime rt = runtime(2, clock)) {
            ReadersWriterMonitor monitor = new ReadersWriterMonitor(READS, WRITES);
            Store store = monitor.bind(new Store(clock));
            CompletableFuture<Void> done = started(rt, store);
            phase(store, 3_000, 0, true);
            assertThat(monitor.runsLettersInline()).isTrue();
            store.ref().send(new Boom());
            assertThatThrownBy(() -> done.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasStackTraceContaining("boom");
            assertThat(store.processed.get()).isEqualTo(3_000);
            long deadBefore = rt.deadLetterCount();
            store.ref().send(new Get(0));                    // after the failure: a dead letter, not processed
            assertThat(rt.deadLetterCount() - deadBefore).isEqualTo(1);
            assertThat(store.processed.get()).isEqualTo(3_000);
        }
    }
}

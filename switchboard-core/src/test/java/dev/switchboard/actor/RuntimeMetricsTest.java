package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import dev.switchboard.testing.Runtimes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RuntimeMetrics}: exact once the work it counts has ended (messages processed by ended actors included,
 * dead letters by reason, failures, no actor live), actors that wait count as live, a blocked worker is busy and
 * what waits for it is queued; under a deterministic scheduler, where actors end on the test's thread, exact at
 * every step.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RuntimeMetricsTest {
    /** Exits on its {@code last}-th message. */
    static final class Counter extends Actor<Integer> {
        private final int last;

        Counter(int last) {
            this.last = last;
        }

        @Override
        protected void process(Integer n) {
            if (n == last) {
                exit();
            }
        }
    }

    /** Throws on "boom", exits on "exit", waits on its latch on "block"; keeps everything else. */
    static final class Quitter extends Actor<String> {
        private final CountDownLatch latch;

        Quitter() {
            this.latch = null;
        }

        Quitter(CountDownLatch latch) {
            this.latch = latch;
        }

        Quitter(BoundedMailbox bound) {
            super(bound);
            this.latch = null;
        }

        @Override
        protected void process(String s) {
            switch (s) {
                case "boom" -> throw new IllegalStateException("boom");
                case "exit" -> exit();
                case "block" -> {
                    try {
                        latch.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                default -> { }
            }
        }
    }

    /** Starts a child under a restart strategy that fails once and exits; exits when the child has ended. */
    static final class Parent extends Actor<String> {
        final List<ActorCore<?>> children = new ArrayList<>();

        @Override
        protected void onStart() {
            ActorRef<String> child = startChild("child", () -> {
                Quitter q = new Quitter();
                synchronized (children) {
                    children.add(q);
                }
                return q;
            }, SupervisorStrategy.restart());
            child.send("boom");       // fails, is dropped (FAILED_PROCESSING), and the child restarts
            child.send("exit");
            watch(child, ended -> "child ended");
        }

        @Override
        protected void process(String s) {
            exit();
        }
    }

    /** Runs {@code program} as a finish on a thread of its own. */
    private static CompletableFuture<Void> inBackground(TaskRuntime rt, Runnable program) {
        return CompletableFuture.runAsync(() -> rt.finish(program::run),
                r -> Thread.ofPlatform().daemon().name("program").start(r));
    }

    @Test
    void afterAProgramEndsEveryMessageOfEveryEndedActorIsCountedAndNoActorIsLive() {
        int actors = 500;
        int messages = 40;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            RuntimeMetrics before = RuntimeMetrics.of(rt);
            assertThat(before.messagesProcessed()).isZero();
            assertThat(before.actorsLive()).isZero();
            rt.finish(() -> {
                for (int a = 0; a < actors; a++) {
                    ActorRef<Integer> c = new Counter(messages).start("counter-" + a);
                    for (int m = 1; m <= messages; m++) {
                        c.send(m);
                    }
                }
            });
            RuntimeMetrics m = RuntimeMetrics.of(rt);
            assertThat(m.runtime()).isEqualTo("test-2w");
            assertThat(m.messagesProcessed()).isEqualTo((long) actors * messages);
            assertThat(m.actorsLive()).isZero();
            assertThat(m.deadLetterCount()).isZero();
            assertThat(m.deadLetters()).hasSize(DeadLetter.Reason.values().length).containsValue(0L)
                    .doesNotContainValue(1L);
            assertThat(m.failures()).isZero();
            assertThat(m.workers()).isBetween(1, 2 + 8);           // the pool may have added a few for blocked ones
            rt.close();
            assertThat(RuntimeMetrics.of(rt).messagesProcessed()).as("after the close").isEqualTo((long) actors * messages);
        }
    }

    @Test
    void messagesProcessedNeverGoesDownBetweenSnapshotsWhileActorsComeAndGo() throws Exception {
        int actors = 20_000;
        int messages = 3;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            CompletableFuture<Void> done = inBackground(rt, () -> {
                for (int a = 0; a < actors; a++) {
                    ActorRef<Integer> c = new Counter(messages).start();
                    for (int m = 1; m <= messages; m++) {
                        c.send(m);
                    }
                }
            });
            long last = 0;
            int snapshots = 0;
            List<String> decreases = new ArrayList<>();
            while (!done.isDone() || snapshots < 10) {
                long now = RuntimeMetrics.of(rt).messagesProcessed();
                if (now < last) {
                    decreases.add(last + " -> " + now);
                }
                last = now;
                snapshots++;
            }
            done.get(30, TimeUnit.SECONDS);
            assertThat(decreases).as("over %d snapshots", snapshots).isEmpty();
            assertThat(RuntimeMetrics.of(rt).messagesProcessed()).isEqualTo((long) actors * messages);
        }
    }

    @Test
    void actorsWaitingForMessagesAreLiveAndTheirMessagesCount() throws Exception {
        int actors = 100;
        try (TaskRuntime rt = Runtimes.workers(2)) {
            List<Quitter> waiting = new ArrayList<>();
            List<ActorRef<String>> refs = new ArrayList<>();
            CompletableFuture<Void> program = inBackground(rt, () -> {
                for (int i = 0; i < actors; i++) {
                    Quitter q = new Quitter();
                    ActorRef<String> ref = q.start("waiter-" + i);
                    synchronized (waiting) {
                        waiting.add(q);
                        refs.add(ref);
                    }
                    ref.send("hello");
                }
            });
            Await.until("every waiter processed its hello", () -> {
                synchronized (waiting) {
                    return waiting.size() == actors && waiting.stream().allMatch(q -> q.processedCount() == 1);
                }
            });
            Await.until("the workers have nothing to do", () -> {
                RuntimeMetrics m = RuntimeMetrics.of(rt);
                return m.workersBusy() == 0 && m.queued() == 0;
            });
            RuntimeMetrics parked = RuntimeMetrics.of(rt);
            assertThat(parked.actorsLive()).isEqualTo(actors);
            assertThat(parked.messagesProcessed()).isEqualTo(actors);
            synchronized (waiting) {
                refs.forEach(r -> r.send("exit"));
            }
            program.get(60, TimeUnit.SECONDS);
            RuntimeMetrics ended = RuntimeMetrics.of(rt);
            assertThat(ended.actorsLive()).isZero();
            assertThat(ended.messagesProcessed()).isEqualTo(2L * actors);
        }
    }

    @Test
    void aBlockedWorkerIsBusyAndTheActorsThatWaitForItAreQueued() throws Exception {
        int others = 5;
        CountDownLatch release = new CountDownLatch(1);
        try (TaskRuntime rt = Runtimes.workers(1)) {
            CompletableFuture<Void> program = inBackground(rt, () -> {
                ActorRef<String> blocker = new Quitter(release).start("blocker");
                blocker.send("block");
                blocker.send("exit");
                for (int i = 0; i < others; i++) {
                    ActorRef<String> q = new Quitter().start("other-" + i);
                    q.send("exit");
                }
            });
            try {
                Await.until("the one worker is busy and the others' activations wait", () -> {
                    RuntimeMetrics m = RuntimeMetrics.of(rt);
                    return m.workers() == 1 && m.workersBusy() == 1 && m.queued() == others
                            && m.actorsLive() == others + 1;
                });
            } finally {
                release.countDown();
            }
            program.get(60, TimeUnit.SECONDS);
            RuntimeMetrics m = RuntimeMetrics.of(rt);
            assertThat(m.actorsLive()).isZero();
            assertThat(m.messagesProcessed()).isEqualTo(2 + others);
            Await.until("the worker is idle and nothing is queued", () -> {
                RuntimeMetrics idle = RuntimeMetrics.of(rt);
                return idle.workersBusy() == 0 && idle.queued() == 0;
            });
        }
    }

    @Test
    void deadLettersAreCountedByReasonAndFailuresHandledOrNot() {
        List<ActorCore<?>> actors = new ArrayList<>();
        TaskRuntime rt = Runtimes.workers(2);
        try {
            Quitter quitter = new Quitter();
            Quitter sink = new Quitter(BoundedMailbox.dropping(2));
            Parent parent = new Parent();
            actors.addAll(List.of(quitter, sink, parent));
            rt.finish(() -> {
                ActorRef<String> q = quitter.self();
                q.send("exit");
                for (int i = 0; i < 3; i++) {
                    q.send("left");                      // 3 UNPROCESSED_AT_EXIT: queued behind the exit
                }
                q = quitter.start("quitter");
                ActorRef<String> s = sink.self();
                s.send("a");
                s.send("exit");
                for (int i = 0; i < 3; i++) {
                    s.send("dropped");                   // 3 MAILBOX_FULL, before the start
                }
                sink.start("sink");
                parent.start("parent");                  // 1 FAILED_PROCESSING, 1 failure its supervisor handled
            });
            quitter.self().send("late");                 // 2 RECIPIENT_TERMINATED
            quitter.self().send("late");
            Quitter failing = new Quitter();
            actors.add(failing);
            assertThatThrownBy(() -> rt.finish(() -> failing.start("failing").send("boom")))
                    .hasMessageContaining("boom");        // 1 failure that ended its actor
            Quitter idle = new Quitter();
            actors.add(idle);
            Seam.runUnscoped(rt, () -> idle.start("idle"));
            Await.until("the idle actor is live", () -> RuntimeMetrics.of(rt).actorsLive() == 1);
            rt.close();
            idle.self().send("after the close");         // 2 RUNTIME_CLOSED
            idle.self().send("after the close");
            actors.add(parent.children.get(0));          // the child's cell (a restart's instance counts in it)

            RuntimeMetrics m = RuntimeMetrics.of(rt);
            Map<DeadLetter.Reason, Long> expected = new EnumMap<>(DeadLetter.Reason.class);
            for (DeadLetter.Reason r : DeadLetter.Reason.values()) {
                expected.put(r, 0L);
            }
            expected.put(DeadLetter.Reason.UNPROCESSED_AT_EXIT, 3L);
            expected.put(DeadLetter.Reason.MAILBOX_FULL, 3L);
            expected.put(DeadLetter.Reason.FAILED_PROCESSING, 1L);
            expected.put(DeadLetter.Reason.RECIPIENT_TERMINATED, 2L);
            expected.put(DeadLetter.Reason.RUNTIME_CLOSED, 2L);
            assertThat(m.deadLetters()).isEqualTo(expected);
            assertThat(m.deadLetterCount()).isEqualTo(11).isEqualTo(rt.deadLetterCount());
            assertThat(m.deadLetters(DeadLetter.Reason.MAILBOX_FULL)).isEqualTo(3);
            assertThat(m.failures()).isEqualTo(2);
            assertThat(m.actorsLive()).isZero();
            long processed = actors.stream().mapToLong(ActorCore::processedCount).sum();
            assertThat(m.messagesProcessed()).isEqualTo(processed).isPositive();
        } finally {
            rt.close();
        }
    }

    @Test
    void underADeterministicSchedulerActorsEndOnTheTestThreadAndEveryStepIsExact() {
        int actors = 20;
        int messages = 10;
        DeterministicScheduler d = new DeterministicScheduler(42);
        List<Counter> counters = new ArrayList<>();
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            d.runUnscoped(() -> {
                for (int a = 0; a < actors; a++) {
                    Counter counter = new Counter(messages);
                    counters.add(counter);
                    ActorRef<Integer> c = counter.start("counter-" + a);
                    for (int m = 1; m <= messages; m++) {
                        c.send(m);
                    }
                }
            });
            RuntimeMetrics ready = RuntimeMetrics.of(rt);
            assertThat(ready.actorsLive()).isEqualTo(actors);
            assertThat(ready.queued()).isEqualTo(d.readyCount()).isEqualTo(actors);
            assertThat(ready.messagesProcessed()).isZero();
            assertThat(ready.workers()).isZero();
            for (int step = 1; d.runNext(); step++) {
                RuntimeMetrics m = RuntimeMetrics.of(rt);
                assertThat(m.messagesProcessed()).as("after step %d", step)
                        .isEqualTo(counters.stream().mapToLong(Counter::processedCount).sum());
                assertThat(m.actorsLive()).as("after step %d", step)
                        .isEqualTo(counters.stream().filter(ActorCore::isOpen).count());   // an exit ends at the drain
                assertThat(m.queued()).isEqualTo(d.readyCount());
            }
            RuntimeMetrics done = RuntimeMetrics.of(rt);
            assertThat(done.messagesProcessed()).isEqualTo((long) actors * messages);
            assertThat(done.actorsLive()).isZero();
            assertThat(done.queued()).isZero();
        }
    }

    @Test
    void aSnapshotIsImmutable() {
        RuntimeMetrics m = new RuntimeMetrics("r", 2, 1, 3, 4, 5, Map.of(DeadLetter.Reason.MAILBOX_FULL, 6L), 7);
        assertThat(m.deadLetters()).hasSize(DeadLetter.Reason.values().length);
        assertThat(m.deadLetterCount()).isEqualTo(6);
        assertThatThrownBy(() -> m.deadLetters().put(DeadLetter.Reason.MAILBOX_FULL, 0L))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}

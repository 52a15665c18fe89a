package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Actors under a {@link DeterministicScheduler}: three senders each send {@value #MESSAGES} numbered messages to
 * one recorder, the next one when the recorder has acknowledged the last. The order the recorder sees them in is
 * the same for the same seed, differs between seeds, and keeps each sender's messages in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeterministicSchedulerTest {
    static final int SENDERS = 3;
    static final int MESSAGES = 20;

    /** Message {@code n} of sender {@code sender}, to be acknowledged to {@code from}. */
    record Numbered(int sender, int n, ActorRef<Integer> from) {
    }

    /** Records what it receives (only its own turns touch the list) and acknowledges each message. */
    static final class Recorder extends Actor<Numbered> {
        final List<String> seen = new ArrayList<>();

        @Override
        protected void process(Numbered m) {
            seen.add(m.sender() + ":" + m.n());
            m.from().send(m.n());
        }
    }

    /** Sends message 0 when it starts, and message n + 1 when n is acknowledged, up to {@value #MESSAGES}. */
    static final class Sender extends Actor<Integer> {
        final int id;
        final ActorRef<Numbered> recorder;

        Sender(int id, ActorRef<Numbered> recorder) {
            this.id = id;
            this.recorder = recorder;
        }

        @Override
        protected void onStart() {
            recorder.send(new Numbered(id, 0, self()));
        }

        @Override
        protected void process(Integer acked) {
            if (acked + 1 < MESSAGES) {
                recorder.send(new Numbered(id, acked + 1, self()));
            }
        }
    }

    /** What one run of the program under {@code seed} recorded: the recorder's interleaving and the nodes run. */
    record Run(List<String> seen, List<String> history) {
    }

    /** Starts the actors in the runtime's global scope, then runs them on this thread until nothing is ready. */
    private static Run runWithSeed(long seed) {
        DeterministicScheduler d = new DeterministicScheduler(seed);
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            Recorder recorder = new Recorder();
            d.runUnscoped(() -> {
                ActorRef<Numbered> ref = recorder.start();
                for (int i = 0; i < SENDERS; i++) {
                    new Sender(i, ref).start();
                }
            });
            assertThat(recorder.seen).as("nothing runs before the test runs it").isEmpty();
            assertThat(d.readyCount()).isPositive();
            int steps = d.runUntilQuiet();
            assertThat(d.readyCount()).isZero();
            assertThat(d.history()).hasSize(steps);
            assertThat(RuntimeInternals.schedulerOf(rt).workers).as("worker threads started").isEmpty();
            return new Run(List.copyOf(recorder.seen), d.history());
        }
    }

    @Test
    void theSameSeedGivesTheSameInterleavingAndDifferentSeedsDifferentOnes() {
        Set<List<String>> interleavings = new HashSet<>();
        for (long seed = 1; seed <= 4; seed++) {
            Run first = runWithSeed(seed);
            Run second = runWithSeed(seed);
            assertThat(second.seen()).as("seed %d run twice", seed).isEqualTo(first.seen());
            assertThat(second.history()).as("seed %d: nodes run", seed).hasSameSizeAs(first.history());
            assertEveryMessageInSenderOrder(first.seen());
            interleavings.add(first.seen());
        }
        assertThat(interleavings).as("interleavings of 4 seeds").hasSizeGreaterThan(1);
    }

    private static void assertEveryMessageInSenderOrder(List<String> seen) {
        assertThat(seen).hasSize(SENDERS * MESSAGES);
        int[] next = new int[SENDERS];
        for (String s : seen) {
            String[] parts = s.split(":");
            int sender = Integer.parseInt(parts[0]);
            assertThat(Integer.parseInt(parts[1])).as("sender %d's next message in %s", sender, seen)
                    .isEqualTo(next[sender]++);
        }
    }

    @Test
    void aChooserPicksTheNodeAndRunNextRunsOneAtATime() {
        AtomicInteger choices = new AtomicInteger();
        DeterministicScheduler d = new DeterministicScheduler(ready -> {
            choices.incrementAndGet();
            return ready.size() - 1;                     // the newest ready node
        });
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            List<Integer> ran = new ArrayList<>();
            d.runUnscoped(() -> {
                for (int i = 0; i < 3; i++) {
                    int n = i;
                    rt.async(() -> ran.add(n));
                }
            });
            assertThat(d.readyCount()).isEqualTo(3);
            assertThat(d.runNext()).isTrue();
            assertThat(ran).containsExactly(2);
            assertThat(d.runUntilQuiet()).isEqualTo(2);
            assertThat(ran).containsExactly(2, 1, 0);
            assertThat(d.runNext()).isFalse();
            assertThat(choices).hasValue(3);
        }
    }

    @Test
    void aFinishOnTheTestThreadRunsItsWorkHere() {
        DeterministicScheduler d = new DeterministicScheduler(7);
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            Thread test = Thread.currentThread();
            List<Thread> ranOn = new ArrayList<>();
            rt.finish(() -> {
                for (int i = 0; i < 5; i++) {
                    rt.async(() -> ranOn.add(Thread.currentThread()));
                }
            });
            assertThat(ranOn).hasSize(5).containsOnly(test);
            assertThat(d.history()).hasSize(5);
        }
    }

    @Test
    void aFinishWaitedForInsideATaskFailsInsteadOfHanging() {
        DeterministicScheduler d = new DeterministicScheduler(7);
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            assertThatThrownBy(() -> rt.finish(() -> rt.async(() -> rt.finish(() -> rt.async(() -> { })))))
                    .hasStackTraceContaining("is not supported");
        }
    }

    @Test
    void aFinishWaitingForWorkNothingMakesReadyFailsInsteadOfHanging() {
        DeterministicScheduler d = new DeterministicScheduler(7);
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            assertThatThrownBy(() -> rt.finish(() -> new Recorder().start()))
                    .hasStackTraceContaining("nothing has made ready");
        }
    }

    @Test
    void aDeterministicRuntimeNumbersItsOwnActorsFromOne() {
        for (int run = 0; run < 2; run++) {
            DeterministicScheduler d = new DeterministicScheduler(run);
            try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
                List<Long> ids = new ArrayList<>();
                d.runUnscoped(() -> {
                    ids.add(new Recorder().start().id());
                    ids.add(new Recorder().ref().id());      // not started yet: the runtime of the code asking
                });
                assertThat(ids).containsExactly(1L, 2L);
            }
        }
    }

    @Test
    void aTurnThatUsedUpItsBudgetEndsEvenWithNothingElseReady() {
        DeterministicScheduler d = new DeterministicScheduler(3);
        try (TaskRuntime rt = Runtimes.deterministic(d, 1)) {
            Recorder r = new Recorder();
            d.runUnscoped(() -> {
                ActorRef<Numbered> ref = r.start();
                for (int i = 0; i < 5; i++) {
                    ref.send(new Numbered(0, i, new Actor<Integer>() {
                        @Override
                        protected void process(Integer m) {
                        }
                    }.ref()));
                }
            });
            assertThat(d.runNext()).isTrue();                 // one message: the turn ends at its budget of 1
            assertThat(r.seen).hasSize(1);
            assertThat(d.readyNodes()).hasSize(1);            // the recorder again, ready for the next decision
        }
    }
}

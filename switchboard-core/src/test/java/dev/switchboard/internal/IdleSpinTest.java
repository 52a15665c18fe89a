package dev.switchboard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.task.RuntimeInternals;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A runtime whose idle workers spin for work before they park ({@code TaskRuntime.Builder.idleSpin}): a worker
 * that has run out of work takes what another worker makes stealable meanwhile, runs everything it is given, and
 * stops spinning once the spin has passed without work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleSpinTest {
    static final int ROUNDS = 200;

    /** Busy for about {@code nanos}. */
    static void work(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * One task forks a short task, works a while, and forks the next, {@link #ROUNDS} times: each forked task runs
     * on whichever worker takes it, and the worker that ran one is out of work until the next fork.
     */
    static long forkRounds(TaskRuntime rt) {
        AtomicLong ran = new AtomicLong();
        rt.finish(() -> {
            for (int i = 0; i < ROUNDS; i++) {
                rt.async(() -> {
                    work(2_000);
                    ran.incrementAndGet();
                });
                work(20_000);
            }
        });
        return ran.get();
    }

    @Test
    void anIdleWorkerThatSpinsTakesWhatAnotherForksAndStopsAfterTheSpin() {
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).idleSpin(TaskRuntime.Builder.MAX_IDLE_SPIN).build()) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            assertThat(s.spinsWhenIdle()).isTrue();
            assertThat(rt.idleSpin()).isEqualTo(TaskRuntime.Builder.MAX_IDLE_SPIN);
            // after each task the second worker spins 10 ms, far longer than the 20 us until the next fork, so it
            // finds most of them; a machine that keeps that worker off its core for whole series makes it find
            // none, so up to 20 series
            for (int series = 0; series < 20 && s.idleSpin.finds() == 0; series++) {
                assertThat(forkRounds(rt)).isEqualTo(ROUNDS);
            }
            assertThat(s.idleSpin.finds()).as("work found while spinning").isPositive();
            Await.until("no worker spins once the runtime is out of work", () -> s.idleSpin.spinningWorkers() == 0);
        }
    }

    @Test
    void aRuntimeThatDoesNotSpinNeverDoes() {
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).build()) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            assertThat(s.spinsWhenIdle()).isFalse();
            assertThat(rt.idleSpin()).isEqualTo(Duration.ZERO);
            assertThat(forkRounds(rt)).isEqualTo(ROUNDS);
            assertThat(s.idleSpin.finds()).isZero();
            assertThat(s.idleSpin.spinningWorkers()).isZero();
        }
    }

    @Test
    void aSpinningWorkerCountsAsIdleForTheSpreadingRules() throws Exception {
        try (TaskRuntime rt = TaskRuntime.builder().workers(2).idleSpin(TaskRuntime.Builder.MAX_IDLE_SPIN).build()) {
            Scheduler s = RuntimeInternals.schedulerOf(rt);
            CountDownLatch bothBusy = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            Thread owner = Thread.ofPlatform().start(() -> rt.finish(() -> {
                for (int i = 0; i < 2; i++) {
                    rt.async(() -> {
                        bothBusy.countDown();
                        try {
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
            }));
            try {
                assertThat(bothBusy.await(30, TimeUnit.SECONDS)).as("both workers run a task").isTrue();
                assertThat(s.idleSpin.idleWorkers()).as("both workers busy").isFalse();
                s.idleSpin.started();                     // as a worker that spins for work: active for the pool
                try {
                    assertThat(s.idleSpin.idleWorkers()).as("one of them spinning for work").isTrue();
                } finally {
                    s.idleSpin.ended();
                }
            } finally {
                release.countDown();
                owner.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThat(owner.isAlive()).isFalse();
        }
    }
}

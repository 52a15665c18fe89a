package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thread that spins is found and named; a parked one is not. The tests ask for 5 % of a core, which a spinning
 * thread gets even on a machine busy with other work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpinningThreadsTest {
    private static final double BUSY_MACHINE_SHARE = 0.05;

    @Test
    void aSpinningThreadIsNamedWithItsCpuTime() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread spinner = Thread.ofPlatform().name("spinning-threads-test-spinner").start(() -> {
            started.countDown();
            while (!stop.get()) {
                Thread.onSpinWait();
            }
        });
        CountDownLatch release = new CountDownLatch(1);
        Thread parked = Thread.ofPlatform().name("spinning-threads-test-parked").start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            started.await();
            assertThat(SpinningThreads.among("spinning-threads-test-", BUSY_MACHINE_SHARE)).singleElement()
                    .asString().startsWith("'spinning-threads-test-spinner' (").endsWith(" ms of CPU in 100 ms)");
            assertThat(SpinningThreads.among("spinning-threads-test-parked", BUSY_MACHINE_SHARE)).isEmpty();
            assertThat(SpinningThreads.among("no-thread-is-called-this", BUSY_MACHINE_SHARE)).isEmpty();
        } finally {
            stop.set(true);
            release.countDown();
            spinner.join();
            parked.join();
        }
        assertThat(SpinningThreads.among("spinning-threads-test-", BUSY_MACHINE_SHARE)).as("ended threads").isEmpty();
    }
}

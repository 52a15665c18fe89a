package dev.switchboard.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * How a {@link TestKit} waits for something to happen in its runtime: on real workers the test thread blocks while
 * the workers run the program ({@link Real}); under a deterministic schedule nothing runs unless the test thread
 * runs it, so waiting is running the program, one scheduling decision at a time, until the condition holds or
 * nothing more can happen (the explorer's driver).
 */
abstract class Driver {
    /**
     * Waits until {@code done} holds, at most {@code max} (real time on workers, the test clock's time under a
     * deterministic schedule); returns whether it held.
     */
    abstract boolean await(BooleanSupplier done, Duration max);

    /** Something a wait may be waiting for has happened: a probe received a message, a failure, a dead letter. */
    abstract void changed();

    /** Whether this driver runs the program on the test thread (a deterministic schedule). */
    abstract boolean deterministic();

    /** Real workers run the program; the test thread blocks, woken by {@link #changed()} or every few ms. */
    static final class Real extends Driver {
        /** How often a wait looks at a condition nobody announces (an actor that ended, say). */
        private static final long RECHECK_NANOS = 5_000_000;
        private final Object lock = new Object();
        /** Counts {@link #changed()} calls: a wait that saw no change since it asked parks, and no longer. */
        private long changes;

        @Override
        boolean await(BooleanSupplier done, Duration max) {
            long deadline = System.nanoTime() + max.toNanos();
            for (;;) {
                long seen;
                synchronized (lock) {
                    seen = changes;
                }
                if (done.getAsBoolean()) {          // outside the lock: the runtime's threads never wait for it
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                synchronized (lock) {
                    if (changes == seen) {
                        long wait = Math.min(left, RECHECK_NANOS);
                        try {
                            lock.wait(wait / 1_000_000, (int) (wait % 1_000_000));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new AssertionError("interrupted while waiting", e);
                        }
                    }
                }
            }
        }

        @Override
        void changed() {
            synchronized (lock) {
                changes++;
                lock.notifyAll();
            }
        }

        @Override
        boolean deterministic() {
            return false;
        }
    }
}

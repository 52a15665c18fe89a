package dev.switchboard.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The one way tests wait for a condition another thread makes true: it fails, naming what it waited for, when
 * the condition has not held within {@link #TIMEOUT_SECONDS} (generous, for a busy machine), never returning as
 * if it had.
 */
public final class Await {
    /** How long a condition may take. */
    public static final long TIMEOUT_SECONDS = 20;
    /** Looks at the condition that spin, before the wait parks between looks. */
    private static final int SPINS = 1_000;
    private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private Await() {
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @throws AssertionError if it does not hold within {@link #TIMEOUT_SECONDS}
     */
    public static void until(String what, BooleanSupplier condition) {
        until(() -> what, condition);
    }

    /** {@link #until(String, BooleanSupplier)}, with {@code what} made when the wait fails (it can say what is missing). */
    public static void until(java.util.function.Supplier<String> what, BooleanSupplier condition) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        for (int looks = 0; !condition.getAsBoolean(); looks++) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("waited " + TIMEOUT_SECONDS + " s for " + what.get());
            }
            if (looks < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NANOS);   // on two cores a spinning waiter takes a whole worker's core
            }
        }
    }
}

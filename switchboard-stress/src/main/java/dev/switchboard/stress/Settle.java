package dev.switchboard.stress;

import java.util.function.BooleanSupplier;

/** Lets an arbiter wait, boundedly, for work the runtime finishes on its own threads. */
final class Settle {
    private static final long LIMIT_NANOS = 2_000_000_000L;

    private Settle() {
    }

    /** Spins until {@code done} holds or two seconds passed; the caller then records what it sees. */
    static void until(BooleanSupplier done) {
        long end = System.nanoTime() + LIMIT_NANOS;
        while (!done.getAsBoolean() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}

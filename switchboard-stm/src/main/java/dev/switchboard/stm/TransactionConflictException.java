package dev.switchboard.stm;

import java.io.Serial;

/**
 * A transaction ran the most attempts it may ({@link Stm#atomic(int, java.util.function.Supplier)}) and
 * conflicted every time: it was given up instead of being retried for ever. Its writes were rolled back.
 */
public final class TransactionConflictException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** How many times the transaction ran. */
    private final int attempts;

    TransactionConflictException(String message, int attempts) {
        super(message);
        this.attempts = attempts;
    }

    /**
     * How many times the transaction ran before it was given up.
     *
     * @return its attempts
     */
    public int attempts() {
        return attempts;
    }
}

package dev.switchboard.task;

import java.io.Serial;
import java.util.List;

/**
 * Thrown by a {@code finish} when more than one task or actor inside it failed: it lists every failure, oldest
 * first, in its message, in {@link #failures()} and as suppressed exceptions (so stack traces print them all).
 * A finish with exactly one failure rethrows that failure itself.
 *
 * <pre>{@code
 * try {
 *     finish(() -> { async(() -> fail("a")); async(() -> fail("b")); });
 * } catch (MultiException e) {
 *     e.failures().forEach(System.err::println);
 * }
 * }</pre>
 */
public final class MultiException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient List<Throwable> failures;

    public MultiException(List<Throwable> failures) {
        super(message(failures), null, true, true);
        this.failures = List.copyOf(failures);
        for (Throwable f : this.failures) {
            addSuppressed(f);
        }
    }

    /** Every failure, oldest first. */
    public List<Throwable> failures() {
        return failures;
    }

    private static String message(List<Throwable> failures) {
        StringBuilder sb = new StringBuilder().append(failures.size()).append(" failures in finish:");
        int i = 1;
        for (Throwable f : failures) {
            sb.append("\n  [").append(i++).append("] ").append(f);
        }
        return sb.toString();
    }
}

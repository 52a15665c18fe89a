package dev.switchboard.task;

import dev.switchboard.internal.SafeText;
import java.io.Serial;
import java.util.List;

/**
 * Thrown by a {@code finish} when more than one task or actor inside it failed: it lists the failures, oldest
 * first, in its message, in {@link #failures()} and as suppressed exceptions (so stack traces print them all).
 * A finish with exactly one failure rethrows that failure itself; so does a finish that its runtime's close
 * stopped (its {@link RuntimeClosedException}, the other failures suppressed in it), and one that a fatal error
 * stopped when all its failures are fatal.
 *
 * <p>A finish keeps the first {@value dev.switchboard.internal.Scope#MAX_KEPT_FAILURES} failures and counts the
 * rest, so a loop in which a million iterations throw cannot exhaust the heap with exceptions:
 * {@link #failureCount()} says how many there were in all, and the message ends with "and N more".
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
    /** Failures listed one per line in the message; {@link #failures()} has all those kept. */
    private static final int LISTED = 25;
    /** The characters of a listed failure's text, at most (its own message may be megabytes). */
    private static final int LISTED_CHARS = 2_000;

    private final transient List<Throwable> failures;
    private final long failureCount;

    /** An aggregate of {@code failures}, every failure there was. */
    public MultiException(List<Throwable> failures) {
        this(failures, failures.size());
    }

    /**
     * An aggregate of {@code failures}, the first of {@code failureCount} failures (the others were counted, not
     * kept).
     */
    public MultiException(List<Throwable> failures, long failureCount) {
        super(message(failures, Math.max(failureCount, failures.size())), null, true, true);
        this.failures = List.copyOf(failures);
        this.failureCount = Math.max(failureCount, failures.size());
        for (Throwable f : this.failures) {
            addSuppressed(f);
        }
    }

    /** The failures kept, oldest first (all of them, unless {@link #failureCount()} is larger). */
    public List<Throwable> failures() {
        return failures;
    }

    /** How many failures there were, including those counted but not kept. */
    public long failureCount() {
        return failureCount;
    }

    private static String message(List<Throwable> failures, long count) {
        StringBuilder sb = new StringBuilder().append(count).append(count == 1 ? " failure" : " failures")
                .append(" in finish:");
        int i = 1;
        for (Throwable f : failures) {
            if (i > LISTED) {
                break;
            }
            sb.append("\n  [").append(i++).append("] ").append(SafeText.brief(f, LISTED_CHARS));
        }
        long more = count - (i - 1);
        if (more > 0) {
            sb.append("\n  ... and ").append(more).append(" more");
            if (count > failures.size()) {
                sb.append(" (failures() holds the first ").append(failures.size()).append(")");
            }
        }
        return sb.toString();
    }
}

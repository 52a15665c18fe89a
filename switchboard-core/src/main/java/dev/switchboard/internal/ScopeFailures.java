package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * The failures recorded in one {@link Scope}, for its finish to rethrow: the first
 * {@value Scope#MAX_KEPT_FAILURES} kept, oldest first, how many were recorded in all, and the futures' failures
 * recorded, so that a {@code get()}'s rethrow of one is not recorded again.
 *
 * <h2>Implementation notes</h2>
 * {@link Scope#addFailure} makes this object at the scope's first failure, not with the scope: almost every finish
 * never fails, and a finish per call (FibFinish) would pay an allocation per call for nothing. Until then the
 * scope's field is null, which its readers take for "no failure recorded". It is made inside addFailure's
 * {@code try}, so an {@link OutOfMemoryError} while making it takes the same path as one while recording: the
 * scope counts the failure and keeps the first such in fields of its own ({@code unrecorded},
 * {@code unrecordedCount}), which need neither this object nor memory. The count of task failures no log has told
 * of yet stays in the scope too, so that a task failure that found no memory for this object is still counted. The
 * class is loaded with the runtime ({@code FailurePathClasses}), not at a first failure that may come when the
 * heap is exhausted.
 *
 * <p>Everything here is guarded by the scope's own monitor, the one that also guards the scope's
 * {@link Scope#stopped() stopping} and its hand-over of work ({@link Scope#adoptInto}): {@link Scope#addFailure}
 * records a failure and, if it is fatal, stops the finish in one critical section, so the finish it ends rethrows
 * that failure. Every method here is called holding that monitor and takes no lock of its own.
 */
final class ScopeFailures {
    /** The first failures, oldest first, at most {@link Scope#MAX_KEPT_FAILURES}. */
    private final List<Throwable> failures = new ArrayList<>(2);
    /**
     * The failures of futures' tasks recorded here ({@link Scope#addFutureFailure}), unwrapped, at most
     * {@link Scope#MAX_KEPT_FAILURES}; null until the first (always in the global scope). Only those can come back
     * from a {@code get()}, and such a failure is not recorded again.
     */
    private List<Throwable> futuresFailures;
    /** Failures recorded, kept or not. */
    private long recorded;

    /**
     * Records {@code failure} (kept if fewer than {@link Scope#MAX_KEPT_FAILURES} are, counted always), unless it is,
     * bare or in {@link CompletionException}s, a future's failure recorded here already: returns false then.
     * {@code rememberAsFutures}: it is a future's failure, to remember for that (not in the global scope). May throw
     * for lack of memory, before anything is recorded or once the failure is remembered as a future's (the scope
     * then counts it as not recorded).
     */
    boolean record(Throwable failure, boolean rememberAsFutures) {
        if (isAFuturesFailure(failure)) {
            return false;
        }
        if (rememberAsFutures) {
            rememberFuturesFailure(failure);     // first: if it cannot, nothing is recorded yet
        }
        if (failures.size() < Scope.MAX_KEPT_FAILURES) {
            failures.add(failure);
        }
        recorded++;                     // after the list: a failure is counted once, here or by the scope
        return true;
    }

    /**
     * Whether {@code failure}, maybe wrapped in {@link CompletionException}s (a future's get() wraps its failure
     * once), is a future's failure recorded here.
     */
    private boolean isAFuturesFailure(Throwable failure) {
        if (futuresFailures == null) {
            return false;
        }
        Throwable root = unwrapped(failure);
        for (Throwable f : futuresFailures) {
            if (f == root) {
                return true;
            }
        }
        return false;
    }

    /** Notes a future's failure about to be recorded, so that a get()'s rethrow of it is not. */
    private void rememberFuturesFailure(Throwable failure) {
        if (futuresFailures == null) {
            futuresFailures = new ArrayList<>(2);
        }
        if (futuresFailures.size() < Scope.MAX_KEPT_FAILURES) {
            futuresFailures.add(unwrapped(failure));
        }
    }

    private static Throwable unwrapped(Throwable failure) {
        Throwable root = failure;
        for (int hops = 0; hops < 8 && root instanceof CompletionException && root.getCause() != null; hops++) {
            root = root.getCause();
        }
        return root;
    }

    /** The failures kept in the list so far, oldest first, unmodifiable. */
    List<Throwable> listedSoFar() {
        return List.copyOf(failures);
    }

    /** The failures kept in the list so far, oldest first, in a new list the caller may add to. */
    List<Throwable> listCopy() {
        return new ArrayList<>(failures);
    }

    /** Failures recorded, kept or not (not those the scope counted for lack of memory). */
    long recorded() {
        return recorded;
    }
}

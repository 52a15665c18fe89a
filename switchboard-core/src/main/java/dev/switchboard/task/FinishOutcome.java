package dev.switchboard.task;

import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Scope;
import java.time.Duration;
import java.util.List;

/**
 * What a finish throws once its wait is over: nothing if its work ended without failing, the one failure as itself,
 * several in a {@link MultiException}; and, for a finish with a timeout whose work is still open, a
 * {@link FinishTimeoutException}.
 */
final class FinishOutcome {
    private FinishOutcome() {
    }

    /** Rethrows the failures {@code scope}, an ended finish, collected. */
    static void rethrow(Scope scope) {
        if (!scope.anyFailure()) {
            return;
        }
        Scope.Failed failed = scope.failed();
        List<Throwable> failures = failed.kept();
        if (failures.isEmpty()) {
            return;
        }
        long count = failed.count();
        if (count <= 1) {
            throw Sneaky.<RuntimeException>rethrow(failures.get(0));
        }
        throw new MultiException(failures, count);
    }

    /**
     * Throws a {@link FinishTimeoutException} if {@code scope}, a finish that waited up to {@code timeout}, is still
     * open and was not stopped, with the failures collected so far attached; else rethrows them as
     * {@link #rethrow(Scope)} does.
     */
    static void rethrow(Scope scope, Duration timeout, Scheduler scheduler) {
        if (!scope.isEnded() && scope.stopped() == null) {
            FinishTimeoutException e = new FinishTimeoutException(timeout, scheduler.hangReports().report(scope),
                    scope.openItems(scheduler.clock().nanoTime()));
            scope.failures().forEach(e::addSuppressed);
            throw e;
        }
        rethrow(scope);
    }
}

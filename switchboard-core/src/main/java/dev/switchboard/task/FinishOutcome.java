package dev.switchboard.task;

import dev.switchboard.internal.Failures;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Scope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a finish throws once its wait is over: nothing if its work ended without failing, the one failure as itself,
 * several in a {@link MultiException} (but the close or the fatal error that stopped it as itself); and, for a
 * finish with a timeout whose work is still open, a {@link FinishTimeoutException}.
 */
final class FinishOutcome {
    private FinishOutcome() {
    }

    /**
     * Rethrows the failures {@code scope}, an ended finish, collected. A finish that its runtime's close stopped
     * throws the close's {@link RuntimeClosedException} itself, the other failures suppressed in it (most are the
     * close's consequences: spawns refused, gets freed, loop iterations skipped); so does one whose failures are
     * all the close's, the first thrown. A finish with more failures than it keeps throws the {@link MultiException}
     * that counts them, unless the close stopped it (or every failure kept is the close's): then it throws the
     * close's exception with that {@code MultiException} suppressed in it, so that {@code catch
     * (RuntimeClosedException e)} sees every close. One that a fatal error stopped throws that error itself when
     * every other failure is fatal too (the same exhaustion, met by other tasks).
     */
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
        Throwable stop = scope.stopped();
        boolean allKept = count == failures.size();
        RuntimeClosedException closed = stop instanceof RuntimeClosedException c && (failures.contains(c) || !allKept)
                ? c
                : failures.stream().allMatch(RuntimeClosedException.class::isInstance)
                        ? (RuntimeClosedException) failures.get(0) : null;
        if (!allKept) {
            MultiException counted = new MultiException(failures, count);   // too many to keep: it counts them
            if (closed == null) {
                throw counted;
            }
            closed.addSuppressed(counted);
            throw closed;
        }
        if (closed != null) {
            for (Throwable f : failures) {
                if (f != closed) {
                    closed.addSuppressed(f);        // each made where the close refused something: safe to add to
                }
            }
            throw closed;
        }
        if (Failures.isFatal(stop) && failures.stream().allMatch(Failures::isFatal)) {
            throw Sneaky.<RuntimeException>rethrow(stop);   // not added to: the JVM may share its errors
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
            List<String> items = new ArrayList<>();             // the report's, not made twice: see HangReports
            FinishTimeoutException e = new FinishTimeoutException(timeout, scheduler.hangReports().report(scope, items),
                    items);
            scope.failures().forEach(e::addSuppressed);
            throw e;
        }
        rethrow(scope);
    }
}

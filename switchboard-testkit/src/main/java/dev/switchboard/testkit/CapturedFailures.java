package dev.switchboard.testkit;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The failures a {@link TestKit} captured, and which of them the test expected: every exception that escaped an
 * actor of its runtime (from the runtime's events), and the failures that reached no finish (from its
 * unscoped-failure handler), which {@link TestKit#close()} reports unless the test expected them. Added to by the
 * runtime's threads, read and taken from by the test's. The kit owns one and is its only caller.
 */
final class CapturedFailures {
    private final Captured<ActorFailure> failures = new Captured<>();
    /** Failures that reached no finish (the actors the kit started belong to none), not expected yet. */
    private final List<Throwable> unscoped = new CopyOnWriteArrayList<>();
    /** The causes of the failures the test expected: their reports reaching no finish are not left behind. */
    private final List<Throwable> expectedCauses = new CopyOnWriteArrayList<>();

    /** An exception escaped an actor (the runtime's failure event). */
    void actorFailed(ActorFailure failure) {
        failures.add(failure);
    }

    /** A failure reached no finish (the runtime's unscoped-failure handler): kept unless the test expected it. */
    void reachedNoFinish(Throwable failure) {
        synchronized (unscoped) {
            if (expectedCauses.stream().noneMatch(c -> related(failure, c))) {
                unscoped.add(failure);
            }
        }
    }

    /** Every actor failure so far, oldest first. */
    List<ActorFailure> all() {
        return failures.all();
    }

    /**
     * The oldest actor failure of {@code type} not expected yet, else a failure of that type that reached no finish
     * from outside every actor, taken (marked as expected, or no longer kept); or null.
     */
    ActorFailure takeUnexpected(Class<? extends Throwable> type) {
        ActorFailure f = failures.takeUnexpected(a -> type.isInstance(a.cause()));
        return f != null ? f : takeUnscoped(type);
    }

    /** A failure of {@code type} that reached no finish from outside every actor (a task, a timer), taken; or null. */
    private ActorFailure takeUnscoped(Class<? extends Throwable> type) {
        synchronized (unscoped) {
            for (Throwable u : unscoped) {
                if (type.isInstance(u)) {
                    unscoped.remove(u);
                    return new ActorFailure(null, u, "reached no finish");
                }
            }
        }
        return null;
    }

    /** The test expected {@code f}: its report reaching no finish, now or later, is not left behind. */
    void expected(ActorFailure f) {
        synchronized (unscoped) {                  // its report may reach no finish only after this
            expectedCauses.add(f.cause());
            unscoped.removeIf(u -> related(u, f.cause()));
        }
    }

    /** The failures that reached no finish and that the test has not expected, as they are now (a live view). */
    List<Throwable> unexpectedUnscoped() {
        return Collections.unmodifiableList(unscoped);
    }

    /** What was captured, for an expectation's assertion message. */
    String soFar() {
        return "failures so far: " + Texts.list(failures.all())
                + (unscoped.isEmpty() ? "" : ", and outside every actor: " + Texts.list(unscoped));
    }

    /** Whether {@code a} and {@code b} are the same failure, or one is the other's cause (a wrapped report). */
    private static boolean related(Throwable a, Throwable b) {
        for (Throwable t = a; t != null; t = t.getCause()) {
            if (t == b) {
                return true;
            }
        }
        for (Throwable t = b; t != null; t = t.getCause()) {
            if (t == a) {
                return true;
            }
        }
        return false;
    }
}

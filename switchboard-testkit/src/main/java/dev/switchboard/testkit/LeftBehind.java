package dev.switchboard.testkit;

import dev.switchboard.actor.ProcessingFailure;
import dev.switchboard.internal.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/**
 * What a test left behind, as its {@link TestKit} closes: actors of the runtime still running, failures that reached
 * no finish and that the test did not expect, and threads still alive (the {@link LeftoverThreads} check). Each
 * check that finds something keeps it as a problem in words; {@link #failIfAny} then fails the test with all of
 * them. Made by {@link TestKit#close(boolean)}, one per close, which decides which checks run and when.
 */
final class LeftBehind {
    private final List<String> problems = new ArrayList<>();

    /**
     * Waits with {@code driver}, at most {@code timeout}, for every actor (and awaiting task) of the runtime to end,
     * in any finish: the global scope's, and those of finishes still open (on another thread, or one that timed out
     * and left its work behind); keeps those still running.
     */
    void runningActors(Driver driver, Scheduler scheduler, Duration timeout) {
        List<String> running = new ArrayList<>();
        if (!driver.await(() -> running(scheduler, running).isEmpty(), timeout)) {
            problems.add(running.size() + (running.size() == 1 ? " actor was" : " actors were")
                    + " still running " + Texts.duration(timeout) + " after the test (stop it with"
                    + " ref.stop(), or let it exit):\n    " + String.join("\n    ", running));
        }
    }

    /** Fills {@code into} with the actors and awaiting tasks of the runtime that have not ended; returns it. */
    private static List<String> running(Scheduler scheduler, List<String> into) {
        into.clear();
        into.addAll(scheduler.openItemsEverywhere());
        return into;
    }

    /** Keeps {@code unscoped}, the failures that reached no finish and that the test did not expect, if any. */
    void unexpectedFailures(List<Throwable> unscoped) {
        if (!unscoped.isEmpty()) {
            problems.add(unscoped.size() + (unscoped.size() == 1 ? " failure" : " failures") + " reached no"
                    + " finish, and the test did not expect " + (unscoped.size() == 1 ? "it" : "them")
                    + " (kit.expectFailure(type) does):\n    " + String.join("\n    ",
                    unscoped.stream().map(LeftBehind::withNote).toList()));
        }
    }

    /**
     * The failure, and the runtime's note on it if it has one: which actor it ended and how ("child@3 was
     * terminated: its supervisor gave up: ..."), where the exception alone names neither.
     */
    private static String withNote(Throwable failure) {
        for (Throwable s : failure.getSuppressed()) {
            if (s instanceof ProcessingFailure note) {
                return Texts.brief(failure) + "\n      (" + Texts.brief(note.getMessage()) + ")";
            }
        }
        return Texts.brief(failure);
    }

    /** Waits at most {@code grace} for the threads started since the kit was built to end; keeps those left. */
    void threads(LeftoverThreads threads, Duration grace) {
        String left = threads.leftAfter(grace);
        if (left != null) {
            problems.add(left);
        }
    }

    /**
     * Fails with every problem kept, naming {@code kit}, with {@code unscoped} (the failures that reached no
     * finish) as suppressed exceptions; does nothing if no check found anything.
     */
    void failIfAny(TestKit kit, List<Throwable> unscoped) {
        if (!problems.isEmpty()) {
            AssertionFailedError e = new AssertionFailedError(kit + " found what the test left behind:\n"
                    + String.join("\n", problems));
            unscoped.forEach(e::addSuppressed);
            throw e;
        }
    }
}

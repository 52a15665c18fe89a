package dev.switchboard.place;

import dev.switchboard.actor.ProcessingFailure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the failures of a program's places reach place 0, for one place: another place reports each failure outside
 * every finish, and each connection it lost, to place 0 as a {@link Frames.Failed}; place 0 records them for the
 * program's result, logs those that arrive, and makes the frames of the failures it tells the others at shutdown.
 *
 * <p>Implementation notes. Place 0 keeps the first {@link #KEPT_FAILURES} failures, and every lost connection, and
 * counts the others. {@link #failures}' lock orders a record and {@link #takeFailures}: a failure recorded after the
 * program's result was made is logged instead.
 */
final class PlaceFailures {
    /** The place's logger: what it says about the program's failures is found under one name. */
    private static final System.Logger LOG = System.getLogger(PlaceRuntime.class.getName());
    /** How many failures place 0 keeps, as a finish does; the others are counted. */
    static final int KEPT_FAILURES = 100;
    /** How many failures of other places place 0 logs one by one; after them, at 100, 1,000, 10,000, ... */
    static final int LOGGED_FAILURES = 10;
    /** How many of the program's failures place 0 tells the others at most. */
    static final int FAILURES_TOLD = 100;

    private final PlaceRuntime place;
    /**
     * Place 0: failures of every place, in the order they arrived: the first {@link #KEPT_FAILURES}, and every lost
     * connection; {@link #failuresNotKept()} counts the others.
     */
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    /** Place 0: set by {@link #takeFailures}, under the lock of {@link #failures}: the program's result is made. */
    private volatile boolean failuresTaken;
    /** Place 0: the failures recorded, kept or not (those past the first {@link #KEPT_FAILURES} are not). */
    private final AtomicLong failuresRecorded = new AtomicLong();
    /** Another place: the failures reported to place 0 (those past the first {@link #KEPT_FAILURES}: no trace). */
    private final AtomicLong failuresReported = new AtomicLong();

    PlaceFailures(PlaceRuntime place) {
        this.place = place;
    }

    /**
     * Reports {@code failure} to place 0 ({@code lostConnection}: a connection to another place was lost), as a
     * control frame, which a full buffer does not hold up (it may be sent from the transport's thread); counted
     * as the program's traffic. Place 0 records it.
     */
    void report(Throwable failure, boolean lostConnection) {
        if (place.here == 0) {
            recordFailure(failure);
            return;
        }
        String trace = failuresReported.incrementAndGet() <= KEPT_FAILURES || lostConnection ? stackTrace(failure)
                : "";                                  // place 0 keeps the first only: no more traces to carry
        try {
            place.sendProgramControl(0, failedFrame(place.here, failure, trace, lostConnection));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "place " + place.names.get(place.here) + " could not report a failure"
                    + " to place " + place.names.get(0) + " (" + e + "): " + trace);
        }
    }

    /**
     * Place 0: a failure another place reported: after the program ended, only logged (DEBUG); a lost connection
     * between two other places, the program's loss ({@link PlaceRuntime#programLost}); any other, recorded, and
     * logged: the first {@link #LOGGED_FAILURES} one by one, then at 100, 1,000, 10,000, ...
     */
    void arrived(Frames.Failed f) {
        List<String> names = place.names;
        PlaceFailureException e = new PlaceFailureException(names.get(f.place()), f.exceptionClass(),
                f.message(), f.actor(), f.stackTrace());
        if (place.termination.terminated) {
            LOG.log(System.Logger.Level.DEBUG, () -> "after the program ended: " + e.getMessage());
        } else if (f.lostConnection()) {
            place.programLost(e);                      // a connection between two other places
        } else {
            long n = recordFailure(e);                 // 0: too late for the result, logged
            if (n > 0 && n <= LOGGED_FAILURES) {
                LOG.log(System.Logger.Level.ERROR, () -> "a failure at place " + names.get(f.place())
                        + ", which the program's finish will throw: "
                        + PlaceFailureException.whatForLog(f.exceptionClass(), f.message(), f.actor()));
            } else if (isPowerOfTen(n)) {
                LOG.log(System.Logger.Level.ERROR, () -> n + " failures at places so far (the first "
                        + LOGGED_FAILURES + " logged, the first " + KEPT_FAILURES + " kept for the"
                        + " program's finish, which counts them all); the latest at place "
                        + names.get(f.place()) + ": "
                        + PlaceFailureException.whatForLog(f.exceptionClass(), f.message(), f.actor()));
            }
        }
    }

    /**
     * Place 0: keeps {@code why}, a connection lost while the program ran, whatever the count of failures; returns
     * false if the program's result was made already ({@link #takeFailures}), and then logs it instead.
     */
    boolean recordLost(RuntimeException why) {
        synchronized (failures) {
            if (!failuresTaken) {
                failures.add(why);
            }
        }
        if (failuresTaken) {
            failedTooLate(why);
            return false;
        }
        return true;
    }

    /**
     * {@code failure}, of place {@code place}, as a frame: for a failure that ended an actor, with the actor and what
     * it was doing, as the {@link ProcessingFailure} that names it says (the note suppressed in the failure, or,
     * for a failure that cannot carry one, the note whose cause the failure is).
     */
    private static Frames.Failed failedFrame(int place, Throwable failure, String trace, boolean lostConnection) {
        Throwable thrown = failure;
        String actor = null;
        if (failure instanceof ProcessingFailure note && note.getCause() != null) {
            thrown = note.getCause();
            actor = note.getMessage();
        } else {
            for (Throwable s : failure.getSuppressed()) {
                if (s instanceof ProcessingFailure note) {
                    actor = note.getMessage();
                    break;
                }
            }
        }
        return new Frames.Failed(place, thrown.getClass().getName(), thrown.getMessage(), actor, trace,
                lostConnection);
    }

    private static String stackTrace(Throwable failure) {
        StringWriter trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    /**
     * Place 0: counts {@code failure}, and keeps it if it is among the first {@link #KEPT_FAILURES}; returns how many
     * have been recorded. Once the program's result has taken the failures ({@link #takeFailures}), logs it instead
     * and returns 0.
     */
    private long recordFailure(Throwable failure) {
        synchronized (failures) {
            if (!failuresTaken) {
                long n = failuresRecorded.incrementAndGet();
                if (n <= KEPT_FAILURES) {
                    failures.add(failure);
                }
                return n;
            }
        }
        failedTooLate(failure);
        return 0;
    }

    /** Place 0: a failure recorded after the program's result was made, which only the log can tell. */
    private void failedTooLate(Throwable failure) {
        LOG.log(System.Logger.Level.ERROR, "place " + place.names.get(place.here) + ": a failure after the program's"
                + " result was made, which its finish does not throw: " + failure, failure);
    }

    /**
     * Place 0, once its runtime is closed: the failures recorded, in the order they came, for the program's result
     * ({@link #failuresNotKept()} counts those not kept). A failure recorded from now on is logged instead.
     */
    List<Throwable> takeFailures() {
        synchronized (failures) {
            failuresTaken = true;
            return List.copyOf(failures);
        }
    }

    private static boolean isPowerOfTen(long n) {
        for (long p = 100; p > 0 && p <= n; p *= 10) {
            if (p == n) {
                return true;
            }
        }
        return false;
    }

    /** Place 0: the failures counted but not kept ({@link #failures} holds the others). */
    long failuresNotKept() {
        return Math.max(0, failuresRecorded.get() - KEPT_FAILURES);
    }

    /** Place 0, for a hang report: the failures of other places so far. */
    List<Throwable> failuresSoFar() {
        return List.copyOf(failures);
    }

    /**
     * Place 0: the frame that tells every other place that the program has ended, and with which failures (each as
     * the place it happened on reported it; the first {@link #FAILURES_TOLD} of them, and how many there were).
     */
    Frames.Shutdown shutdownFrame(List<Throwable> programFailures, long failureCount) {
        List<Frames.Failed> told = new ArrayList<>();
        for (Throwable f : programFailures.subList(0, Math.min(FAILURES_TOLD, programFailures.size()))) {
            told.add(f instanceof PlaceFailureException p
                    ? new Frames.Failed(place.names.indexOf(p.place()), p.exceptionClass(), p.remoteMessage(),
                            p.actor(), p.remoteStackTrace(), false)
                    : failedFrame(0, f, stackTrace(f), false));
        }
        return new Frames.Shutdown(told.toArray(Frames.Failed[]::new), failureCount);
    }
}

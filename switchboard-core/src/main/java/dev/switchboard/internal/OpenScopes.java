package dev.switchboard.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scopes of a runtime that others must find while they are open: the finishes a thread waits for now, and the
 * scopes that track actors or awaiting tasks that have not ended, and what is open in those ({@link #openItems}).
 * Owns both sets. A wait is in the first while it lasts ({@link FinishWait}); a scope joins the second when it
 * first tracks something ({@link Scope#track}) and leaves it as it ends, and the global scope is always there.
 * Read by hang reports, closing, worker deaths (which wake the waiters) and the metrics (which walk the tracked
 * nodes); one per scheduler.
 */
final class OpenScopes {
    /** Scopes a thread waits for now ({@link FinishWait}). */
    final Set<Scope> waiting = ConcurrentHashMap.newKeySet();
    /** Scopes with tracked actors or awaiting tasks that have not ended; the global scope is always here. */
    final Set<Scope> tracking = ConcurrentHashMap.newKeySet();
    /**
     * Scopes (not the global one) whose tasks failed while no log told of it yet, with when the first of those
     * failures came by the runtime's clock: the watchdog logs them if the finish stays open a hang report's period
     * ({@link HangReports#logFailuresOfOpenFinishes}). A scope leaves it when they are logged or it ends.
     */
    final Map<Scope, Long> failedUnlogged = new ConcurrentHashMap<>();

    /**
     * The earliest time-out of a finish waited for if it is before {@code than}, else {@code than}: what a manual
     * clock's {@code nextDue} shows besides its timers.
     */
    long earliestTimeOut(long than) {
        long earliest = than;
        for (Scope s : waiting) {
            long d = s.timesOutAt();
            if (d != 0 && d - earliest < 0) {
                earliest = d;
            }
        }
        return earliest;
    }

    /**
     * The actors and awaiting tasks not ended in every scope that tracks some, each in words, with the finish it
     * counts toward unless that is {@code global}, as of {@code now} (by the runtime's clock).
     */
    List<String> openItems(Scope global, long now) {
        List<String> items = new ArrayList<>();
        for (Scope s : tracking) {
            for (String item : s.openItems(now)) {
                items.add(s == global ? item : item + " (in " + s.name() + ")");
            }
        }
        return items;
    }
}

package dev.switchboard.internal;

import java.util.concurrent.TimeUnit;

/**
 * Logs, as it happens, every failure that ends an actor of a runtime: through {@code System.Logger}
 * "dev.switchboard" at level ERROR, one line naming the actor, where it failed (the message's type, never its
 * contents), what happens next, with the cause and its stack trace. Rate-limited: at most {@link #perMinute} lines
 * a minute of the runtime's clock; the failures beyond that are counted, and the next line logged says how many
 * were not. A failure its runtime's close caused (a refusal of new work, an interrupt, once the runtime is closed)
 * is logged at INFO, saying so, without its stack trace: it is no error of the program, and it is counted apart
 * from the failures (in the lines' limit, not in {@link #failures()}). Owns the limit, the minute's count and the
 * counts of lines not logged; may touch nothing else.
 */
public final class FailureLog {
    /*
     * Implementation notes. Failures are rare next to messages, so the window is guarded by this object's lock:
     * a storm of failures meets a lock held for a few field updates, and the logging itself runs outside it.
     */

    /** Lines a minute by default ({@code TaskRuntime.Builder.logFailures}). */
    public static final int DEFAULT_PER_MINUTE = 20;
    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private final Scheduler scheduler;
    private volatile System.Logger logger = Scheduler.LOG;
    private volatile int perMinute = DEFAULT_PER_MINUTE;
    private long windowStart;
    private boolean windowOpen;
    private int inWindow;
    /** Failures past the minute's lines since a line (at ERROR) said how many. */
    private long notLogged;
    /** Actors the close ended, past the minute's lines, not yet counted at the close. */
    private long closeEndsNotLogged;
    private long failures;

    FailureLog(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** At most {@code lines} lines a minute; 0 logs none (failures still reach their finish). */
    public void perMinute(int lines) {
        if (lines < 0) {
            throw new IllegalArgumentException("failures logged a minute must be 0 or more, got " + lines);
        }
        this.perMinute = lines;
    }

    /** Where the lines go: {@code System.Logger} "dev.switchboard" unless a test says otherwise. */
    public void logger(System.Logger logger) {
        this.logger = logger;
    }

    /** Where this runtime logs failures (its unscoped ones too): {@code dev.switchboard}, or a test's. */
    System.Logger logger() {
        return logger;
    }

    /** How many failures this log has been told of, logged or not; the close's consequences are none. */
    public synchronized long failures() {
        return failures;
    }

    /**
     * Logs that {@code count} tasks of the finish {@code finish} failed while it stayed open, {@code first} the first
     * of them: a finish rethrows its tasks' failures when it ends, and one that stays open (a service's) would not
     * show them until then. Counted as one failure of this log's lines; never throws.
     */
    public void tasksFailed(String finish, long count, Throwable first) {
        String line = count + (count == 1 ? " task" : " tasks") + " of " + finish + " in runtime '" + scheduler.name()
                + "' failed while it stayed open (it throws their failures when it ends); the first: "
                + SafeText.of(first);
        log(line, first);
    }

    /**
     * Logs that {@code actor} failed {@code where} (e.g. "processing a Balance"), and {@code next} (e.g. "it is
     * terminated; its failure goes to the finish opened by thread 'main'"), unless this minute's lines are used up.
     * Never throws.
     */
    public void actorFailed(Object actor, String where, Throwable cause, String next) {
        try {
            boolean ofTheClose = scheduler.isCloseConsequence(cause);   // the close's doing, not the program's
            log(actorLine(actor, where, cause, next, ofTheClose), cause, ofTheClose, false);
        } catch (Throwable noMemoryOrBrokenLogger) {
            // the failure still reaches its finish; a log that cannot be written must not fail the actor twice
        }
    }

    /**
     * Logs at INFO that the close ended {@code actor}, which met a consequence of the close ({@code cause}: work
     * refused, an interrupt) {@code where}: no failure (not counted in {@link #failures()}; past the minute's
     * lines, counted apart). Never throws.
     */
    public void actorEndedByClose(Object actor, String where, Throwable cause) {
        try {
            log(actorLine(actor, where, cause, "the close ends it", true), cause, true, true);
        } catch (Throwable noMemoryOrBrokenLogger) {
            // the close goes on
        }
    }

    private String actorLine(Object actor, String where, Throwable cause, String next, boolean ofTheClose) {
        return "actor " + actor + " of runtime '" + scheduler.name() + "' failed " + where
                + (ofTheClose ? " after the runtime's close: " : ": ") + SafeText.of(cause) + "; " + next;
    }

    /**
     * The runtime has closed: failures past the minute's lines that no later line counted are counted now, so that
     * the count is not lost with the runtime. Never throws.
     */
    public void logNotLoggedAtClose() {
        try {
            long skipped;
            long endedByClose;
            synchronized (this) {
                skipped = notLogged;
                notLogged = 0;
                endedByClose = closeEndsNotLogged;
                closeEndsNotLogged = 0;
            }
            if (skipped != 0) {
                logger.log(System.Logger.Level.ERROR, "Switchboard: runtime '" + scheduler.name() + "' closed with "
                        + skipped + " more failure" + (skipped == 1 ? "" : "s") + " since the last line that were not"
                        + " logged: more than " + perMinute + " a minute (each reached its finish, or the runtime's"
                        + " unscoped-failure handler)");
            }
            if (endedByClose != 0) {
                logger.log(System.Logger.Level.INFO, "Switchboard: runtime '" + scheduler.name() + "' closed; "
                        + endedByClose + " more actor" + (endedByClose == 1 ? "" : "s") + " that the close ended in"
                        + " the middle of a message (no failure of the program) were not logged: more than "
                        + perMinute + (perMinute == 1 ? " line" : " lines") + " a minute");
            }
        } catch (Throwable noMemoryOrBrokenLogger) {
            // the close goes on
        }
    }

    /** Logs {@code text} and {@code cause} at ERROR, unless this minute's lines are used up. Never throws. */
    private void log(String text, Throwable cause) {
        log(text, cause, false, false);
    }

    /**
     * Logs {@code text}, unless this minute's lines are used up: at ERROR with {@code cause}'s stack trace and the
     * count of failures not logged since the last such line, or, for a consequence of the close ({@code atInfo}),
     * at INFO without either. A failure is counted as one ({@link #failures()}; past the lines, in the next ERROR
     * line's count), an actor the close ended ({@code closeEnd}) apart. Never throws.
     */
    private void log(String text, Throwable cause, boolean atInfo, boolean closeEnd) {
        try {
            long skipped = 0;
            synchronized (this) {
                if (!closeEnd) {
                    failures++;
                }
                int limit = perMinute;
                if (limit == 0) {
                    return;
                }
                long now = scheduler.clock().nanoTime();
                if (!windowOpen || now - windowStart >= MINUTE) {
                    windowOpen = true;
                    windowStart = now;
                    inWindow = 0;
                }
                if (inWindow >= limit) {
                    if (closeEnd) {
                        closeEndsNotLogged++;
                    } else {
                        notLogged++;
                    }
                    return;
                }
                inWindow++;
                if (!atInfo) {                        // the count of errors goes on an error's line
                    skipped = notLogged;
                    notLogged = 0;
                }
            }
            String line = "Switchboard: " + text
                    + (skipped == 0 ? "" : " (" + skipped + " more failure" + (skipped == 1 ? "" : "s")
                    + " since the last line were not logged: more than " + perMinute + " a minute)");
            if (!atInfo && cause != null && !SafeText.printable(cause)) {
                line += " " + SafeText.NO_STACK_TRACE;
                cause = null;                    // a logger would fail printing it, and log nothing
            }
            logger.log(atInfo ? System.Logger.Level.INFO : System.Logger.Level.ERROR, line, atInfo ? null : cause);
        } catch (Throwable noMemoryOrBrokenLogger) {
            // the failure still reaches its finish; a log that cannot be written must not fail the actor twice
        }
    }
}

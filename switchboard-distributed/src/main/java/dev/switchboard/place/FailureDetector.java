package dev.switchboard.place;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Whether the places a transport is connected to are alive: each connection carries a heartbeat at least every
 * {@code interval}, and a place from which no frame at all has come for {@code timeout} is declared failed, with
 * what was last heard from it and when.
 *
 * <p>Implementation notes. Everything here runs on the transport's one I/O thread: frames are read there
 * ({@link #heard}), and {@link #tick} is a task scheduled there every {@code interval}, so the arrays need no
 * synchronization. A fixed timeout, not a phi-accrual estimate: heartbeats go at a fixed pace from a thread that
 * does nothing else for long, so the distribution the estimate would learn is the pace plus this machine's pauses,
 * and the timeout that matters is the longest pause a user's machine has (decision 021). The detector does not
 * accuse a peer over its own silence: if a tick comes late by more than the timeout's half (this JVM was paused, by
 * a collector or a stopped process), every peer's silence is counted from the late tick instead, since frames that
 * arrived meanwhile are still to be read.
 */
final class FailureDetector {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    private final long intervalNanos;
    private final long timeoutNanos;
    /** By place: when a frame from it was last read (nano time), 0 while not connected. */
    private final long[] heardAt;
    /** By place: the wall-clock time of that frame, for messages. */
    private final long[] heardAtMillis;
    /** By place: the class of that frame, or null for the end of the connection's handshake. */
    private final Class<?>[] heardWhat;
    private long lastTick;

    FailureDetector(int places, java.time.Duration interval, java.time.Duration timeout) {
        this.intervalNanos = interval.toNanos();
        this.timeoutNanos = timeout.toNanos();
        this.heardAt = new long[places];
        this.heardAtMillis = new long[places];
        this.heardWhat = new Class<?>[places];
    }

    /** Place {@code place} is connected (its handshake done): its silence counts from now. */
    void connected(int place) {
        heardAt[place] = System.nanoTime();
        heardAtMillis[place] = System.currentTimeMillis();
        heardWhat[place] = null;
    }

    /** The connection to {@code place} is gone: nothing to watch. */
    void disconnected(int place) {
        heardAt[place] = 0;
    }

    /** A frame came from {@code place}. */
    void heard(int place, Object frame) {
        heardAt[place] = System.nanoTime();
        heardAtMillis[place] = System.currentTimeMillis();
        heardWhat[place] = frame.getClass();
    }

    /**
     * The periodic look, at {@code now}: the places silent for longer than the timeout, each with why it is
     * declared failed; null if none.
     */
    String[] tick(long now) {
        if (lastTick != 0 && now - lastTick > intervalNanos + timeoutNanos / 2) {
            for (int p = 0; p < heardAt.length; p++) {     // this JVM was paused: nobody's silence is known
                if (heardAt[p] != 0) {
                    heardAt[p] = Math.max(heardAt[p], now);
                }
            }
        }
        lastTick = now;
        String[] failed = null;
        for (int p = 0; p < heardAt.length; p++) {
            long silent = now - heardAt[p];
            if (heardAt[p] != 0 && silent > timeoutNanos) {
                if (failed == null) {
                    failed = new String[heardAt.length];
                }
                failed[p] = "nothing came from it for " + String.format(java.util.Locale.ROOT, "%.1f", silent / 1e9)
                        + " s (the failure timeout is " + timeoutNanos / 1_000_000 + " ms); the last frame was "
                        + (heardWhat[p] == null ? "the end of the handshake" : "a " + heardWhat[p].getSimpleName())
                        + " at " + CLOCK.format(Instant.ofEpochMilli(heardAtMillis[p]))
                        + ": it is frozen, overloaded, or cut off";
                heardAt[p] = 0;                             // declared once
            }
        }
        return failed;
    }

    /** How often heartbeats go. */
    long intervalNanos() {
        return intervalNanos;
    }
}

package dev.switchboard.internal;

/**
 * The sampled JFR event of processed messages, {@code dev.switchboard.MessageProcessed}: which messages are
 * sampled (every N-th one on each worker thread), and the way to the event, which only {@link JfrEvents} makes.
 * The actor floor asks {@link #every()} before each message it processes; while it is 0, that read is all the
 * event costs.
 *
 * <p>Owns the sampling period and the off-worker threads' countdowns; the workers keep their own countdown
 * ({@link Worker#messagesToSample}). May touch nothing else.
 */
public final class MessageSampling {
    /*
     * Implementation notes. `every` is a plain static field: it is read on every processed message, and a plain
     * read of a field that hardly ever changes costs what reading a constant does. It is written only by
     * JfrEvents, under its lock (JfrEvents.applySampling: when a recording starts or stops, when the event's
     * setting changes, and at every watchdog look while some recording runs, which sees the event enabled or
     * disabled in a running recording). A processing thread may see a change a little late (every loop that
     * processes messages also makes volatile reads, so the JIT cannot keep a stale value for long): that costs a
     * sample or records one more, nothing else. With jdk.jfr absent JfrEvents is never loaded and this stays 0.
     */

    /** Every how many messages a thread samples one; 0 while no running recording enables the event. */
    static int every;

    /** The countdowns of threads that are not workers (a deterministic test's thread): rare, and only while on. */
    private static final ThreadLocal<int[]> OTHERS = ThreadLocal.withInitial(() -> new int[1]);

    private MessageSampling() {
    }

    /**
     * Every how many processed messages each thread samples one for the event, or 0 while no running recording
     * enables it: the one read the message path makes for the event.
     */
    public static int every() {
        return every;
    }

    /**
     * Whether the message the current thread is about to process is the one in {@code every} (the value
     * {@link #every()} returned, not 0) that it samples. The first message after the event is enabled is.
     */
    public static boolean due(int every) {
        if (Thread.currentThread() instanceof Worker w) {
            int left = w.messagesToSample;
            if (left > 1 && left <= every) {
                w.messagesToSample = left - 1;
                return false;
            }
            w.messagesToSample = every;
            return true;
        }
        int[] left = OTHERS.get();
        if (left[0] > 1 && left[0] <= every) {
            left[0]--;
            return false;
        }
        left[0] = every;
        return true;
    }

    /**
     * Starts the event of a sampled message (its duration starts now), or returns null if no running recording
     * enables it after all. Never throws.
     */
    public static Object begin() {
        try {
            return JfrEvents.beginMessage();
        } catch (Throwable t) {
            return null;                  // no memory for the event: the message is processed unrecorded
        }
    }

    /**
     * Ends and commits {@code event} (from {@link #begin}; nothing happens if null): {@code actor} (a reference,
     * shown as name@id) of {@code runtime}'s scheduler processed {@code message} (recorded by its class, never its
     * contents). Never throws.
     */
    public static void end(Object event, Scheduler runtime, Object actor, Object message) {
        if (event != null) {
            try {
                JfrEvents.endMessage(event, runtime, actor, message);
            } catch (Throwable t) {
                // unrecorded: a sample is not worth a failure
            }
        }
    }
}

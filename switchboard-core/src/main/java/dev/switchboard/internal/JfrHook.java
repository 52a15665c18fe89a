package dev.switchboard.internal;

/**
 * Whether this JVM can make Switchboard's JFR events ({@code jdk.jfr} present and readable), and the one place that
 * hands a runtime to {@link JfrEvents}, so that the classes naming {@code jdk.jfr} are loaded only
 * where it is: the core runs on {@code java.base} alone.
 */
final class JfrHook {
    private static final boolean AVAILABLE = probe();
    /** Whether some recording runs, as {@link JfrEvents} heard it (only JfrEvents writes it). */
    private static volatile boolean recording;

    private JfrHook() {
    }

    private static boolean probe() {
        try {
            Module core = JfrHook.class.getModule();
            Module jfr = ModuleLayer.boot().findModule("jdk.jfr").orElse(null);
            if (jfr == null || !core.canRead(jfr)) {
                return false;
            }
            Class.forName("jdk.jfr.FlightRecorder", false, JfrHook.class.getClassLoader());
            return !Boolean.getBoolean("switchboard.noJfr");
        } catch (Throwable absent) {
            return false;
        }
    }

    /** Whether JFR events can be made in this JVM. */
    static boolean available() {
        return AVAILABLE;
    }

    /** A new runtime: its events become JFR events while a recording runs. Never throws. */
    static void register(Scheduler s) {
        if (AVAILABLE) {
            try {
                JfrEvents.register(s);
            } catch (Throwable t) {
                // no JFR events for this runtime; it runs as without
            }
        }
    }

    /** Set by {@link JfrEvents} when the first recording starts and when the last one stops. */
    static void recording(boolean on) {
        recording = on;
    }

    /**
     * A watchdog's look: while some recording runs, whether the sampled message event is on follows the
     * recordings' settings (enabling or disabling it in a running recording calls no listener). Never throws;
     * with no recording, one volatile read.
     */
    static void look() {
        if (recording) {
            try {
                JfrEvents.applySampling();
            } catch (Throwable t) {
                // tried again at the next look
            }
        }
    }

    /** A runtime closed. Never throws. */
    static void unregister(Scheduler s) {
        if (AVAILABLE) {
            try {
                JfrEvents.unregister(s);
            } catch (Throwable t) {
                // it held nothing worth more than the close
            }
        }
    }
}

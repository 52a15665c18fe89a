package dev.switchboard.bench.harness;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Counts the threads a run adds: the highest number of live platform threads in the JVM while it ran, minus the
 * number alive when it began (both from {@link ThreadMXBean}). Zero means the run needed no thread that was not
 * already running; a pool that starts workers, or starts threads to make up for blocked ones, shows here.
 * Threads of the other runtimes count too, but they are idle during the run. One measurement at a time.
 */
final class ThreadPeak {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final int before;

    private ThreadPeak() {
        THREADS.resetPeakThreadCount();
        // The peak right after the reset is the live count then, or more if a thread started in between.
        before = THREADS.getPeakThreadCount();
    }

    /** Starts a measurement: call just before the run. */
    static ThreadPeak start() {
        return new ThreadPeak();
    }

    /** The threads added since {@link #start()}: call just after the run. */
    int added() {
        return Math.max(0, THREADS.getPeakThreadCount() - before);
    }
}

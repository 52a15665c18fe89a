package dev.switchboard.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The threads alive when a kit was built, and which of those started since then are still alive when it has
 * closed: a thread the test (or code it called) started and never ended. Platform threads only: the JDK lists no
 * virtual thread ({@link Thread#getAllStackTraces()}), so a virtual thread left behind is not seen.
 */
final class LeftoverThreads {
    /** Threads the JDK starts on its own, when first needed, and keeps: never a test's leftovers. */
    private static final List<Pattern> JDK_THREADS = List.of(
            Pattern.compile("ForkJoinPool\\.commonPool-worker-\\d+"),
            Pattern.compile("Common-Cleaner"),
            Pattern.compile("Attach Listener"),
            Pattern.compile("process reaper"),
            Pattern.compile("JFR .*"),
            Pattern.compile("Notification Thread"),
            Pattern.compile("Signal Dispatcher"),
            Pattern.compile("Reference Handler"),
            Pattern.compile("Finalizer"),
            Pattern.compile("RMI .*"),
            Pattern.compile("JMX .*"),
            Pattern.compile("junit-jupiter-timeout-watcher"),
            Pattern.compile("CompletableFutureDelayScheduler"),        // orTimeout, completeOnTimeout
            Pattern.compile("VirtualThread-unparker"),
            Pattern.compile("switchboard-shared-timer"),               // the core's, shared by every runtime
            // the default runtime's (TaskRuntime.defaultRuntime(), named "switchboard"): started when first used,
            // never closed, as its Javadoc says
            Pattern.compile("switchboard-(worker-\\d+|watchdog|timer)"));
    /** The class of the threads that carry virtual threads, which the JDK starts and keeps for them. */
    private static final String CARRIER = "jdk.internal.misc.CarrierThread";

    private final Set<Thread> before;
    private final List<Pattern> ignored;

    LeftoverThreads(List<Pattern> ignored) {
        this.before = Set.copyOf(Thread.getAllStackTraces().keySet());
        this.ignored = List.copyOf(ignored);
    }

    /**
     * Waits at most {@code grace} for the threads started since this was made to end; returns what is left in
     * words (each thread's name, state and where it is), or null if none is.
     */
    String leftAfter(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        List<Thread> left = started();
        for (int pass = 0; pass < 2 && !left.isEmpty(); pass++) {   // a second pass for threads started meanwhile
            for (Thread t : left) {
                long millis = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
                if (millis == 0) {
                    break;
                }
                try {
                    t.join(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            left = started();
        }
        if (left.isEmpty()) {
            return null;
        }
        return left.size() + (left.size() == 1 ? " thread" : " threads") + " started during the test "
                + (left.size() == 1 ? "was" : "were") + " still alive " + Texts.duration(grace) + " after it:\n    "
                + left.stream().map(LeftoverThreads::describe).collect(Collectors.joining("\n    "));
    }

    private List<Thread> started() {
        List<Thread> out = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && !before.contains(t) && !matches(t.getName())
                    && !t.getClass().getName().equals(CARRIER)) {
                out.add(t);
            }
        }
        return out;
    }

    private boolean matches(String name) {
        for (Pattern p : JDK_THREADS) {
            if (p.matcher(name).matches()) {
                return true;
            }
        }
        for (Pattern p : ignored) {
            if (p.matcher(name).matches()) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        String at = Arrays.stream(stack).limit(3).map(StackTraceElement::toString)
                .collect(Collectors.joining(" <- "));
        return "'" + t.getName() + "' (" + t.getState() + (t.isDaemon() ? ", daemon" : "") + ")"
                + (at.isEmpty() ? "" : " at " + at);
    }
}

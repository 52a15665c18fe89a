package dev.switchboard.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Failures that no finish can rethrow (a failure in the global scope, a timer action's, a listener's, a worker's
 * death): the handler they go to ({@code TaskRuntime.Builder.onUnscopedFailure}) and the default logging. Owns the
 * handler and the logging's count. May touch nothing else.
 */
final class UnscopedFailures {
    private final Scheduler scheduler;
    private volatile Consumer<Throwable> handler = this::log;

    UnscopedFailures(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    void handler(Consumer<Throwable> handler) {
        this.handler = handler != null ? handler : this::log;
    }

    /** Passes a failure that no finish can rethrow to the runtime's handler. */
    void report(Throwable failure) {
        try {
            scheduler.events().publish(RuntimeEvents.Kind.UNSCOPED_FAILURE, null, null, failure,
                    "outside every finish");
        } catch (Throwable noMemory) {
            // the handler below still hears of it
        }
        try {
            handler.accept(failure);
        } catch (Throwable handlerFailed) {
            try {
                log(failure);
            } catch (Throwable ignored) {
                // no memory even to print: the failure is still counted where it was recorded
            }
        }
    }

    /** Failures the default handler logs in full; after these it logs a count now and then. */
    private static final int PRINTED_UNSCOPED_FAILURES = 20;
    private final AtomicLong logged = new AtomicLong();

    /**
     * The default handler: logs the first {@value #PRINTED_UNSCOPED_FAILURES} failures ({@code System.Logger}
     * "dev.switchboard", level ERROR), then one line whenever the count reaches a power of ten, so a loop that
     * keeps failing after its finish gave up (out of memory, say) cannot flood the log.
     */
    private void log(Throwable failure) {
        String name = scheduler.name();
        System.Logger log = scheduler.failureLog().logger();
        long n = logged.incrementAndGet();
        if (n <= PRINTED_UNSCOPED_FAILURES) {
            if (scheduler.isCloseConsequence(failure)) {        // the close's doing, not the program's error
                log.log(System.Logger.Level.INFO, "Switchboard: failure outside every finish of runtime '" + name
                        + "' after its close (no finish can rethrow it): " + SafeText.of(failure));
                return;
            }
            if (!SafeText.printable(failure)) {                 // a logger would fail printing it, and log nothing
                log.log(System.Logger.Level.ERROR, "Switchboard: failure outside every finish of runtime '" + name
                        + "' (no finish can rethrow it): " + SafeText.of(failure) + " " + SafeText.NO_STACK_TRACE);
                return;
            }
            log.log(System.Logger.Level.ERROR, "Switchboard: failure outside every finish of runtime '" + name
                    + "' (no finish can rethrow it)", failure);
        } else if (isPowerOfTen(n)) {
            log.log(System.Logger.Level.ERROR, "Switchboard: " + n + " failures outside every finish of runtime '"
                    + name + "' so far; the first " + PRINTED_UNSCOPED_FAILURES + " were logged (latest: "
                    + SafeText.of(failure)
                    + "). Set TaskRuntime.Builder.onUnscopedFailure to handle them.");
        }
    }

    /** Whether {@code n} (positive) is 10, 100, 1000, ... */
    static boolean isPowerOfTen(long n) {
        while (n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }
}

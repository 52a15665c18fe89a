package dev.switchboard.place;

/**
 * Tells the other places why this one goes, when its JVM ends while its {@link Transport} is open: stopped from
 * outside (SIGTERM, as a service manager or a container runtime stops a process; Ctrl-C) or by a
 * {@code System.exit} in the program. A shutdown hook closes the transport with {@link #JVM_ENDING} as its reason,
 * so that the places that lose this one say so, rather than that its connection closed without a word. A JVM
 * halted or killed (SIGKILL, a crash) runs no hook: then the others see the connection close without a word.
 * Owns the hook; touches nothing else.
 */
final class JvmExitNotice {
    /** What the place tells the others as its JVM ends while its transport is open. */
    static final String JVM_ENDING = "its JVM is ending while the program runs";

    /** What a place that heard {@link #JVM_ENDING} says of the place it lost. */
    static final String JVM_ENDED = "its JVM ended while the program ran: it was stopped from outside (a signal such"
            + " as SIGTERM, or Ctrl-C) or the program called System.exit there";

    /**
     * The longest the hook holds up the JVM's end. The close runs on a thread of its own: if the thread that ends
     * the JVM is the transport's I/O thread (a {@code System.exit} in a turn run there), the close cannot finish,
     * and the JVM ends anyway once this has passed, the others then seeing the connection close without a word.
     */
    private static final long MAX_WAIT_MILLIS = 1_000;

    private final Thread hook;

    /** Installs the hook: from now until {@link #cancel()}, this JVM's end closes {@code transport}. */
    JvmExitNotice(Transport transport, String place) {
        hook = new Thread(() -> {
            Thread closing = new Thread(() -> transport.close(JVM_ENDING), "place-" + place + "-leaving");
            closing.setDaemon(true);
            closing.start();
            try {
                closing.join(MAX_WAIT_MILLIS);
            } catch (InterruptedException e) {
                // the JVM ends all the same
            }
        }, "place-" + place + "-exit-notice");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Removes the hook (the transport closes for another reason); a no-op once the JVM is ending. */
    void cancel() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: the transport is closed by it, or was already
        }
    }
}

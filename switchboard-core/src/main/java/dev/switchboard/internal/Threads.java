package dev.switchboard.internal;

/** How diagnostics name a thread. */
public final class Threads {
    private Threads() {
    }

    /**
     * {@code t}'s name, or, for a thread without one (a virtual thread, usually), {@code virtual #52} or
     * {@code #52}: its id, which {@code Thread.toString()} and thread dumps show too. A named thread's name is
     * returned as it is, so naming a thread costs nothing.
     */
    public static String name(Thread t) {
        String name = t.getName();
        if (!name.isEmpty()) {
            return name;
        }
        return (t.isVirtual() ? "virtual #" : "#") + t.threadId();
    }
}

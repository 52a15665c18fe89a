package dev.switchboard.monitor;

/**
 * Mutual exclusion ([PAM], Listing 1): one letter at a time, oldest first — what an actor does without a
 * monitor, expressed as one. Useful as a baseline and as the simplest example of {@code schedule}/{@code leave}.
 */
public class MutexMonitor extends Monitor {
    private boolean working;

    /** A mutex monitor; {@link #bind} it to an actor. */
    public MutexMonitor() {
    }

    @Override
    protected void schedule() {
        if (!working) {
            working = startOldest(LetterFilter.ANY);
        }
    }

    @Override
    protected void leave(Letter letter) {
        working = false;
    }
}

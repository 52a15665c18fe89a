package dev.switchboard.stm;

/**
 * Whether a kind of transaction (a body's class, a message's class) is guessed to only read, so that its attempts
 * keep no read set; learned from its commits (see {@link Transaction}'s overview).
 */
final class ReadOnlyGuess {
    /*
     * Implementation notes. One per kind, shared by every thread, through a ClassValue. The fields are plain and
     * written racily: a thread may act on a stale guess, which costs at most an attempt (a wrong guess rolls back
     * and records), and each field's write is whole.
     */
    /** Read-only commits in a row that make a kind be guessed read-only, at first. */
    static final int STREAK = 16;
    /** The most read-only commits in a row that a kind guessed wrong must show before it is guessed again. */
    static final int MAX_STREAK = 1 << 20;

    private static final ClassValue<ReadOnlyGuess> BY_KIND = new ClassValue<>() {
        @Override
        protected ReadOnlyGuess computeValue(Class<?> kind) {
            return new ReadOnlyGuess();
        }
    };

    private boolean readOnly;
    private int streak;
    private int needed = STREAK;

    /** The guess for {@code kind}. */
    static ReadOnlyGuess of(Class<?> kind) {
        return BY_KIND.get(kind);
    }

    /** Whether an attempt of this kind should keep no read set. */
    boolean readOnly() {
        return readOnly;
    }

    /** An attempt of this kind committed, with writes or without. */
    void committed(boolean withoutWrites) {
        if (!withoutWrites) {
            streak = 0;
        } else if (!readOnly && ++streak >= needed) {
            readOnly = true;
        }
    }

    /** An attempt guessed read-only wrote: this kind records again, and must show twice as many before. */
    void wrote() {
        readOnly = false;
        streak = 0;
        needed = Math.min(MAX_STREAK, needed * 2);
    }
}

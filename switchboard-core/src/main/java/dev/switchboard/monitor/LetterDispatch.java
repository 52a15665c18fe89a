package dev.switchboard.monitor;

/**
 * Branching on a letter's category, the {@code dispatch: letter as: [[C1, block], [C2, block]]} of [PAM]:
 * runs the action of the first filter that passes the letter.
 *
 * <pre>{@code
 * protected void leave(Letter letter) {
 *     dispatch(letter).on(READ, () -> readers--).on(WRITE, () -> writing = false);
 * }
 * }</pre>
 */
public final class LetterDispatch {
    private final Letter letter;
    private boolean done;

    LetterDispatch(Letter letter) {
        this.letter = letter;
    }

    /** Runs {@code action} if no earlier branch matched and {@code filter} passes the letter. */
    public LetterDispatch on(LetterFilter filter, Runnable action) {
        if (!done && filter.pass(letter)) {
            done = true;
            action.run();
        }
        return this;
    }

    /** Runs {@code action} if no branch matched. */
    public void otherwise(Runnable action) {
        if (!done) {
            done = true;
            action.run();
        }
    }

    /** Whether a branch matched. */
    public boolean matched() {
        return done;
    }
}

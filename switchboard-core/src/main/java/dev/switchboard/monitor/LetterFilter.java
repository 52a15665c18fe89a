package dev.switchboard.monitor;

/**
 * A predicate over letters, used by a {@link Monitor} to choose which letters to start ([PAM], Table 1:
 * "filter"). A {@link Category} is a filter.
 */
@FunctionalInterface
public interface LetterFilter {
    /** Passes every letter. */
    LetterFilter ANY = letter -> true;

    boolean pass(Letter letter);

    default LetterFilter and(LetterFilter other) {
        return letter -> pass(letter) && other.pass(letter);
    }

    default LetterFilter or(LetterFilter other) {
        return letter -> pass(letter) || other.pass(letter);
    }

    default LetterFilter negate() {
        return letter -> !pass(letter);
    }
}

package dev.switchboard.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Synchronizers (Frølund and Agha), built as a monitor ([PAM] §5.4, Listings 6–8): a declarative way to
 * coordinate the messages of an actor that encapsulates several objects.
 * <ul>
 *   <li>{@link #update(LetterFilter, Consumer)}: when a letter that passes the filter is started, run an update of
 *       the synchronizer's state;</li>
 *   <li>{@link #disable(BooleanSupplier, LetterFilter)}: while the condition holds, letters that pass the filter
 *       are not started;</li>
 *   <li>{@link #atomic(LetterFilter...)}: when every filter has a waiting letter, start one letter per filter
 *       together, as an atomic group: nothing else runs while the group runs, and the group starts only when
 *       nothing else runs. Letters that pass an atomic filter only ever start in such a group.</li>
 * </ul>
 * Every other letter starts as soon as it is not disabled, in parallel with the others.
 *
 * <pre>{@code
 * // Listing 6: at most `max` requests outstanding on adm1 and adm2 together
 * int[] prev = {0};
 * new SynchronizerMonitor()
 *         .update(REQUEST, letter -> prev[0]++)
 *         .update(RELEASE, letter -> prev[0]--)
 *         .disable(() -> prev[0] >= max, REQUEST)
 *         .bind(administration);
 * }</pre>
 */
public class SynchronizerMonitor extends Monitor {
    private record Update(LetterFilter pattern, Consumer<Letter> action) {
    }

    private record Disable(BooleanSupplier when, LetterFilter pattern) {
    }

    private final List<Update> updates = new ArrayList<>();
    private final List<Disable> disables = new ArrayList<>();
    private final List<LetterFilter[]> atomics = new ArrayList<>();
    private int executing;
    private boolean atomic;

    /** A synchronizer with no rules yet: add them with {@link #update}, {@link #disable} and {@link #atomic}. */
    public SynchronizerMonitor() {
    }

    /** Registers an update: runs {@code action} each time a letter passing {@code pattern} is started. */
    public SynchronizerMonitor update(LetterFilter pattern, Consumer<Letter> action) {
        updates.add(new Update(Objects.requireNonNull(pattern), Objects.requireNonNull(action)));
        return this;
    }

    /** Registers a disable: letters passing {@code pattern} do not start while {@code when} holds. */
    public SynchronizerMonitor disable(BooleanSupplier when, LetterFilter pattern) {
        disables.add(new Disable(Objects.requireNonNull(when), Objects.requireNonNull(pattern)));
        return this;
    }

    /** Registers an atomic group: one letter per pattern, started together and alone. */
    public SynchronizerMonitor atomic(LetterFilter... patterns) {
        if (patterns.length == 0) {
            throw new IllegalArgumentException("an atomic group needs at least one pattern");
        }
        atomics.add(patterns.clone());
        return this;
    }

    @Override
    protected void schedule() {
        if (atomic) {
            return;                                        // an atomic group runs alone
        }
        if (executing == 0 && startAtomicGroup()) {
            atomic = true;
            return;
        }
        for (Letter letter : letters()) {
            if (!isDisabled(letter) && !inAtomicGroup(letter)) {
                runUpdates(letter);
                executing++;
                startLetter(letter);
            }
        }
    }

    @Override
    protected void leave(Letter letter) {
        if (--executing == 0) {
            atomic = false;
        }
    }

    private boolean startAtomicGroup() {
        for (LetterFilter[] group : atomics) {
            List<Letter> chosen = new ArrayList<>(group.length);
            for (LetterFilter pattern : group) {
                Letter match = null;
                for (Letter l : letters()) {
                    if (pattern.pass(l) && !chosen.contains(l) && !isDisabled(l)) {
                        match = l;
                        break;
                    }
                }
                if (match == null) {
                    break;
                }
                chosen.add(match);
            }
            if (chosen.size() == group.length) {
                for (Letter l : chosen) {
                    runUpdates(l);
                    executing++;
                    startLetter(l);
                }
                return true;
            }
        }
        return false;
    }

    private boolean isDisabled(Letter letter) {
        for (Disable d : disables) {
            if (d.pattern().pass(letter) && d.when().getAsBoolean()) {
                return true;
            }
        }
        return false;
    }

    private boolean inAtomicGroup(Letter letter) {
        for (LetterFilter[] group : atomics) {
            for (LetterFilter pattern : group) {
                if (pattern.pass(letter)) {
                    return true;
                }
            }
        }
        return false;
    }

    private void runUpdates(Letter letter) {
        for (Update u : updates) {
            if (u.pattern().pass(letter)) {
                u.action().accept(letter);
            }
        }
    }
}

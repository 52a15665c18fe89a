package dev.switchboard.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a kit captured of one kind (actor failures, dead letters), oldest first, and which of them the test has
 * expected already. Added to by the runtime's threads, read and taken from by the test's.
 */
final class Captured<T> {
    private final List<T> items = new ArrayList<>();
    private final List<Boolean> expected = new ArrayList<>();

    synchronized void add(T item) {
        items.add(item);
        expected.add(false);
    }

    synchronized List<T> all() {
        return List.copyOf(items);
    }

    /** Marks as expected, and returns, the oldest item {@code which} accepts that was not expected yet; else null. */
    synchronized T takeUnexpected(Predicate<? super T> which) {
        for (int i = 0; i < items.size(); i++) {
            if (!expected.get(i) && which.test(items.get(i))) {
                expected.set(i, true);
                return items.get(i);
            }
        }
        return null;
    }
}

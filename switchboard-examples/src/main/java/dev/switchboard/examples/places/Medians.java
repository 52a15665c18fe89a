package dev.switchboard.examples.places;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The median the places' measuring programs report (the upper one of an even count). */
final class Medians {
    private Medians() {
    }

    static double of(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}

package dev.switchboard.place;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What a run of a program on places did ({@link Places.Builder#run}). On place 0, the whole program's; on another
 * place started from a configuration (whose run returns when the program ends), that place's own: its bootstrap,
 * then its part until the program ended as {@code body}, {@code termination} zero, and only its own dead letters.
 *
 * @param places      the places' names, by index
 * @param bootstrap   from the launch until the program's body started: the places started and connected
 * @param body        the program's finish on place 0: the body and the work of place 0 it waited for
 * @param termination from the end of that finish until global termination was detected
 * @param deadLetters the dead letters of each place, by index
 * @param framesSent  the program's frames (creations, messages, failures) this place sent to other places (place
 *                    0's, in the report of its run)
 */
public record PlacesReport(List<String> places, Duration bootstrap, Duration body, Duration termination,
                           long[] deadLetters, long framesSent) {
    public PlacesReport {
        places = List.copyOf(places);
        deadLetters = deadLetters.clone();
    }

    /** The dead letters of every place together. */
    public long totalDeadLetters() {
        return Arrays.stream(deadLetters).sum();
    }

    @Override
    public long[] deadLetters() {
        return deadLetters.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PlacesReport r && places.equals(r.places) && bootstrap.equals(r.bootstrap)
                && body.equals(r.body) && termination.equals(r.termination)
                && Arrays.equals(deadLetters, r.deadLetters) && framesSent == r.framesSent;
    }

    @Override
    public int hashCode() {
        return places.hashCode() * 31 + Arrays.hashCode(deadLetters);
    }

    @Override
    public String toString() {
        return places.size() + (places.size() == 1 ? " place" : " places") + ": bootstrap " + bootstrap.toMillis()
                + " ms, body " + body.toMillis()
                + " ms, termination " + String.format("%.1f", termination.toNanos() / 1e6) + " ms, dead letters "
                + Arrays.toString(deadLetters) + ", frames sent from place 0 " + framesSent;
    }
}

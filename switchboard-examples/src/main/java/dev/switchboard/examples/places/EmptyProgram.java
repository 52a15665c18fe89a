package dev.switchboard.examples.places;

import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import java.util.ArrayList;
import java.util.List;

/**
 * What places cost before a program does anything: the places started and connected, an empty body run, global
 * termination detected and every place ended, {@code --repeat} times (default 5), each launch timed from the
 * builder's {@code run} to its return.
 *
 * <pre>
 * ./switchboard place run --places 4 dev.switchboard.examples.places.EmptyProgram --repeat 5
 * </pre>
 */
public final class EmptyProgram {
    private EmptyProgram() {
    }

    public static void main(String[] args) throws Exception {
        int repeat = 5;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--repeat")) {
                repeat = Integer.parseInt(args[i + 1]);
            }
        }
        List<Double> walls = new ArrayList<>();
        List<Double> terminations = new ArrayList<>();
        for (int r = 1; r <= repeat; r++) {
            long t0 = System.nanoTime();
            PlacesReport report = Places.builder().args(args).run(places -> { });
            double wall = (System.nanoTime() - t0) / 1e6;
            double termination = report.termination().toNanos() / 1e6;
            walls.add(wall);
            terminations.add(termination);
            System.out.printf("run %d: %d places, wall %.0f ms (bootstrap %d ms), termination detected %.2f ms"
                    + " after the body ended%n", r, report.places().size(), wall, report.bootstrap().toMillis(),
                    termination);
        }
        System.out.printf("median of %d: wall %.0f ms, termination %.2f ms%n", repeat, Medians.of(walls),
                Medians.of(terminations));
    }
}

package dev.switchboard.examples.places;

import dev.switchboard.place.Places;
import dev.switchboard.place.PlacesReport;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * [DistSelectors] §5's scaling runs on local places: Trapezoid with the work per place fixed (weak scaling), PiPrecision
 * and NQueens-first-K with the problem fixed (strong scaling), each on 1, 2 and 4 places of this host, each launch
 * timed by its report's {@code body} (the program's body and global termination excluded bootstrap). On a machine
 * with fewer cores than places the places share the cores, so the table shows what places cost, not a speed-up.
 *
 * <pre>
 * ./switchboard place run dev.switchboard.examples.places.PlacesScaling --rounds 3
 * </pre>
 */
public final class PlacesScaling {
    private PlacesScaling() {
    }

    @FunctionalInterface
    private interface Program {
        PlacesReport run(Places.Builder launch) throws InterruptedException;
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = 3;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--rounds")) {
                rounds = Integer.parseInt(args[i + 1]);
            }
        }
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        List<String> names = List.of("Trapezoid (weak: 2 workers x 8,000,000 pieces per place)",
                "PiPrecision (strong: 3,000 digits)", "NQueensFirstK (strong: 12 queens, first 2,000)");
        List<Program> programs = List.of(
                launch -> Trapezoid.run(launch, 2, 8_000_000, quiet).report(),
                launch -> PiPrecision.run(launch, 3_000, 2, quiet).report(),
                launch -> NQueensFirstK.run(launch, 12, 4, 2_000, 2, quiet).report());
        int[] placeCounts = {1, 2, 4};
        System.out.printf("%-58s %12s %12s %12s%n", "program (median body time of " + rounds + " launches, ms)",
                "1 place", "2 places", "4 places");
        for (int p = 0; p < programs.size(); p++) {
            StringBuilder row = new StringBuilder(String.format("%-58s", names.get(p)));
            for (int places : placeCounts) {
                List<Double> times = new ArrayList<>();
                for (int r = 0; r < rounds + 1; r++) {
                    PlacesReport report = programs.get(p).run(Places.builder().places(places).workers(2));
                    if (r > 0) {                                  // the first launch warms this JVM up
                        times.add(report.body().toNanos() / 1e6 + report.termination().toNanos() / 1e6);
                    }
                }
                row.append(String.format(" %12.0f", Medians.of(times)));
            }
            System.out.println(row);
        }
    }
}

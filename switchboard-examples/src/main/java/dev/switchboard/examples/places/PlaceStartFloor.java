package dev.switchboard.examples.places;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor of a local launch's bootstrap on this machine: three place JVMs ({@code dev.switchboard.place.PlaceMain},
 * as the launcher starts them for four places) started at once, timed until each says it is ready (listening, its
 * runtime built); and, for scale, three trivial JVMs ({@code java -version}) at once. {@code --repeat} times
 * (default 7).
 *
 * <pre>
 * ./switchboard place run dev.switchboard.examples.places.PlaceStartFloor --repeat 7
 * </pre>
 */
public final class PlaceStartFloor {
    private PlaceStartFloor() {
    }

    public static void main(String[] args) throws Exception {
        int repeat = 7;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--repeat")) {
                repeat = Integer.parseInt(args[i + 1]);
            }
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Double> trivial = new ArrayList<>();
        List<Double> places = new ArrayList<>();
        for (int r = 0; r < repeat; r++) {
            trivial.add(three(i -> List.of(java, "-version"), false));
            places.add(three(i -> List.of(java, "--sun-misc-unsafe-memory-access=allow", "-cp",
                    System.getProperty("java.class.path"), "dev.switchboard.place.PlaceMain", "--program", "floor",
                    "--place", String.valueOf(i), "--names", "p0,p1,p2,p3"), true));
        }
        System.out.printf("three java -version at once: median %.0f ms %s%n", Medians.of(trivial), trivial);
        System.out.printf("three place JVMs at once, until each is ready: median %.0f ms %s%n", Medians.of(places),
                places);
    }

    private static double three(java.util.function.IntFunction<List<String>> command, boolean untilReady)
            throws Exception {
        long t0 = System.nanoTime();
        List<Process> processes = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            processes.add(new ProcessBuilder(command.apply(i)).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start());
        }
        try {
            for (Process p : processes) {
                if (untilReady) {
                    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                            StandardCharsets.UTF_8));
                    String line = out.readLine();
                    if (line == null || !line.startsWith("switchboard-place ready")) {
                        throw new IllegalStateException("a place JVM said '" + line + "' instead of being ready");
                    }
                } else {
                    p.waitFor();
                }
            }
            return Math.round((System.nanoTime() - t0) / 1e5) / 10.0;
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }
}

package dev.switchboard.bench.harness;

import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Two builds of Switchboard in one JVM: each build's benchmark jar in a class loader of its own, with a runtime of
 * its own, running the same benchmarks in turn, round after round, so that both meet the same machine at the same
 * moment. Prints, per benchmark, each build's median time and the second's over the first's.
 *
 * <p>On a shared virtual machine the same program's time moves by a third from one minute or one JVM to the next,
 * which hides a difference of a few per cent between two builds run in JVMs of their own. Here both builds share
 * every minute and every JVM. What the two still do not share is the order in which the JVM first loaded and
 * compiled them: the JDK's own code, which both call, is compiled with the profile of whichever ran first, and
 * that alone has moved a benchmark by a tenth. So a comparison runs several JVMs, the build loaded first swapped
 * from one to the next ({@code compare-builds.sh --one-jvm}), and an A/A run (the same jar twice) shows the spread
 * that order and the machine leave.
 *
 * <p>The tool uses only the JDK: a build is reached by reflection ({@code Suite}, {@code Benchmark},
 * {@code TaskRuntime}), so it compares builds older than itself, and the script runs it from its source file.
 *
 * <pre>
 * java BuildsInOneJvm.java FIRST_CLASSPATH SECOND_CLASSPATH BENCHMARK,... ROUNDS [WORKERS (2)]
 * </pre>
 * A class path is a jar (a build's {@code switchboard-bench.jar}) or a list of jars and directories. Each round runs
 * every benchmark once on each build, the first build first in odd rounds and the second first in even ones; the
 * median is over the last two thirds of the rounds (the first third warms both up). Every run's checksum is checked.
 */
public final class BuildsInOneJvm {
    private BuildsInOneJvm() {
    }

    /** One build: its class loader, its runtime, its benchmarks by name, and how to run one. */
    static final class Build implements AutoCloseable {
        final URLClassLoader loader;
        final Object runtime;
        final Method run;
        final Method expected;
        final Method close;
        final List<Object> benchmarks = new ArrayList<>();

        Build(String classPath, List<String> names, int workers) throws Exception {
            loader = new URLClassLoader(urls(classPath), ClassLoader.getPlatformClassLoader());
            try {
                Class<?> runtimeClass = loader.loadClass("dev.switchboard.task.TaskRuntime");
                Class<?> benchmark = loader.loadClass("dev.switchboard.bench.harness.Benchmark");
                Class<?> suite = loader.loadClass("dev.switchboard.bench.Suite");
                run = benchmark.getMethod("runSwitchboard", runtimeClass);
                expected = benchmark.getMethod("expected");
                close = runtimeClass.getMethod("close");
                Method name = benchmark.getMethod("name");
                List<Object> known = new ArrayList<>();
                for (String list : List.of("all", "optional", "serverGrid", "compareVariants")) {
                    try {
                        known.addAll((List<?>) suite.getMethod(list).invoke(null));
                    } catch (NoSuchMethodException older) {
                        // a build from before that list: its benchmarks are not there to compare
                    }
                }
                for (String wanted : names) {
                    Object found = null;
                    for (Object b : known) {
                        if (((String) name.invoke(b)).equalsIgnoreCase(wanted)) {
                            found = b;
                            break;
                        }
                    }
                    if (found == null) {
                        throw new IllegalArgumentException("the build at " + classPath + " has no benchmark " + wanted);
                    }
                    benchmarks.add(found);
                }
                runtime = runtimeClass.getMethod("create", int.class).invoke(null, workers);
            } catch (Exception | Error failed) {
                loader.close();
                throw failed;
            }
        }

        /** Closes the build's runtime, then its class loader. */
        @Override
        public void close() throws Exception {
            try {
                close.invoke(runtime);
            } finally {
                loader.close();
            }
        }

        /** Runs benchmark {@code i} once; its time in milliseconds. */
        double runOnce(int i, String name) throws Exception {
            Object b = benchmarks.get(i);
            long start = System.nanoTime();
            long sum;
            try {
                sum = (long) run.invoke(b, runtime);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception x ? x : e;
            }
            double ms = (System.nanoTime() - start) / 1e6;
            long want = (long) expected.invoke(b);
            if (sum != want) {
                throw new IllegalStateException(name + " returned checksum " + sum + ", expected " + want);
            }
            return ms;
        }

        private static URL[] urls(String classPath) throws MalformedURLException {
            List<URL> urls = new ArrayList<>();
            for (String entry : classPath.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    urls.add(Path.of(entry).toUri().toURL());
                }
            }
            return urls.toArray(URL[]::new);
        }
    }

    /** One benchmark's medians on the two builds, in milliseconds. */
    record Row(String benchmark, double firstMs, double secondMs) {
        double ratio() {
            return secondMs / firstMs;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4 || args.length > 5) {
            System.err.println("usage: BuildsInOneJvm FIRST_CLASSPATH SECOND_CLASSPATH BENCHMARK,... ROUNDS [WORKERS]");
            System.exit(2);
        }
        List<String> names = List.of(args[2].split(","));
        int rounds = Integer.parseInt(args[3]);
        int workers = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        compare(args[0], args[1], names, rounds, workers, System.out);
        System.exit(0);                          // a build's runtime threads must not keep the JVM alive
    }

    /**
     * Loads the two builds (the first first), runs {@code names} for {@code rounds} rounds on runtimes of
     * {@code workers} workers, and prints a line per benchmark to {@code out}; returns the rows.
     */
    static List<Row> compare(String first, String second, List<String> names, int rounds, int workers,
            PrintStream out) throws Exception {
        if (rounds < 3) {
            throw new IllegalArgumentException("at least 3 rounds: the first third warms up, got " + rounds);
        }
        try (Build firstBuild = new Build(first, names, workers);
                Build secondBuild = new Build(second, names, workers)) {
            Build[] builds = {firstBuild, secondBuild};
            double[][][] ms = new double[2][names.size()][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < names.size(); i++) {
                    for (int k = 0; k < 2; k++) {
                        int b = r % 2 == 0 ? k : 1 - k;
                        ms[b][i][r] = builds[b].runOnce(i, names.get(i));
                    }
                }
            }
            List<Row> rows = new ArrayList<>();
            out.printf(Locale.ROOT, "%-32s %12s %12s %14s%n", "benchmark", "first ms", "second ms", "second/first");
            for (int i = 0; i < names.size(); i++) {
                Row row = new Row(names.get(i), median(ms[0][i], rounds / 3), median(ms[1][i], rounds / 3));
                rows.add(row);
                out.printf(Locale.ROOT, "%-32s %12.3f %12.3f %14.4f%n", row.benchmark(), row.firstMs(),
                        row.secondMs(), row.ratio());
            }
            return rows;
        }
    }

    /** The median of {@code values} after the first {@code skip}. */
    static double median(double[] values, int skip) {
        double[] kept = Arrays.copyOfRange(values, skip, values.length);
        Arrays.sort(kept);
        int n = kept.length;
        return n % 2 == 1 ? kept[n / 2] : (kept[n / 2 - 1] + kept[n / 2]) / 2;
    }
}

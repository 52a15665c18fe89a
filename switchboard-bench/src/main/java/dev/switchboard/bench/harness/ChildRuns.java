package dev.switchboard.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs the harness several times ({@code --runs N}), each run in a child JVM started like this one: the same java
 * executable, JVM flags and class path, and the same arguments without {@code --runs}, {@code --json} and
 * {@code --html}, plus {@code --json} to a temporary file. The runs go one after the other, their output copied
 * to this JVM's as it comes; the results are read back from the files. A child that exits with anything but 0 (or
 * writes no readable report) is a {@link Failure} that names the run and its exit code; that run is tried once more
 * in a new JVM, the series goes on, and the runs that completed are merged (a peer that ends its JVM now and then,
 * as Pekko does on a fatal error, costs an attempt, not the series or one of its runs). Every failure is kept and
 * reported. A usage error ends the series at once, since every run would fail the same way, and so does a series
 * none of whose runs completed, with its first failure. A failed attempt that left a report (a child rewrites
 * its report after every benchmark, {@link Harness#run}) has it kept beside the series' own report, when there is
 * one ({@link #keepingFailedReportsBeside}), named after the run and attempt, so that what it measured before it
 * failed is not lost; the merge leaves it out.
 */
final class ChildRuns {
    /** A child run that did not succeed. */
    static final class Failure extends IOException {
        private final int run;
        private final int exitCode;

        Failure(int run, int runs, int attempt, int exitCode, String why) {
            super("run " + run + " of " + runs + (attempt > 1 ? " (attempt " + attempt + ")" : "") + " failed: " + why);
            this.run = run;
            this.exitCode = exitCode;
        }

        /** Which run failed, from 1. */
        int run() {
            return run;
        }

        /** Its JVM's exit code, or -1 if it exited with 0 but wrote no report. */
        int exitCode() {
            return exitCode;
        }
    }

    /**
     * What a series gave: the results of the runs that completed, in run order, and the failures of the others.
     */
    record Outcome(List<List<Result>> results, List<Failure> failures) {
        Outcome {
            results = List.copyOf(results);
            failures = List.copyOf(failures);
        }
    }

    /** How many times a run is tried before it is left out. */
    static final int ATTEMPTS = 2;

    /** The exit code of a child that was given arguments it does not take. */
    static final int USAGE_ERROR = 2;

    /** Options the parent handles itself: each is followed by its value. */
    private static final Set<String> PARENT_ONLY = Set.of("--runs", "--json", "--html");

    private final List<String> jvm;
    private final List<String> arguments;
    private final int runs;
    private final PrintStream out;
    private volatile Process current;
    /** The series' own report, beside which failed attempts' reports are kept; null: they are not kept. */
    private Path keepBeside;

    /**
     * @param jvm       the command that starts the harness, up to its arguments ({@link #thisJvm})
     * @param arguments the arguments of every run ({@link #childArguments}); each also gets {@code --json FILE}
     */
    ChildRuns(List<String> jvm, List<String> arguments, int runs, PrintStream out) {
        this.jvm = List.copyOf(jvm);
        this.arguments = List.copyOf(arguments);
        this.runs = runs;
        this.out = out;
    }

    /**
     * Keeps the report a failed attempt left, beside {@code report} (the series' own {@code --json} file), as
     * {@code <report>.run-<run>-attempt-<attempt>.json}.
     *
     * @return this
     */
    ChildRuns keepingFailedReportsBeside(Path report) {
        this.keepBeside = report;
        return this;
    }

    /**
     * The command that starts the harness in a JVM like this one: its java executable, its JVM flags (without a
     * debugger agent, whose port the child could not take, and with {@code -Dswitchboard.commit=commit}), its
     * class path and the harness's main class.
     */
    static List<String> thisJvm(String commit) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!flag.startsWith("-agentlib:jdwp") && !flag.startsWith("-D" + RunInfo.COMMIT_PROPERTY + "=")) {
                command.add(flag);
            }
        }
        command.add("-D" + RunInfo.COMMIT_PROPERTY + "=" + commit);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Harness.class.getName());
        return command;
    }

    /** {@code args} without {@code --runs}, {@code --json} and {@code --html} and their values. */
    static List<String> childArguments(List<String> args) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (PARENT_ONLY.contains(args.get(i))) {
                i++;
            } else {
                kept.add(args.get(i));
            }
        }
        return kept;
    }

    /**
     * Runs the children one after the other; returns the results of those that completed and the failures of the
     * others.
     *
     * @throws Failure on a usage error (at once), or when no run completed (the first failure)
     */
    Outcome run() throws IOException {
        Path dir = Files.createTempDirectory("switchboard-bench-runs");
        Thread stopChild = new Thread(() -> {
            Process p = current;
            if (p != null) {
                p.destroy();
            }
        }, "switchboard-bench-stop-child");
        Runtime.getRuntime().addShutdownHook(stopChild);
        try {
            List<List<Result>> results = new ArrayList<>();
            List<Failure> failures = new ArrayList<>();
            for (int i = 1; i <= runs; i++) {
                for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                    try {
                        results.add(runOne(i, attempt, dir.resolve("run-" + i + "-" + attempt + ".json")));
                        break;
                    } catch (Failure f) {
                        if (f.exitCode() == USAGE_ERROR) {
                            throw f;
                        }
                        out.println("bench: " + f.getMessage() + (attempt < ATTEMPTS ? "; trying it again"
                                : i < runs ? "; going on with the next run" : ""));
                        failures.add(f);
                    }
                }
            }
            if (results.isEmpty()) {
                throw failures.get(0);
            }
            return new Outcome(results, failures);
        } finally {
            current = null;
            try {
                Runtime.getRuntime().removeShutdownHook(stopChild);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
            delete(dir);
        }
    }

    private List<Result> runOne(int run, int attempt, Path json) throws IOException {
        List<String> command = new ArrayList<>(jvm);
        command.addAll(arguments);
        command.add("--json");
        command.add(json.toString());
        if (runs > 1 || attempt > 1) {       // a single run's caller says what it is (the scaling mode)
            out.printf("%n=== run %d of %d%s (its own JVM) ===%n", run, runs, attempt > 1 ? ", attempt " + attempt
                    : "");
        }
        out.flush();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        current = p;
        p.getOutputStream().close();
        copy(p.getInputStream());
        int exit;
        try {
            exit = p.waitFor();
        } catch (InterruptedException e) {
            p.destroy();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for run " + run, e);
        }
        current = null;
        if (exit != 0) {
            throw new Failure(run, runs, attempt, exit, "its JVM exited with code " + exit + switch (exit) {
                case 1 -> " (a benchmark failed or returned a wrong checksum; see its output above)";
                case USAGE_ERROR -> " (a usage error; see its output above)";
                default -> " (see its output above)";
            } + keptReport(run, attempt, json));
        }
        if (!Files.exists(json)) {
            throw new Failure(run, runs, attempt, -1, "it exited with code 0 but wrote no report to " + json);
        }
        try {
            return JsonReport.parseResults(Files.readString(json));
        } catch (IllegalArgumentException e) {
            throw new Failure(run, runs, attempt, -1, "its report " + json + " cannot be read: " + e.getMessage());
        }
    }

    /**
     * Keeps the report a failed attempt left ({@link #keepingFailedReportsBeside}); returns what the failure's
     * message adds about it ("" if there is none or none is kept).
     */
    private String keptReport(int run, int attempt, Path json) {
        if (keepBeside == null || !Files.exists(json)) {
            return "";
        }
        Path kept = keepBeside.toAbsolutePath().resolveSibling(keepBeside.getFileName() + ".run-" + run + "-attempt-"
                + attempt + ".json");
        try {
            Files.createDirectories(kept.getParent());
            Files.copy(json, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {   // the series goes on without it
            return "; the report it left could not be kept as " + kept + ": " + e;
        }
        String measured;
        try {
            int n = JsonReport.parseResults(Files.readString(kept)).size();
            measured = n == 1 ? "1 benchmark" : n + " benchmarks";
        } catch (IllegalArgumentException | IOException e) {
            measured = "unreadable: " + e.getMessage();
        }
        return "; the report it left (" + measured + ") is kept as " + kept;
    }

    /** Copies the child's output to {@code out} as it comes, until the child closes it. */
    private void copy(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
            out.flush();
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}

package dev.switchboard.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How a report was made: when the run started and ended (UTC), the commit it ran, its command-line arguments,
 * and its settings in words (label to text, in order) for the HTML page; the JSON report carries the same
 * settings in its {@code config} and {@code machine} sections.
 *
 * @param commit the short hash of the commit, with {@code -dirty} when the working tree had changes, or
 *               {@code unknown} ({@link #currentCommit()})
 */
record RunInfo(OffsetDateTime started, OffsetDateTime finished, String commit, List<String> arguments,
               Map<String, String> settings) {
    /** The system property the launcher sets to the commit ({@code git rev-parse --short HEAD}, maybe -dirty). */
    static final String COMMIT_PROPERTY = "switchboard.commit";

    RunInfo {
        arguments = List.copyOf(arguments);
        settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /** The current time in UTC, to the second. */
    static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
    }

    /** {@code started} to {@code finished}, for people: {@code 2026-11-25 11:40:02 to 11:46:40 UTC}. */
    String when() {
        DateTimeFormatter day = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm:ss");
        boolean sameDay = started.toLocalDate().equals(finished.toLocalDate());
        return started.format(day) + " to " + finished.format(sameDay ? time : day) + " UTC";
    }

    /** The {@code run} section of the JSON report. */
    ReportJson.Run json() {
        return new ReportJson.Run(started.toString(), finished.toString(), commit, arguments);
    }

    /**
     * The commit this JVM runs: the {@value #COMMIT_PROPERTY} system property when set; otherwise what git says in
     * the working directory ({@code git rev-parse --short HEAD}, {@code -dirty} appended when {@code git status
     * --porcelain} lists anything); otherwise {@code unknown}. Waits for git as long as it writes output.
     */
    static String currentCommit() {
        String property = System.getProperty(COMMIT_PROPERTY);
        if (property != null && !property.isBlank()) {
            return property.strip();
        }
        String head = git("rev-parse", "--short", "HEAD");
        if (head == null || head.isEmpty()) {
            return "unknown";
        }
        String status = git("status", "--porcelain");
        return status == null || status.isEmpty() ? head : head + "-dirty";
    }

    /** The trimmed output of a git command in the working directory, or null if it cannot run or fails. */
    private static String git(String... args) {
        List<String> command = new java.util.ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(Path.of("").toAbsolutePath().toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8).strip() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}

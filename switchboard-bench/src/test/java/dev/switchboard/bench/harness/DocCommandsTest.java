package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shell lines of the README and the docs are commands that exist, with options they take: every
 * {@code ./switchboard ...}, {@code switchboard-bench/scripts/...} and {@code scripts/...} line of a code block or
 * an inline code span names a command whose {@code --help} answers with its usage (exit 0, on standard output; the
 * launcher builds nothing for it), and each {@code --option} on the line is in that usage. The harness's options are picocli's
 * usage of {@link Options}, the same text {@code ./switchboard bench --help} prints after building the harness.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DocCommandsTest {
    static final Path ROOT = findRoot();
    private static final Pattern INLINE = Pattern.compile("`((?:\\./switchboard|switchboard-bench/scripts/|scripts/)[^`]*)`");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--[a-z][a-z-]*)");

    /** A command line of a doc, and where. */
    record Line(String where, String command) {
    }

    private final Map<String, String> helps = new HashMap<>();

    @Test
    void everyCommandInTheDocsExistsWithTheOptionsItIsShownWith() {
        List<Line> lines = commandLines();
        assertThat(lines.size()).as("command lines found in the docs").isGreaterThanOrEqualTo(15);
        List<String> problems = new ArrayList<>();
        for (Line line : lines) {
            List<String> words = List.of(line.command().split("\\s+"));
            String help;
            try {
                help = helpOf(words);
            } catch (AssertionError | RuntimeException e) {
                problems.add(line.where() + ": `" + line.command() + "`: " + e.getMessage());
                continue;
            }
            Matcher options = OPTION.matcher(line.command());
            while (options.find()) {
                if (!Pattern.compile("(?<![\\w-])" + Pattern.quote(options.group(1)) + "(?![\\w-])").matcher(help).find()) {
                    problems.add(line.where() + ": `" + line.command() + "`: " + options.group(1)
                            + " is not in the usage of " + words.get(0) + " " + (words.size() > 1 ? words.get(1) : ""));
                }
            }
        }
        assertThat(problems).as("doc command lines that do not match the commands").isEmpty();
    }

    @Test
    void everyCommandOfTheLauncherAnswersHelp() {
        for (String command : List.of("test", "install", "demo", "examples", "place", "place run", "jmh", "stress", "java")) {
            List<String> words = new ArrayList<>(List.of("./switchboard"));
            words.addAll(List.of(command.split(" ")));
            assertThat(helpOf(words)).as(command).startsWith("usage: ./switchboard " + command.split(" ")[0]);
        }
        assertThat(helpOf(List.of("./switchboard"))).startsWith("usage: ./switchboard <command>");
    }

    /** The usage of the command {@code words} start with: cached per command (and subcommand). */
    private String helpOf(List<String> words) {
        String program = words.get(0);
        if (program.startsWith("switchboard-bench/scripts/") || program.startsWith("scripts/")) {
            return helps.computeIfAbsent(program, p -> run(List.of("bash", p, "--help")));
        }
        if (!program.equals("./switchboard")) {
            throw new IllegalArgumentException("not a command of the repository: " + program);
        }
        String command = words.size() > 1 ? words.get(1) : "";
        if (command.equals("bench")) {
            return Options.usage();       // what ./switchboard bench --help prints, once it has built the harness
        }
        List<String> call = new ArrayList<>(List.of("bash", "switchboard"));
        if (!command.isEmpty() && !command.startsWith("-")) {
            call.add(command);
            if (command.equals("place") && words.size() > 2 && words.get(2).equals("run")) {
                call.add("run");
            }
        }
        call.add("--help");
        return helps.computeIfAbsent(String.join(" ", call), c -> run(call));
    }

    /** Runs {@code command} in the repository's root: its standard output, if it exits with 0 and says "usage:". */
    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).directory(ROOT.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end within 60 s");
            }
            if (p.exitValue() != 0 || !out.startsWith("usage:")) {
                throw new AssertionError(String.join(" ", command) + " exited with " + p.exitValue()
                        + " and printed: " + out.lines().findFirst().orElse("nothing"));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Every command line of the README and docs/*.md: in code blocks, and in inline code spans. */
    static List<Line> commandLines() {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<Line> lines = new LinkedHashSet<>();
        for (Path doc : docs) {
            List<String> text;
            try {
                text = Files.readAllLines(doc);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            boolean inBlock = false;
            for (int i = 0; i < text.size(); i++) {
                String where = ROOT.relativize(doc) + ":" + (i + 1);
                String l = text.get(i).strip();
                if (l.startsWith("```")) {
                    inBlock = !inBlock;
                    continue;
                }
                if (inBlock) {
                    String command = l.startsWith("$ ") ? l.substring(2) : l;
                    if (command.startsWith("./switchboard") || command.startsWith("switchboard-bench/scripts/")
                            || command.startsWith("scripts/")) {
                        StringBuilder joined = new StringBuilder(command);
                        while (joined.toString().endsWith("\\") && i + 1 < text.size()) {
                            joined.setLength(joined.length() - 1);
                            joined.append(' ').append(text.get(++i).strip());
                        }
                        lines.add(new Line(where, withoutComment(joined.toString())));
                    }
                } else {
                    Matcher inline = INLINE.matcher(text.get(i));
                    while (inline.find()) {
                        lines.add(new Line(where, withoutComment(inline.group(1))));
                    }
                }
            }
        }
        return List.copyOf(lines);
    }

    private static String withoutComment(String command) {
        int hash = command.indexOf(" #");
        String c = hash < 0 ? command : command.substring(0, hash);
        return c.strip();
    }

    private static Path findRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("switchboard")) && Files.isDirectory(d.resolve("docs"))) {
                return d;
            }
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }
}

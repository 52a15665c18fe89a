package dev.switchboard.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Java code of the README and the docs, and the compiled code it is the same as.
 *
 * <p>Every {@code ```java} block of {@code README.md} and {@code docs/*.md} is preceded, on the line right above
 * its fence, by a Markdown comment that names a region of a source file in this directory, or in the benchmark
 * module's {@code dev.switchboard.frompekko} (the programs ported from Pekko, which only that module may compile):
 * <pre>
 * &lt;!-- snippet: Actors.java#counter --&gt;
 * ```java
 * ...
 * ```
 * </pre>
 * A region is the lines between {@code // tag::NAME[]} and {@code // end::NAME[]} (regions may nest or overlap:
 * marker lines of other regions inside it are left out), and may come in pieces (the same tag opened again
 * after its end, so that the scaffold can put code of its own between them). A block may name several regions,
 * {@code <!-- snippet: Actors.java#counter #use -->} (a name without a file is of the file before): it is their
 * texts one after the other, with a blank line between two, so that declarations and the statements that use
 * them can stand where Java wants each. The block must be the region's text with its common
 * indentation removed, where {@code /*...*}{@code /} in the code stands for {@code ...} in the docs (an elided
 * part that the code leaves empty, e.g. {@code { /*...*}{@code / }} for a body the docs do not show). The code
 * around a region is its scaffold: what a fragment's free names are, and the test that runs a whole example.
 */
final class DocSnippets {
    /** The repository's root. */
    static final Path ROOT = findRoot();
    /** Where the regions are: a file's region is named by its path under one of these. */
    static final List<Path> SOURCES = List.of(
            ROOT.resolve("switchboard-examples/src/test/java/dev/switchboard/docs"),
            ROOT.resolve("switchboard-bench/src/test/java/dev/switchboard/frompekko"));

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!-- snippet: ([\\w./#\\s-]+?) -->\\s*$");
    private static final Pattern TAG = Pattern.compile("^\\s*// (tag|end)::([\\w-]+)\\[]\\s*$");

    private DocSnippets() {
    }

    /**
     * A fenced block of a doc: where it is, the regions it names ("File.java#tag", in order; empty if none), and
     * its text.
     */
    record Block(Path doc, int line, List<String> regions, String text) {
        String where() {
            return ROOT.relativize(doc) + ":" + line;
        }
    }

    /** A tagged region of a source file: where it starts, and its text as the docs show it. */
    record Region(Path file, int line, String text) {
    }

    /** The documents whose Java blocks are checked: the README and every page under docs/ (not the decisions). */
    static List<Path> documents() {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** Every fenced block of {@code doc} in the language {@code language} ("java", "sh", or "" for none). */
    static List<Block> blocks(Path doc, String language) {
        List<String> lines = read(doc);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            if (open.group(2).equals(language)) {
                List<String> body = new ArrayList<>();
                for (String l : lines.subList(i + 1, Math.min(end, lines.size()))) {
                    body.add(l.startsWith(indent) ? l.substring(indent.length()) : l.strip());
                }
                Matcher marker = i > 0 ? MARKER.matcher(lines.get(i - 1)) : null;
                List<String> names = marker != null && marker.matches() ? names(marker.group(1)) : List.of();
                blocks.add(new Block(doc, i + 1, names, String.join("\n", dedent(body))));
            }
            i = end;
        }
        return blocks;
    }

    /** "A.java#one #two B.java#three" as [A.java#one, A.java#two, B.java#three]. */
    private static List<String> names(String list) {
        List<String> names = new ArrayList<>();
        String file = null;
        for (String name : list.strip().split("\\s+")) {
            int hash = name.indexOf('#');
            if (hash > 0) {
                file = name.substring(0, hash);
            } else if (hash < 0 || file == null) {
                throw new IllegalArgumentException("not File.java#tag: " + name + " (in <!-- snippet: " + list + " -->)");
            }
            names.add(file + name.substring(hash));
        }
        return names;
    }

    /** Every region of every source file under {@link #SOURCES}, by "File.java#tag". */
    static Map<String, Region> regions() {
        Map<String, Region> all = new LinkedHashMap<>();
        for (Path root : SOURCES) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    String name = root.relativize(file).toString().replace('\\', '/');
                    regionsOf(file).forEach((tag, region) -> {
                        Region other = all.put(name + "#" + tag, region);
                        if (other != null) {
                            throw new IllegalStateException(name + "#" + tag + " is a region of both " + other.file()
                                    + " and " + region.file() + ": rename one of the files");
                        }
                    });
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all;
    }

    private static Map<String, Region> regionsOf(Path file) {
        List<String> lines = read(file);
        Map<String, Integer> open = new LinkedHashMap<>();
        Map<String, Integer> firstLine = new LinkedHashMap<>();
        Map<String, List<String>> bodies = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher tag = TAG.matcher(lines.get(i));
            if (!tag.matches()) {
                continue;
            }
            String name = tag.group(2);
            if (tag.group(1).equals("tag")) {
                if (open.put(name, i) != null) {
                    throw new IllegalStateException(file + ":" + (i + 1) + ": region " + name + " opened twice");
                }
                firstLine.putIfAbsent(name, i + 2);
            } else {
                Integer start = open.remove(name);
                if (start == null) {
                    throw new IllegalStateException(file + ":" + (i + 1) + ": region " + name + " ends unopened");
                }
                List<String> body = bodies.computeIfAbsent(name, n -> new ArrayList<>());
                for (String l : lines.subList(start + 1, i)) {
                    if (!TAG.matcher(l).matches()) {
                        body.add(l.replace("/*...*/", "..."));
                    }
                }
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalStateException(file + ": regions never ended: " + open.keySet());
        }
        Map<String, Region> regions = new LinkedHashMap<>();
        bodies.forEach((name, body) ->
                regions.put(name, new Region(file, firstLine.get(name), String.join("\n", dedent(body)))));
        return regions;
    }

    /** {@code lines} without their common indentation and without trailing blanks. */
    static List<String> dedent(List<String> lines) {
        int common = Integer.MAX_VALUE;
        for (String l : lines) {
            if (!l.isBlank()) {
                common = Math.min(common, l.length() - l.stripLeading().length());
            }
        }
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.add(l.isBlank() ? "" : l.substring(common).stripTrailing());
        }
        return out;
    }

    /**
     * What differs between a block and its regions (their texts one after the other, a blank line between two):
     * the first line that differs, with both versions and their places, or null if they are the same.
     */
    static String difference(Block block, List<Region> regions) {
        List<String> code = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (Region region : regions) {
            if (!code.isEmpty()) {
                code.add("");
                where.add("between two regions");
            }
            String[] lines = region.text().split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                code.add(lines[i]);
                where.add(ROOT.relativize(region.file()) + ":" + (region.line() + i));
            }
        }
        String[] doc = block.text().split("\n", -1);
        for (int i = 0; i < Math.max(doc.length, code.size()); i++) {
            String d = i < doc.length ? doc[i] : "<the block ends>";
            String c = i < code.size() ? code.get(i) : "<the regions end>";
            if (!d.equals(c)) {
                return block.where() + " (its line " + (block.line() + 1 + i) + ") differs from "
                        + (i < where.size() ? where.get(i) : "the end of " + block.regions()) + ":\n    docs: " + d
                        + "\n    code: " + c;
            }
        }
        return null;
    }

    static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path findRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("docs/guide.md")) && Files.isDirectory(d.resolve("switchboard-core"))) {
                return d;
            }
        }
        throw new IllegalStateException("no repository root (with docs/guide.md) above " + dir);
    }
}

package dev.switchboard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.docs.DocSnippets.Block;
import dev.switchboard.docs.DocSnippets.Region;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Java code in the README and the docs is code this module compiles (and, for whole examples, runs): every
 * {@code ```java} block names the region of a source file beside this test that it shows, and is that region's
 * text ({@link DocSnippets}). A doc change that breaks an example, or a code change the docs do not follow, fails
 * here with the first line that differs.
 */
class DocSnippetsTest {
    private final Map<String, Region> regions = DocSnippets.regions();

    @Test
    void everyJavaBlockOfTheDocsIsTheTextOfCompiledCode() {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path doc : DocSnippets.documents()) {
            for (Block block : DocSnippets.blocks(doc, "java")) {
                if (block.regions().isEmpty()) {
                    problems.add(block.where() + ": a java block without <!-- snippet: File.java#tag --> on the"
                            + " line above its fence");
                    continue;
                }
                List<Region> shown = new ArrayList<>();
                for (String name : block.regions()) {
                    Region region = regions.get(name);
                    if (region == null) {
                        problems.add(block.where() + ": names " + name + ", which is no region under "
                                + DocSnippets.SOURCES.stream().map(DocSnippets.ROOT::relativize).toList());
                    }
                    shown.add(region);
                }
                if (shown.contains(null)) {
                    continue;
                }
                String difference = DocSnippets.difference(block, shown);
                if (difference != null) {
                    problems.add(difference);
                }
                checked++;
            }
        }
        assertThat(problems).as("java blocks of the docs that are not compiled code").isEmpty();
        assertThat(checked).as("java blocks checked").isGreaterThanOrEqualTo(25);
    }

    @Test
    void everyRegionIsShownByTheDocs() {
        Set<String> shown = new HashSet<>();
        for (Path doc : DocSnippets.documents()) {
            for (Block block : DocSnippets.blocks(doc, "java")) {
                shown.addAll(block.regions());
            }
        }
        assertThat(regions.keySet()).as("regions no doc shows (a block was removed or renamed)")
                .allMatch(shown::contains);
    }

    @Test
    void theCheckerSeesADifference() {
        Block block = new Block(Path.of("doc.md").toAbsolutePath(), 1, List.of("A.java#t"), "int x = 1;\n...");
        Region same = new Region(Path.of("A.java").toAbsolutePath(), 1, "int x = 1;\n...");
        Region other = new Region(Path.of("A.java").toAbsolutePath(), 1, "int x = 2;\n...");
        assertThat(DocSnippets.difference(block, List.of(same))).isNull();
        assertThat(DocSnippets.difference(block, List.of(other))).contains("docs: int x = 1;")
                .contains("code: int x = 2;");
        Block two = new Block(block.doc(), 1, List.of("A.java#t", "A.java#u"), "int x = 1;\n\nint y;");
        Region y = new Region(Path.of("A.java").toAbsolutePath(), 9, "int y;");
        assertThat(DocSnippets.difference(two, List.of(new Region(same.file(), 1, "int x = 1;"), y))).isNull();
        assertThat(DocSnippets.difference(two, List.of(y))).contains("docs: int x = 1;");
        assertThat(DocSnippets.dedent(List.of("    a", "      b", "", "    c  "))).containsExactly("a", "  b", "", "c");
    }
}

package dev.switchboard.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs keep the shape a newcomer can hold: the benchmarks page is the method, the latest table and a short
 * section per family (at most 400 lines; runs and their history go to decision records), and
 * {@code docs/decisions/} holds only Markdown records (scripts live beside the code that uses them).
 */
class DocsShapeTest {
    static final int BENCHMARKS_PAGE_MAX_LINES = 400;

    @Test
    void theBenchmarksPageStaysShort() throws IOException {
        Path page = DocCommandsTest.ROOT.resolve("docs/benchmarks.md");
        assertThat(Files.readAllLines(page))
                .as("%s: move runs and their history to a decision record (docs/decisions/013-benchmark-history.md)", page)
                .hasSizeLessThanOrEqualTo(BENCHMARKS_PAGE_MAX_LINES);
    }

    @Test
    void theDecisionRecordsAreOnlyMarkdown() throws IOException {
        try (Stream<Path> files = Files.list(DocCommandsTest.ROOT.resolve("docs/decisions"))) {
            List<String> others = files.map(f -> f.getFileName().toString()).filter(n -> !n.endsWith(".md")).toList();
            assertThat(others).as("files in docs/decisions that are not decision records").isEmpty();
        }
    }
}

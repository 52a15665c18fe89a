package dev.switchboard.bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The JSON report of {@code --compare} ({@code --json FILE}): how the run was made, the machine, what the comparison
 * ran with, and a row per variant with its median, quartiles, relations and every measured round's time.
 *
 * <pre>{@code
 * {"run": {"started": "...", "finished": "...", "commit": "e4e49d4", "arguments": ["--compare", ...]},
 *  "machine": {"cpus": 2, ...},
 *  "config": {"benchmarks": ["Big", "AdderJoin8"], "worker_counts": [1, 2], "throughput": 64, "rounds": 10, ...},
 *  "results": [{"name": "Big", "workers": 1, "median_ms": 357.46, "q1_ms": ..., "q3_ms": ..., "vs_first": 1.0,
 *               "vs_first_workers": 1.0, "samples_ms": [354.9, ...]}, ...]}
 * }</pre>
 */
final class ComparisonReport {
    /** The file's top level. */
    record ReportFile(ReportJson.Run run, Map<String, Object> machine, Map<String, Object> config,
                      List<Comparison.Row> results) {
    }

    private ComparisonReport() {
    }

    static String json(RunInfo run, Map<String, Object> machine, Map<String, Object> config, List<Comparison.Row> rows) {
        return ReportMapper.write(new ReportFile(run.json(), machine, config, rows));
    }

    static void writeJson(Path file, RunInfo run, Map<String, Object> machine, Map<String, Object> config,
                          List<Comparison.Row> rows) throws IOException {
        JsonReport.writeFile(file, json(run, machine, config, rows));
    }
}

package dev.switchboard.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable report:
 * <pre>{@code
 * {"machine": {...}, "config": {...}, "results": [{"name": "PingPong", "params": {...}, "iterations": N,
 *   "switchboard_ms": {"median": x, "min": x, "max": x}, "pekko_ms": {"median": x, "min": x, "max": x},
 *   "ratio": x, "verified": true}]}
 * }</pre>
 * Each result also carries {@code "samples_ms"} per side and, for a failed benchmark, {@code "failure"}.
 */
public final class JsonReport {
    private JsonReport() {
    }

    static void write(Path file, Map<String, Object> machine, Map<String, Object> config, List<Result> results)
            throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(machine, config, results));
    }

    static String render(Map<String, Object> machine, Map<String, Object> config, List<Result> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", machine);
        root.put("config", config);
        List<Object> rs = new ArrayList<>();
        for (Result r : results) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("description", r.description());
            m.put("params", r.params());
            m.put("iterations", r.iterations());
            m.put("switchboard_ms", stats(r.switchboard()));
            m.put("pekko_ms", stats(r.pekko()));
            m.put("ratio", r.verified() ? r.ratio() : null);
            m.put("verified", r.verified());
            if (r.failure() != null) {
                m.put("failure", r.failure());
            }
            rs.add(m);
        }
        root.put("results", rs);
        return Json.write(root);
    }

    private static Map<String, Object> stats(Stats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", s.medianMs());
        m.put("min", s.minMs());
        m.put("max", s.maxMs());
        m.put("samples_ms", s.samplesMs());
        return m;
    }
}

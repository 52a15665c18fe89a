package dev.switchboard.bench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the benchmarks ran on. */
final class Machine {
    private Machine() {
    }

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpus", Runtime.getRuntime().availableProcessors());
        m.put("cpu_model", cpuModel());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("java_version", System.getProperty("java.version"));
        m.put("java_vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        m.put("java_vendor", System.getProperty("java.vendor"));
        m.put("max_heap_mb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        m.put("jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        m.put("collector", Collector.inUse());
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return "unknown";
    }
}

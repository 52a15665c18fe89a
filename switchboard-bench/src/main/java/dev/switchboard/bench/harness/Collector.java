package dev.switchboard.bench.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * Owns the garbage collector of a run: the choices of {@code --gc} and the collector this JVM actually runs, told
 * from the names of its {@link GarbageCollectorMXBean}s (never from the flags), for the table, the JSON and the
 * HTML page.
 */
final class Collector {
    private Collector() {
    }

    /** What {@code --gc} asks for; the launcher turns it into JVM flags. */
    enum Choice {
        /** The JVM's own choice: no flag. */
        DEFAULT(null),
        G1("G1"),
        PARALLEL("Parallel"),
        /** Generational ZGC. */
        ZGC("ZGC (generational)");

        private final String inUse;

        Choice(String inUse) {
            this.inUse = inUse;
        }

        static Choice parse(String v) {
            for (Choice c : values()) {
                if (c.name().equalsIgnoreCase(v)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("--gc takes default, g1, parallel or zgc, got '" + v + "'");
        }

        /**
         * Checks that the collector in use is the one asked for.
         *
         * @throws IllegalArgumentException if it is not: the JVM was started without the launcher's flag for it
         */
        void check(String collectorInUse) {
            if (inUse != null && !inUse.equals(collectorInUse)) {
                throw new IllegalArgumentException("--gc " + name().toLowerCase(Locale.ROOT) + " asks for "
                        + inUse + " but this JVM runs " + collectorInUse + " (start it through ./switchboard bench,"
                        + " or with the collector's flag)");
            }
        }
    }

    /** The collector this JVM runs: G1, Parallel, ZGC (generational), ZGC, Serial, Shenandoah, or the beans' names. */
    static String inUse() {
        return name(ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .toList());
    }

    /** The collector whose MX beans have these names. */
    static String name(List<String> beans) {
        if (beans.stream().anyMatch(n -> n.startsWith("G1 "))) {
            return "G1";
        }
        if (beans.stream().anyMatch(n -> n.startsWith("PS "))) {
            return "Parallel";
        }
        if (beans.stream().anyMatch(n -> n.startsWith("ZGC Minor") || n.startsWith("ZGC Major"))) {
            return "ZGC (generational)";
        }
        if (beans.stream().anyMatch(n -> n.startsWith("ZGC"))) {
            return "ZGC";
        }
        if (beans.stream().anyMatch(n -> n.startsWith("Shenandoah"))) {
            return "Shenandoah";
        }
        if (beans.contains("Copy") || beans.contains("MarkSweepCompact")) {
            return "Serial";
        }
        return beans.isEmpty() ? "none (Epsilon?)" : String.join(", ", beans);
    }
}

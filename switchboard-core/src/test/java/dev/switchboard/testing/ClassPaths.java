package dev.switchboard.testing;

import java.io.File;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Class paths for what a test starts besides itself (a child JVM, a compiler). The core's tests run on the module
 * path, patched into dev.switchboard.core: the core's classes are then on {@code jdk.module.path}, not on
 * {@code java.class.path}, so neither property alone reaches everything.
 */
public final class ClassPaths {
    private ClassPaths() {
    }

    /** Every entry of this JVM's class path and module path, as one class path. */
    public static String everything() {
        return Stream.of(System.getProperty("java.class.path"), System.getProperty("jdk.module.path"))
                .filter(p -> p != null && !p.isEmpty())
                .collect(Collectors.joining(File.pathSeparator));
    }
}

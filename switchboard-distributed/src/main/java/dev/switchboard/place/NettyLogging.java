package dev.switchboard.place;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.util.ServiceLoader;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * Where Netty's log goes when the application has no SLF4J provider. The SSH client (MINA SSHD) brings the SLF4J
 * API onto the class path; Netty, finding it, would ask it for a logger, and SLF4J without a provider prints a
 * three-line warning in every place's JVM and then discards the log. Netty's own choice in that case is the JDK's
 * logging (what it used before the API was there), so this makes that choice first, without asking SLF4J. With a
 * provider (Logback, slf4j-simple, ...), a Log4j 2, or an SLF4J 1.x API on the class path, Netty chooses as it
 * always does.
 */
final class NettyLogging {
    private static boolean configured;

    private NettyLogging() {
    }

    /** Before the first Netty class logs: the JDK's logging for Netty if SLF4J has no provider. */
    static synchronized void configure() {
        if (configured) {
            return;
        }
        configured = true;
        ClassLoader loader = NettyLogging.class.getClassLoader();
        if (!present("org.slf4j.spi.SLF4JServiceProvider", loader)) {
            return;                                   // an SLF4J 1.x API: Netty chooses as it always did
        }
        try {
            if (System.getProperty("slf4j.provider") == null && !provided(loader)
                    && !present("org.apache.logging.log4j.LogManager", loader)) {
                InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
            }
        } catch (LinkageError | java.util.ServiceConfigurationError e) {
            // a class path this does not understand: Netty chooses as it always does
        }
    }

    /** Whether an SLF4J 2 provider is on the class path (looked up as SLF4J does, without starting SLF4J). */
    private static boolean provided(ClassLoader loader) {
        return ServiceLoader.load(SLF4JServiceProvider.class, loader).stream().findFirst().isPresent();
    }

    private static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}

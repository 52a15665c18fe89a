package dev.switchboard.internal;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * The exception that refuses work given to a closed runtime, and that ends a finish that was waiting when its
 * runtime closed: made by a factory the task package installs ({@code RuntimeClosedException::new}, from
 * {@code TaskRuntime}'s static initializer), so that this package names no class of the packages above it. Owns
 * the factory. May touch nothing else.
 */
public final class ClosedRuntimes {
    /*
     * Installed as RuntimeAccess's bridge is: a scheduler made through a TaskRuntime always finds the factory in
     * place, since TaskRuntime's class is initialized before any of its instances exists. A scheduler made without
     * one (a test of this package) gets the default, a RejectedExecutionException, which is what the installed
     * exception extends.
     */
    private static volatile Function<String, ? extends RuntimeException> factory = RejectedExecutionException::new;
    /** The class of what the factory makes. */
    private static volatile Class<?> type = RejectedExecutionException.class;

    private ClosedRuntimes() {
    }

    /** Installs how to make the exception; called by {@code TaskRuntime}'s static initializer. */
    public static void install(Function<String, ? extends RuntimeException> factory) {
        ClosedRuntimes.factory = Objects.requireNonNull(factory, "factory");
        ClosedRuntimes.type = factory.apply("a probe of the class").getClass();
    }

    /** Whether {@code t} is the exception that tells that a runtime was closed. */
    static boolean isClosedException(Throwable t) {
        return type.isInstance(t);
    }

    /** The exception, with {@code message}, that tells that a runtime was closed. */
    static RuntimeException exception(String message) {
        return factory.apply(message);
    }
}

package dev.switchboard.internal;

import java.util.Objects;
import java.util.function.Function;

/**
 * The way from a {@code TaskRuntime} to its {@link Scheduler}, for the packages above {@code dev.switchboard.task}
 * (the actor package) that are handed a runtime: {@code TaskRuntime.scheduler()} is package-private, so that users
 * cannot reach the machinery.
 */
public final class RuntimeAccess {
    /*
     * As the JDK's SharedSecrets: TaskRuntime registers the bridge in its static initializer. Code that holds a
     * runtime has initialized that class, so it always finds the bridge in place; the null test below is for a
     * misuse of this package, not for a race.
     */
    private static volatile Function<Object, Scheduler> schedulers;

    private RuntimeAccess() {
    }

    /**
     * Registers how to get a runtime's scheduler; called once, by {@code TaskRuntime}'s static initializer.
     *
     * @throws IllegalStateException if a bridge is registered already
     */
    public static synchronized void register(Function<Object, Scheduler> bridge) {
        Objects.requireNonNull(bridge, "bridge");
        if (schedulers != null) {
            throw new IllegalStateException("RuntimeAccess is registered once, by TaskRuntime's initializer");
        }
        schedulers = bridge;
    }

    /** The scheduler of {@code runtime}, a {@code TaskRuntime}. */
    public static Scheduler scheduler(Object runtime) {
        Objects.requireNonNull(runtime, "runtime");
        Function<Object, Scheduler> bridge = schedulers;
        if (bridge == null) {
            throw new IllegalStateException("no runtime class has registered with RuntimeAccess; "
                    + runtime.getClass().getName() + " is not a runtime of this library");
        }
        return bridge.apply(runtime);
    }
}

package dev.switchboard.internal;

import java.util.Objects;
import java.util.function.Function;

/**
 * The way from a {@code TaskRuntime} to its {@link Scheduler}, for the packages above {@code dev.switchboard.task}
 * (the actor package) that are handed a runtime: {@code TaskRuntime.scheduler()} is package-private, so that users
 * cannot reach the machinery. Also the way to the builder's options that are not public API (a runtime's
 * {@link Clock} and {@link DeterministicScheduler}), for the test kit, the one module outside the core this package
 * is exported to.
 */
public final class RuntimeAccess {
    /*
     * As the JDK's SharedSecrets: TaskRuntime registers the bridge in its static initializer. Code that holds a
     * runtime has initialized that class, so it always finds the bridge in place; the null test below is for a
     * misuse of this package, not for a race.
     */
    private static volatile Function<Object, Scheduler> schedulers;
    private static volatile BuilderOptions builders;

    /** Sets a {@code TaskRuntime.Builder}'s options that are not public API. */
    public interface BuilderOptions {
        /** Has {@code builder} make a runtime that reads the time from {@code clock}. */
        void clock(Object builder, Clock clock);

        /** Has {@code builder} make a runtime whose ready nodes {@code deterministic} runs. */
        void deterministic(Object builder, DeterministicScheduler deterministic);
    }

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

    /**
     * Registers how to set a builder's options that are not public API; called once, by {@code TaskRuntime}'s
     * static initializer.
     */
    public static synchronized void registerBuilderOptions(BuilderOptions options) {
        Objects.requireNonNull(options, "options");
        if (builders != null) {
            throw new IllegalStateException("RuntimeAccess is registered once, by TaskRuntime's initializer");
        }
        builders = options;
    }

    /** How to set a {@code TaskRuntime.Builder}'s options that are not public API. */
    public static BuilderOptions builderOptions() {
        BuilderOptions b = builders;
        if (b == null) {
            throw new IllegalStateException("no runtime class has registered with RuntimeAccess");
        }
        return b;
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

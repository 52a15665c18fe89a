package dev.switchboard.internal;

/**
 * How the runtime treats failures it did not expect: errors thrown inside its own code, and errors that mean the
 * JVM itself is in trouble.
 */
public final class Failures {
    private Failures() {
    }

    /**
     * Whether {@code failure} means the JVM may not be able to complete the rest of the work: an
     * {@link OutOfMemoryError} or another {@link VirtualMachineError} ({@link InternalError}, {@link UnknownError}).
     * A {@link StackOverflowError} is not: it ends the code that overflowed, and the stack is whole again.
     * A finish that receives a fatal failure ends at once with it instead of waiting for the rest of its work.
     */
    public static boolean isFatal(Throwable failure) {
        return failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError);
    }

    /**
     * What to report when {@code failure} escaped the runtime's own handling of {@code node}: an {@link Error} as
     * itself (an OutOfMemoryError is not an internal defect), anything else wrapped as an internal error. Never
     * throws: without memory for the wrapper it returns the failure itself.
     */
    static Throwable internal(Throwable failure, Node node) {
        if (failure instanceof Error) {
            return failure;
        }
        try {
            return new IllegalStateException("internal error in Switchboard while running " + node, failure);
        } catch (Throwable t) {
            return failure;
        }
    }

    /** Reports {@code failure} to {@code scope} from a place that must not throw. */
    static void lastResort(Scope scope, Throwable failure) {
        try {
            scope.addFailure(failure);
        } catch (Throwable ignored) {
            // addFailure keeps a failure it cannot record without allocating; nothing more can be done here
        }
    }
}

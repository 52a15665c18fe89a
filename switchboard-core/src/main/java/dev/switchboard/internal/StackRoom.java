package dev.switchboard.internal;

/**
 * Room on the calling thread's stack for a finish's own bookkeeping, made sure of before a deeply nested finish
 * changes anything.
 *
 * <h2>Overview</h2>
 * A finish changes shared counts as it opens (its parent counts one child more) and as it ends (the parent one
 * fewer, the thread's context back to the parent). A {@code StackOverflowError} in the middle of either, in a
 * recursion of finishes that reaches the stack's edge, leaves a count that never comes back to zero: a finish
 * above waits for ever, with nothing running. A finish nested deeper than {@link #CHECKED_DEPTH} therefore first
 * descends {@link #FRAMES} frames and comes back ({@link #ensure}); without that much room the error is thrown there,
 * before anything has changed, and the finish's bookkeeping as it ends (in the same frame, with at least that much
 * room) cannot run out of stack. Shallower finishes, the common case, pay nothing.
 *
 * <h2>Implementation notes</h2>
 * A frame of {@link #descend} holds four longs and its count; the JIT inlines a recursive call one level deep at
 * most, so the descent takes at least half as many compiled frames, and more stack still while interpreted, when
 * the bookkeeping's frames are larger too. {@link #FRAMES} was chosen by running recursions of finishes into the
 * stack's edge, on the calling thread and on a worker (decision 046).
 */
public final class StackRoom {
    /** The depth of finish nesting from which a finish makes sure of its room first. */
    public static final int CHECKED_DEPTH = 32;
    /** The frames {@link #ensure} descends. */
    static final int FRAMES = 400;

    private StackRoom() {
    }

    /** Returns if there is room for {@link #FRAMES} frames here; otherwise throws the StackOverflowError. */
    public static void ensure() {
        if (descend(FRAMES, 1, 2, 3, 4) == 0) {
            throw new AssertionError("unreachable: the descent sums positive numbers");
        }
    }

    private static long descend(int n, long a, long b, long c, long d) {
        return n == 0 ? a + b + c + d : descend(n - 1, b, c, d, a) + 1;
    }
}

package dev.switchboard.task;

/**
 * The code of a {@code finish}, an {@code async} task or an {@code asyncAwait} task. It may throw any exception,
 * checked or not: the enclosing {@code finish} rethrows it as itself, exactly as it does an unchecked one (with
 * the other failures in a {@link MultiException}, if there were several).
 *
 * <pre>{@code
 * try {
 *     finish(() -> {
 *         async(() -> Files.writeString(log, "started"));   // its IOException reaches the finish
 *         work();
 *     });
 * } catch (Exception e) {                // javac does not know that finish rethrows an IOException
 *     if (!(e instanceof IOException io)) throw e;
 *     ...
 * }
 * }</pre>
 *
 * <p>A {@code finish} does not declare the checked exceptions of its tasks (the compiler cannot know them), so
 * {@code catch (IOException e)} around it does not compile: catch {@code Exception} and test, as above.
 */
@FunctionalInterface
public interface TaskBody {
    /** Runs the code; what it throws is the task's failure. */
    void run() throws Exception;
}

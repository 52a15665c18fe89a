package dev.switchboard.task;

/**
 * What a {@link TaskRuntime#future future}'s task computes. It may throw any exception, checked or not: the future
 * fails with it ({@link TaskFuture#get()} throws a {@link java.util.concurrent.CompletionException} whose cause is
 * the exception), and the enclosing {@code finish} rethrows it as itself, as it does any task's failure.
 *
 * <pre>{@code
 * TaskFuture<String> text = future(() -> Files.readString(path));   // may throw IOException
 * try {
 *     use(text.get());
 * } catch (CompletionException e) {
 *     if (e.getCause() instanceof IOException io) { ... }
 * }
 * }</pre>
 *
 * @param <T> the type of the value
 */
@FunctionalInterface
public interface Computation<T> {
    /** Computes the value; what it throws is the task's failure. */
    T compute() throws Exception;
}

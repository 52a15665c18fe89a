package dev.switchboard.task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * The read side of a value that a task produces later: the result of {@link TaskRuntime#future}, or a
 * {@link DataDrivenFuture} filled by {@code put}. Pass it to {@code asyncAwait} to run a task once it is
 * available, or call {@link #get()}.
 *
 * <pre>{@code
 * TaskFuture<Integer> left = future(() -> sum(a, 0, mid));
 * TaskFuture<Integer> right = future(() -> sum(a, mid, n));
 * asyncAwait(left, right, () -> total.put(left.get() + right.get()));
 * }</pre>
 *
 * @param <T> the type of the value
 */
public sealed interface TaskFuture<T> permits DataDrivenFuture {
    /**
     * The value. Returns at once if it is available; otherwise waits for it. Inside an {@code asyncAwait} body on
     * this future it never waits.
     *
     * <p>On a worker, waiting for a {@link TaskRuntime#future future}'s value helps first, as
     * {@code ForkJoinTask.join} does: if no thread has started the future's task, the caller runs it itself;
     * otherwise it runs the queued tasks that task spawned, from any worker. Only when there is nothing to help for
     * about a millisecond does it block, and then the runtime may add a thread so that waiting never deadlocks
     * the pool. A recursion on futures therefore runs on the runtime's workers, whatever its size
     * (docs/architecture.md, "Waiting on a worker", gives the bound).
     *
     * <p>The wait is not interruptible: an interrupt is kept for the caller. Within a runtime (in a task, in a
     * finish body) the runtime's {@code close} ends it; elsewhere a value that may never come is waited for with
     * {@link #get(java.time.Duration)}, or its task is run with {@code asyncAwait}.
     *
     * @throws java.util.concurrent.CompletionException if the producing task failed (the cause is its exception)
     * @throws java.util.concurrent.CancellationException if it was {@linkplain #cancel() cancelled}
     * @throws RuntimeClosedException if the runtime the caller works in was closed before the value came (the
     *         message names the runtime, the thread and this future)
     */
    T get();

    /**
     * The value, waiting at most {@code timeout} for it. Unlike {@link #get()} it does not help: on a worker it
     * blocks (and the runtime may add a thread meanwhile), so the wait ends close to the deadline whatever the
     * producing task does.
     *
     * <pre>{@code
     * Integer price = quote.get(Duration.ofMillis(200));   // TimeoutException if it takes longer
     * }</pre>
     *
     * @throws TimeoutException if the value is not there within {@code timeout}; the message names this future
     *         and where it was created
     * @throws java.util.concurrent.CompletionException if the producing task failed (the cause is its exception)
     * @throws RuntimeClosedException if the runtime the caller works in was closed before the value came
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    T get(Duration timeout) throws TimeoutException;

    /**
     * A {@link CompletableFuture} completed with this future's value or failure (a failure as the
     * {@code CompletableFuture}'s exception), for code written against {@code java.util.concurrent}: compose it,
     * join it, time it out. Completing or cancelling it does not change this future. Stages that are not
     * {@code ...Async} run on the thread that puts the value, which may be one of the runtime's workers: keep them
     * short, or use the {@code ...Async} variants. Each call returns a new {@code CompletableFuture}, which this
     * future keeps until its value comes (cancelling it does not let go of it): to poll a future that may never
     * come, call {@link #get(Duration)}, whose waiter a timeout removes, or keep one {@code CompletableFuture}.
     */
    CompletableFuture<T> toCompletableFuture();

    /** Whether the value (or a failure) is available. */
    boolean isDone();

    /**
     * Cancels this future unless it is done: {@link #get()} then throws a
     * {@link java.util.concurrent.CancellationException}, and a task computing its value that no thread has
     * started never runs (one that runs is not interrupted; its value is dropped). See
     * {@link DataDrivenFuture#cancel()}.
     *
     * @return whether this call cancelled it
     */
    boolean cancel();
}

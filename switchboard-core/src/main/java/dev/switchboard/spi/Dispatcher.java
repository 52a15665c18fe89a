package dev.switchboard.spi;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * What the dispatch core gives a bound {@link DispatchPolicy}: a way to start the messages it holds, to ask for a
 * turn, and the runtime's timer.
 */
public interface Dispatcher {
    /**
     * Starts processing {@code envelope} as a task of its own, in parallel with the policy and other started
     * messages; when it has been processed, {@link DispatchPolicy#finished} is called with {@code ticket}. Valid
     * only inside the policy's calls that hold the token ({@code arrived}, {@code finished}, {@code turn}).
     *
     * @throws IllegalStateException if called outside them
     */
    void start(Object envelope, Object ticket);

    /**
     * Whether the messages started now run inline (see {@link DispatchPolicy#mayRunInline()}): always false for a
     * policy that does not allow it. For diagnostics; the answer may change with the next message.
     */
    default boolean runsInline() {
        return false;
    }

    /**
     * Asks for a {@link DispatchPolicy#turn()} soon, even if no message arrives or finishes: for a policy whose
     * decision changed for reasons of its own (a period ended, a limit was raised). May be called from any thread,
     * any number of times; turns that are asked for while one is pending are merged.
     */
    void requestTurn();

    /**
     * Runs {@code action} once after {@code delay}, on the runtime's timer thread (it must not block). Valid once
     * the actor has started.
     *
     * @throws IllegalStateException if the actor has not started
     * @throws java.util.concurrent.RejectedExecutionException if its runtime was closed
     */
    ScheduledFuture<?> schedule(Duration delay, Runnable action);

    /**
     * Runs {@code action} every {@code period}, the first time after one period, on the runtime's timer thread,
     * until the returned future is cancelled or the runtime closes. A policy cancels it when its actor
     * terminates ({@link DispatchPolicy#terminated}).
     *
     * @throws IllegalStateException if the actor has not started
     * @throws java.util.concurrent.RejectedExecutionException if its runtime was closed
     */
    ScheduledFuture<?> scheduleAtFixedRate(Duration period, Runnable action);
}

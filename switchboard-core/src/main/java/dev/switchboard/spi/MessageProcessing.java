package dev.switchboard.spi;

/** One started message, as {@link DispatchPolicy#process} sees it. */
public interface MessageProcessing {
    /** The message, as the actor's {@code process} sees it. */
    Object message();

    /**
     * The ticket it was started with ({@link Dispatcher#start}); null for a message the runtime processes without
     * the policy's turns, while the policy is idle ({@link DispatchPolicy#startsEachArrivalWhenIdle()}).
     */
    Object ticket();

    /**
     * Runs the actor's {@code process} (or its current behavior) on the message, in the actor's context, on this
     * thread. Exceptions escape to the caller.
     */
    void process();
}

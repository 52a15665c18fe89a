package dev.switchboard.actor;

import java.util.function.Consumer;

/**
 * The plug-in point for a thread-less scheduler that decides which of an actor's messages run, possibly several
 * in parallel: the seam behind {@code dev.switchboard.monitor.Monitor} (paper 001). Bound to one actor with
 * {@link ActorCore#bindScheduler} before it starts; from then on the actor's dispatch core hands every message to
 * it instead of processing it.
 *
 * <p>Every method is called by the dispatch core while it holds the actor's SCHEDULED token, so calls are
 * mutually exclusive with each other, on whatever worker is already there: the sending actor or task whose
 * message made the actor runnable (a sender outside the runtime schedules the turn on a worker), or the task of
 * a message that just finished. None may block.
 */
public interface MessageScheduler {
    /** Called once, when bound: {@code starter} starts a held message as a task of its own. */
    void bound(ActorRef<?> actor, MessageStarter starter);

    /**
     * A message arrived (oldest first): {@code message} as the actor's {@code process} will see it, in an
     * {@code envelope} that is opaque (it may carry a request's reply): give the envelope back to the starter to
     * start it.
     */
    void arrived(Object envelope, Object message);

    /** A message started with {@code ticket} has been processed (its task may still be finishing). */
    void finished(Object ticket);

    /** After a batch of arrivals and finishes: decide what to start now. */
    void turn();

    /** The actor terminated: pass every message still held to {@code deadLetters}. */
    void terminated(Consumer<Object> deadLetters);

    /** Messages held, for diagnostics. */
    int held();

    /** Starts held messages; valid only inside the calls above. */
    interface MessageStarter {
        /**
         * Starts processing {@code envelope} as a task of its own, in parallel with the scheduler and other
         * started messages; when it has been processed, {@link MessageScheduler#finished} is called with
         * {@code ticket}.
         */
        void start(Object envelope, Object ticket);
    }
}

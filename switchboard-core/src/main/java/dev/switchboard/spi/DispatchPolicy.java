package dev.switchboard.spi;

import dev.switchboard.actor.ActorRef;
import java.util.function.Consumer;

/**
 * Decides which of one actor's messages run, and when, possibly several at once: the seam that actor kinds
 * outside the core plug into (the parallel actor monitors of {@code dev.switchboard.monitor}, transactional
 * actors). Bound to an actor with {@link Seam#bind} before the actor starts; from then on the actor's dispatch
 * core hands every message to the policy instead of processing it, and the policy starts the ones it chooses
 * through its {@link Dispatcher}.
 *
 * <p>{@code arrived}, {@code finished}, {@code turn} and {@code terminated} are called by the dispatch core while
 * it holds the actor's token, so they are mutually exclusive, each sees what the previous one did, and none may
 * block. They run on whatever thread is already there: a worker whose send made the actor runnable (a sender
 * outside the runtime has the turn run on a worker), the task of a message that just finished, or, for
 * {@code terminated}, whichever thread ends the actor (the thread closing its runtime, say). {@code bound} is
 * called once, by {@link Seam#bind}, on the binding thread, before the actor starts. {@link #process} runs in the
 * task of each started message, concurrently with the other started messages and with the policy's turns.
 * {@code terminated} is called once; messages that were still running then are reported to {@code finished}
 * after it.
 *
 * <pre>{@code
 * final class OneAtATime implements DispatchPolicy {
 *     private final ArrayDeque<Object> waiting = new ArrayDeque<>();
 *     private Dispatcher dispatcher;
 *     private boolean running;
 *     public void bound(ActorRef<?> actor, Dispatcher d) { dispatcher = d; }
 *     public void arrived(Object envelope, Object message, int mailbox) { waiting.add(envelope); }
 *     public void finished(Object ticket, Object result, Throwable failure) { running = false; }
 *     public void turn() {
 *         if (!running && !waiting.isEmpty()) { running = true; dispatcher.start(waiting.poll(), "ticket"); }
 *     }
 *     public void terminated(Consumer<Object> deadLetters) { waiting.forEach(deadLetters); waiting.clear(); }
 *     public int held() { return waiting.size(); }
 * }
 * }</pre>
 */
public interface DispatchPolicy {
    /** Called once, by {@link Seam#bind}: {@code dispatcher} starts messages and gives the runtime's timers. */
    void bound(ActorRef<?> actor, Dispatcher dispatcher);

    /**
     * A message arrived (oldest first): {@code message} as the actor's {@code process} will see it, in an
     * {@code envelope} that is opaque (it may carry a request's reply): give the envelope back to
     * {@link Dispatcher#start} to start it. {@code mailbox} is the mailbox it arrived in (0 for an actor).
     */
    void arrived(Object envelope, Object message, int mailbox);

    /**
     * Runs one started message, in its own task: calls {@link MessageProcessing#process()} (the actor's
     * {@code process}) any number of times, at least once unless it decides the message must not run, and returns
     * what {@link #finished} will receive as {@code result}. An exception escaping it terminates the actor, as one
     * escaping {@code process} does, and reaches {@link #finished} as {@code failure}. By default it processes the
     * message once and returns null.
     */
    default Object process(MessageProcessing processing) throws Exception {
        processing.process();
        return null;
    }

    /**
     * A message started with {@code ticket} has been processed: {@code result} is what {@link #process} returned,
     * {@code failure} what escaped it (null if nothing did). Its task may still be finishing.
     */
    void finished(Object ticket, Object result, Throwable failure);

    /** After a batch of arrivals and finishes, or after {@link Dispatcher#requestTurn()}: start what to start now. */
    void turn();

    /** The actor terminated: pass every message still held to {@code deadLetters}. */
    void terminated(Consumer<Object> deadLetters);

    /** Messages held, for diagnostics. */
    int held();

    /**
     * Messages started and not yet reported that the policy may hold again once they finish (a policy that starts
     * a message a second time); a {@code stop()} waits for them as it waits for the held ones. None by default.
     */
    default int returning() {
        return 0;
    }

    /**
     * Whether the messages this policy starts may run inline: one after another, on the thread of the turn that
     * started them (the actor's activation, as a plain actor's messages run), instead of as tasks that run in
     * parallel. The runtime then measures what a message costs and what handing it to another worker costs, and
     * runs the messages inline while parallel would not pay, as tasks again once it would; on a runtime of one
     * worker they always run inline. A message started inline runs as soon as the turn that started it returns,
     * before the next turn; it is reported to {@link #finished} as any other.
     *
     * <p>Return true only if no message this policy starts waits for another to run (a latch that a later message
     * opens, say): run one after another, such messages would wait forever. Called once, when the policy is bound.
     * The default is false: every message is a task of its own.
     */
    default boolean mayRunInline() {
        return false;
    }

    /**
     * Whether this policy, whenever it holds no message and none of its actor's messages is running, starts a
     * message as soon as it arrives (a readers-writer policy does; one that holds messages back until a condition
     * holds does not). If so, while its messages run inline ({@link #mayRunInline()}) and it is idle, the runtime
     * may process them one at a time in arrival order without calling the policy for them ({@code arrived},
     * {@code turn} and {@code finished} are not called; {@link #process} still is, with a null
     * {@linkplain MessageProcessing#ticket() ticket}): that is the schedule the policy itself produces when each
     * message arrives after the one before has finished. Called once, when the policy is bound, and only if
     * {@code mayRunInline()} is true. The default is false.
     */
    default boolean startsEachArrivalWhenIdle() {
        return false;
    }
}

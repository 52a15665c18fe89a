package dev.switchboard.actor;

/**
 * A way of processing messages that an actor can {@linkplain ActorCore#become become} ([Unified] §6.3.2).
 *
 * @param <M> the actor's message type
 */
@FunctionalInterface
public interface Behavior<M> {
    void process(M message);
}

package dev.switchboard.place;

import dev.switchboard.actor.Actor;

/**
 * How to make an actor at a place: a record of the constructor's arguments whose {@link #create} calls the
 * constructor. It travels to the place in a message, so it must be registered like every message class
 * ({@link Places.Builder#messages}); it is never a class name looked up by reflection. A lambda is not a recipe:
 * its class cannot be registered.
 *
 * <pre>{@code
 * record NewCounter(int start) implements ActorRecipe<CounterMsg> {
 *     public Actor<CounterMsg> create() { return new Counter(start); }
 * }
 *
 * ActorRef<CounterMsg> counter = places.start(2, new NewCounter(10));   // a Counter on place 2
 * }</pre>
 *
 * @param <M> the messages the actor takes
 */
public interface ActorRecipe<M> {
    /** A new, unstarted actor; called once, on the place the actor lives on. */
    Actor<M> create();
}

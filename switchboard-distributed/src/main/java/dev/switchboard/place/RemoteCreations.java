package dev.switchboard.place;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.spi.Seam;
import java.util.Objects;

/**
 * Creation across places ({@code Places.start(place, recipe)}), both sides: the creating place allocates the id
 * (itself as the place of creation, the target as the place of residence), sends a {@link Frames.Create} and returns
 * the reference at once, as a local {@code start()} does; the target makes the actor from the recipe, gives it that
 * id, exports it ({@link ExportedActors}) and starts it in its runtime's global scope.
 */
final class RemoteCreations {
    private final PlaceRuntime place;
    private final GlobalId.Allocator ids;

    RemoteCreations(PlaceRuntime place) {
        this.place = place;
        this.ids = new GlobalId.Allocator(place.here);
    }

    /** Starts the actor {@code recipe} makes at {@code at}: here directly, elsewhere by a creation frame. */
    @SuppressWarnings("unchecked")
    <M> ActorRef<M> start(int at, String name, Object recipe, int mailboxes) {
        Objects.requireNonNull(recipe, "recipe");
        if (at < 0 || at >= place.count()) {
            throw new IllegalArgumentException("no place " + at + " to start a " + name + " at: the places are 0"
                    + " to " + (place.count() - 1));
        }
        if (!place.codec.isRegistered(recipe.getClass())) {
            throw new IllegalArgumentException("cannot start a " + recipe.getClass().getName() + " at place "
                    + place.names.get(at) + ": the recipe's class is not registered; " + place.codec.origin()
                    + " (every place registers the same classes, in that order)");
        }
        String shown = name != null ? name : recipeName(recipe);
        if (at == place.here) {
            if (place.runtime.isClosed()) {               // else it would start on whatever runtime the caller is in
                throw new IllegalStateException("cannot start a " + shown + " at place " + place.names.get(at)
                        + ": the program has ended (its runtime '" + place.runtime.name() + "' is closed)");
            }
            ActorCore<M> actor = create(recipe);
            checkMailboxes(actor, mailboxes, recipe);
            return actor.start(shown);
        }
        long id = ids.next(at).bits();
        ActorRef<M> ref = (ActorRef<M>) Seam.remoteRef(id, shown, mailboxes, place);
        place.sendProgramFrame(at, new Frames.Create(id, shown, recipe, mailboxes));
        return ref;
    }

    @SuppressWarnings("unchecked")
    private static <M> ActorCore<M> create(Object recipe) {
        ActorCore<?> actor = switch (recipe) {
            case ActorRecipe<?> r -> r.create();
            case SelectorRecipe<?, ?> r -> r.create();
            default -> throw new IllegalArgumentException("not a recipe: " + recipe);
        };
        return (ActorCore<M>) Objects.requireNonNull(actor, () -> recipe + ".create() returned null");
    }

    /** Checks that a selector has as many mailboxes as its recipe said (its remote references allow that many). */
    private static void checkMailboxes(ActorCore<?> actor, int mailboxes, Object recipe) {
        if (mailboxes >= 0 && actor instanceof Selector<?, ?> s && s.mailboxCount() != mailboxes) {
            throw new IllegalArgumentException(recipe + " made a selector of " + s.mailboxCount()
                    + " mailboxes, but says " + mailboxes + " (SelectorRecipe.mailboxCount())");
        }
    }

    /**
     * The name of an actor made by {@code recipe} and started without one, the same on every place (the creating
     * place cannot see the actor's class, which only the place that runs the recipe makes): the recipe's class's
     * simple name without a leading {@code New} or a trailing {@code Recipe} ({@code NewServer} and
     * {@code ServerRecipe} make a {@code Server}).
     */
    static String recipeName(Object recipe) {
        String s = recipe.getClass().getSimpleName();
        if (s.length() > 3 && s.startsWith("New") && Character.isUpperCase(s.charAt(3))) {
            s = s.substring(3);
        }
        if (s.length() > 6 && s.endsWith("Recipe")) {
            s = s.substring(0, s.length() - 6);
        }
        return s.isEmpty() ? "Actor" : s;
    }

    /**
     * A creation from place {@code from} (the I/O thread). The actor is made and given its id; then the messages
     * that waited for it go into its mailbox and it is exported ({@link ExportedActors#created}), so that a sender
     * that finds it exported sends after them; then it starts (messages sent before a start wait for it). An actor
     * that hands out its reference in {@code onStart} is exported by then.
     */
    void creationRequested(int from, Frames.Create c) {
        Seam.runUnscoped(place.runtime, () -> {
            ActorCore<?> actor;
            try {
                actor = create(c.recipe());
                checkMailboxes(actor, c.mailboxes(), c.recipe());
                Seam.presetId(actor, c.id());
            } catch (RuntimeException | Error e) {
                String why = "its creation from place " + place.names.get(from) + " failed: " + e;
                place.watches.creationFailed(c.id(), why);
                place.exports.creationFailed(c.id(), why);
                throw new IllegalStateException("place " + place.names.get(place.here) + " could not create "
                        + c.name() + "@" + c.id() + " for place " + place.names.get(from) + ": " + e, e);
            }
            ActorRef<?> ref = Seam.referenceOf(actor);
            place.exports.created(c.id(), ref, from);
            place.watches.created(c.id(), ref);
            actor.start(c.name());
            place.exports.sweepIfLarge();
        });
    }
}

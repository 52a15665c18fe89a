package dev.switchboard.place;

import dev.switchboard.actor.Selector;

/**
 * How to make a selector at a place: as {@link ActorRecipe}, for a {@link Selector}. The reference
 * {@link Places#start(int, SelectorRecipe)} returns names the selector's mailboxes by number and by the enum's
 * constants, which must be the selector's own ({@link #mailboxes}); a selector with numbered mailboxes gives their
 * count ({@link #mailboxCount}).
 *
 * <pre>{@code
 * record NewBuffer(int capacity) implements SelectorRecipe<BufferMsg, Box> {
 *     public Selector<BufferMsg, Box> create() { return new BoundedBuffer(capacity); }
 *     public Class<Box> mailboxes() { return Box.class; }
 * }
 * }</pre>
 *
 * @param <M> the messages the selector takes
 * @param <B> the enum naming its mailboxes
 */
public interface SelectorRecipe<M, B extends Enum<B>> {
    /** A new, unstarted selector; called once, on the place the selector lives on. */
    Selector<M, B> create();

    /** The enum of the selector's mailboxes ({@code Selector.Numbered} if they have numbers only). */
    Class<B> mailboxes();

    /**
     * How many mailboxes the selector has: by default the number of {@link #mailboxes()}'s constants. A selector
     * whose mailboxes have numbers only ({@code Selector.Numbered}) must say it here; the place that creates the
     * selector checks that it has that many.
     */
    default int mailboxCount() {
        return mailboxes().getEnumConstants().length;
    }
}

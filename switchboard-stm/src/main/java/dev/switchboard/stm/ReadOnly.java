package dev.switchboard.stm;

/**
 * Marks a message type as read-only for a {@link TransactionalActor}: its messages wait in their own queue and run
 * outside transactions, reading with {@link TRef#directGet()} (or {@link TRef#relaxedGet()} inside a transaction of
 * their own). A read-only message that writes a {@code TRef} fails.
 *
 * <pre>{@code
 * sealed interface ListMsg {}
 * record Insert(int value) implements ListMsg {}
 * record Sum(ReplyTo<Long> replyTo) implements ListMsg, ReadOnly {}
 * }</pre>
 */
public interface ReadOnly {
}

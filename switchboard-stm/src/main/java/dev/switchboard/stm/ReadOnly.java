package dev.switchboard.stm;

/**
 * Marks a message type as read-only for a {@link TransactionalActor}: its messages wait in their own queue and run
 * outside the actor's transactions. One that reads several references as one snapshot opens a read-only transaction
 * of its own ({@code Stm.atomic} around {@code get()}s); {@link TRef#directGet()} reads one value alone (see
 * {@link TRef} for what two direct reads may see). A read-only message that writes a {@code TRef} fails.
 *
 * <pre>{@code
 * sealed interface ListMsg {}
 * record Insert(int value) implements ListMsg {}
 * record Sum(ReplyTo<Long> replyTo) implements ListMsg, ReadOnly {}
 * }</pre>
 */
public interface ReadOnly {
}

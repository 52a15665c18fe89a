package dev.switchboard.stm;

import dev.switchboard.spi.MessageProcessing;
import dev.switchboard.spi.Seam;
import java.util.function.Supplier;

/**
 * The attempts of one transactional message, as the body of its transaction: each runs the message's processing
 * with a fresh {@link HeldEffects} installed, and the count and the last holder tell the actor, once the transaction
 * has ended, how many attempts rolled back and which effects to replay. An attempt that holds an exit commits only
 * if its message was started alone ({@link ExitOrder}).
 */
final class MessageAttempts implements Supplier<Object> {
    private final TransactionalActor<?> owner;
    private final MessageProcessing processing;
    /** The message's ticket, if a turn started it (null: it runs alone, without the policy). */
    private final ExitOrder.Started started;
    /** Attempts made so far. */
    int count;
    /** The holder of the last attempt (the committed one, once the transaction has committed). */
    HeldEffects last;

    MessageAttempts(TransactionalActor<?> owner, MessageProcessing processing, ExitOrder.Started started) {
        this.owner = owner;
        this.processing = processing;
        this.started = started;
    }

    /** The last attempt rolled back (or the transaction failed): its effects are dropped. */
    void dropLast() {
        if (last != null) {
            last.drop();
        }
    }

    @Override
    public Object get() {
        count++;
        dropLast();                                     // the attempt before, if any, rolled back
        HeldEffects holder = new HeldEffects(owner);    // a fresh one per attempt: a rollback drops its effects
        last = holder;
        Transaction transaction = Transaction.current();
        HeldEffects outer = transaction.held;
        transaction.held = holder;                      // a failed nested transaction drops what it added
        try (Seam.Interception held = Seam.interceptSends(holder)) {
            processing.process();
        } finally {
            transaction.held = outer;
        }
        if (holder.exits() && started != null && !ExitOrder.exitMayCommit(started)) {
            throw ExitOrder.WAIT;                       // rolled back: it runs again once the others have finished
        }
        return null;
    }
}

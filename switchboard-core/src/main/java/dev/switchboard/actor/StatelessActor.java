package dev.switchboard.actor;

/**
 * An actor without mutable state, which therefore processes its messages in parallel ([Unified] §5.3): each
 * message runs as a task of its own, as soon as it is taken from the mailbox, concurrently with the others.
 *
 * <pre>{@code
 * final class Lookup extends StatelessActor<Query> {
 *     protected void process(Query q) {          // may run on several workers at once
 *         q.replyTo().send(new Answer(table.get(q.key())));
 *     }
 * }
 * }</pre>
 *
 * <p>Everything else is as for {@link Actor}: the actor joins the finish it was started in; {@code exit()}
 * stops the dispatch of further messages (those already started run to completion, the queued ones become
 * dead letters); an exception escaping {@code process} terminates the actor and reaches its finish;
 * {@code pause()} stops the dispatch until {@code resume()}; a request's {@link ReplyTo} is answered by the task
 * that processes it.
 *
 * <p>Implementation: the activation loop, status word and mailbox are an actor's; only the dispatch differs
 * ({@code Dispatch.PARALLEL}): it starts a {@link MessageTask} per message and returns.
 *
 * @param <M> the type of message this actor accepts
 */
public abstract class StatelessActor<M> extends Actor<M> {
    protected StatelessActor() {
        super(Dispatch.PARALLEL, null);
    }

    /** A stateless actor whose mailbox holds at most {@code bound.capacity()} messages; see {@link BoundedMailbox}. */
    protected StatelessActor(BoundedMailbox bound) {
        super(Dispatch.PARALLEL, java.util.Objects.requireNonNull(bound, "bound"));
    }
}

package dev.switchboard.actor;


/**
 * An actor of the unified model ([Unified]): it processes the messages sent to it one at a time, can use
 * {@code async}/{@code finish} inside its processing, and joins the finish it is started in, so that finish
 * ends only after the actor has {@linkplain #exit() exited}.
 *
 * <pre>{@code
 * sealed interface PrintMsg permits Text, Stop {}
 * record Text(String text) implements PrintMsg {}
 * record Stop() implements PrintMsg {}
 *
 * final class PrintActor extends Actor<PrintMsg> {
 *     protected void process(PrintMsg msg) {
 *         switch (msg) {
 *             case Text t -> System.out.println(t.text());
 *             case Stop s -> exit();
 *         }
 *     }
 * }
 *
 * finish(() -> {
 *     ActorRef<PrintMsg> printer = new PrintActor().start("printer");
 *     printer.send(new Text("Hello"));
 *     printer.send(new Text("World"));
 *     printer.send(new Stop());
 * });                                    // returns once the actor has exited
 * }</pre>
 *
 * <p>What an actor can do while it processes a message is documented on {@link ActorCore}: {@code exit},
 * {@code pause}/{@code resume}, {@code become}/{@code unbecome}, {@code awaitReply} (a request answered
 * through its {@link ReplyTo}), and any task-parallel construct.
 *
 * <p>An actor is a {@link Selector} with one always-enabled mailbox: both are the same dispatch core
 * ({@link ActorCore}) and, for one mailbox, the same mailbox class ({@link SingleMailbox}); an actor pays one
 * read of a flag that never changes for that, and nothing for a ready bitmap.
 *
 * @param <M> the type of message this actor accepts
 */
public abstract non-sealed class Actor<M> extends ActorCore<M> {
    /** An actor with an unbounded mailbox (allocation-free: a message costs no more than its own object). */
    protected Actor() {
        super(new SingleMailbox(), Dispatch.SERIAL, null);
    }

    /** An actor whose mailbox holds at most {@code bound.capacity()} messages; see {@link BoundedMailbox}. */
    protected Actor(BoundedMailbox bound) {
        super(new SingleMailbox(), Dispatch.SERIAL, java.util.Objects.requireNonNull(bound, "bound"));
    }

    Actor(Dispatch dispatch, BoundedMailbox bound) {
        super(new SingleMailbox(), dispatch, bound);
    }

    @Override
    public final ActorRef<M> start() {
        return super.start();
    }

    @Override
    public final ActorRef<M> start(String name) {
        return super.start(name);
    }

    @Override
    protected final ActorRef<M> self() {
        return self;
    }

    @Override
    public final ActorRef<M> ref() {
        return self;
    }
}

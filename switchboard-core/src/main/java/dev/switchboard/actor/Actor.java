package dev.switchboard.actor;

import org.jctools.queues.atomic.MpscGrowableAtomicArrayQueue;

/**
 * An actor of the unified model (paper 002): it processes the messages sent to it one at a time, can use
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
 *     ActorRef<PrintMsg> printer = new PrintActor().start();
 *     printer.send(new Text("Hello"));
 *     printer.send(new Text("World"));
 *     printer.send(new Stop());
 * });                                    // returns once the actor has exited
 * }</pre>
 *
 * <p>What an actor can do while it processes a message is documented on {@link ActorCore}: {@code exit},
 * {@code pause}/{@code resume}, {@code become}/{@code unbecome}, {@code awaitReply}/{@code reply}, and any
 * task-parallel construct.
 *
 * <h2>Implementation notes</h2>
 * The mailbox is a JCTools multi-producer single-consumer array queue (the variant built on atomic field
 * updaters, so no {@code sun.misc.Unsafe}). It starts with room for {@value #INITIAL_CAPACITY} messages and
 * doubles when full; it never shrinks, so a steady state allocates nothing per message. The single consumer is
 * whichever thread holds the actor's SCHEDULED token.
 *
 * @param <M> the type of message this actor accepts
 */
public abstract class Actor<M> extends ActorCore<M> {
    static final int INITIAL_CAPACITY = 16;
    static final int MAX_CAPACITY = 1 << 30;

    private final MpscGrowableAtomicArrayQueue<Object> mailbox =
            new MpscGrowableAtomicArrayQueue<>(INITIAL_CAPACITY, MAX_CAPACITY);

    protected Actor() {
    }

    @Override
    final boolean offer(Object envelope) {
        return mailbox.offer(envelope);
    }

    @Override
    final Object poll() {
        return mailbox.poll();
    }

    @Override
    final boolean hasReady() {
        return !mailbox.isEmpty();
    }

    @Override
    final Object pollAny() {
        return mailbox.poll();
    }

    @Override
    final boolean hasAny() {
        return !mailbox.isEmpty();
    }

    @Override
    final int queued() {
        return mailbox.size();
    }
}

package dev.switchboard.actor;

/**
 * How an actor starts the messages its activation takes: the strategy chosen when the actor is constructed
 * ({@link #SERIAL} for an {@link Actor} or {@link Selector}, {@link #PARALLEL} for a {@link StatelessActor}), or
 * replaced before start by a bound {@link dev.switchboard.spi.DispatchPolicy} ({@link PolicyDispatch}), whose
 * turns take the place of the activation loop. The loop calls {@link #dispatch} once per message; for plain
 * actors that call site sees one or two classes.
 */
abstract sealed class Dispatch permits Dispatch.Serial, Dispatch.Parallel, PolicyDispatch {
    static final Dispatch SERIAL = new Serial();
    static final Dispatch PARALLEL = new Parallel();

    /** Starts one envelope just taken from the mailbox, on the thread that holds the actor's token. */
    abstract void dispatch(ActorCore<?> actor, Object envelope);

    /**
     * Whether the place of a message in a bounded mailbox is given back when the message is taken (serial
     * processing) rather than when its processing ends (processing in tasks of their own, which would otherwise
     * only move the backlog from the mailbox to the tasks).
     */
    abstract boolean releasesOnTake();

    /** Processes the message inline, one at a time: the activation holding the token is the processing. */
    static final class Serial extends Dispatch {
        @Override
        void dispatch(ActorCore<?> actor, Object envelope) {
            actor.processEnvelope(envelope, true);
        }

        @Override
        boolean releasesOnTake() {
            return true;
        }
    }

    /** Starts each message as a task of its own and returns: messages run in parallel. */
    static final class Parallel extends Dispatch {
        @Override
        void dispatch(ActorCore<?> actor, Object envelope) {
            MessageTask task = new MessageTask(actor.activation(), envelope, null, null);
            task.scheduler().submit(task);
        }

        @Override
        boolean releasesOnTake() {
            return false;
        }
    }
}

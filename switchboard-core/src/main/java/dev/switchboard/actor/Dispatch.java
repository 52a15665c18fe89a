package dev.switchboard.actor;

import dev.switchboard.internal.MessageSampling;
import dev.switchboard.internal.SafeText;

/**
 * How an actor starts the messages its activation takes: the strategy chosen when the actor is constructed
 * ({@link #SERIAL} for an {@link Actor} or {@link Selector}, {@link #PARALLEL} for a {@link StatelessActor}), or
 * replaced before start by a bound {@link dev.switchboard.spi.DispatchPolicy} ({@link PolicyDispatch}), whose
 * turns take the place of the activation loop. The loop calls {@link #dispatch} once per message; for plain
 * actors that call site sees one or two classes. Whatever the strategy, a message is processed by
 * {@link #process}: the current behavior (or {@code process}) runs on it, and what escapes fails the actor (and a
 * request's requester, {@link #requestFailed}). Owns no state; also the end of a message processed as a task of its
 * own, and a message such a task could not start ({@link #refused}), each giving back its place in a bounded
 * mailbox.
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
            if (envelope instanceof ActorStop.Signal s) {
                ActorStop.taken(actor, s, actor.mailbox.lastServed());
                return;
            }
            int every = MessageSampling.every();       // 0 unless a JFR recording samples messages
            if (every != 0 && MessageSampling.due(every)) {
                processSampled(actor, envelope, true);
                return;
            }
            process(actor, envelope, true);
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
            if (envelope instanceof ActorStop.Signal s) {     // every earlier message has been started
                MailboxAdmission.releasedLater(actor);
                ActorStop.taken(actor, s, 0);
                return;
            }
            MessageTask task = new MessageTask(actor.activation(), envelope, null, null);
            task.scheduler().submit(task);
        }

        @Override
        boolean releasesOnTake() {
            return false;
        }
    }

    /**
     * The message an envelope carries, as the actor's {@code process} will see it (a request, and a timer's or a
     * watch's message, are wrapped).
     */
    static Object messageOf(Object envelope) {
        return envelope instanceof Request r ? r.message()
                : envelope instanceof RevocableMessage t ? t.message() : envelope;
    }

    /**
     * {@link #process}, or, if this message is the one in {@link MessageSampling#every()} this thread samples
     * while a JFR recording enables the event {@code MessageProcessed}, {@link #processSampled}. The message
     * paths (the serial dispatch, a {@link MessageTask}) make this check themselves, so that it adds no call
     * level there: the read of {@code every} is all the event costs while it is off.
     */
    static void processOrSample(ActorCore<?> actor, Object envelope, boolean serial) {
        int every = MessageSampling.every();
        if (every != 0 && MessageSampling.due(every)) {
            processSampled(actor, envelope, serial);
        } else {
            process(actor, envelope, serial);
        }
    }

    /** {@link #process}, timed and recorded as a {@code MessageProcessed} JFR event. */
    static void processSampled(ActorCore<?> actor, Object envelope, boolean serial) {
        Object event = MessageSampling.begin();
        process(actor, envelope, serial);          // catches what escapes
        MessageSampling.end(event, actor.scheduler(), actor.self, messageOf(envelope));
    }

    /**
     * Processes one envelope on the current thread, catching what escapes: the serial dispatch (on the
     * activation holding the token, {@code serial}), the messages a policy left out runs in the activation
     * ({@code serial} too: {@link PolicyDispatch}), and the parallel one (a {@link MessageTask}). Only the serial
     * dispatch's supervisor may retry the failed message: it is the one that takes a retried message again.
     */
    static void process(ActorCore<?> actor, Object envelope, boolean serial) {
        Object message = envelope;
        boolean processed = true;
        try {
            if (envelope instanceof Request r) {
                message = r.message();
                if (actor instanceof Router<?> router) {
                    router.routing = r;                   // a router passes the request on as a request
                }
            } else if (envelope instanceof RevocableMessage t) {
                if (!t.deliver()) {
                    processed = false;            // taken back since it was sent: a timer cancelled, an unwatch
                    return;
                }
                message = t.message();
            }
            invoke(actor, message);
        } catch (Throwable t) {
            String from = serial ? actor.servedFrom() : "";
            boolean retried = ActorFailures.failProcessing(actor, t, message, from,
                    serial && actor.dispatch instanceof Serial ? envelope : null);
            if (!retried && envelope instanceof Request r) {
                requestFailed(actor, r, t);
            }
        } finally {
            if (serial) {
                if (processed) {
                    actor.activation().countProcessed(true);
                }
                Thread.interrupted();  // an interrupt set while processing this message is not seen by the next
            } else if (processed) {
                processedInTask(actor);
            } else {
                MailboxAdmission.releasedLater(actor);
            }
        }
    }

    /** Runs the actor's current behavior, or its {@code process}, on {@code message}; exceptions escape. */
    @SuppressWarnings("unchecked")
    static <M> void invoke(ActorCore<M> actor, Object message) {
        Behavior<M> b = actor.behavior;
        if (b == null) {
            actor.process((M) message);
        } else {
            b.process((M) message);
        }
    }

    /**
     * The processing of a request failed: unless it answered, or handed the request on ({@code ReplyTo.forward}),
     * before it failed, no answer can be relied on, and the requester hears so now (a {@code ReplyTo} handed on
     * otherwise before the failure is then answered too late, a dead letter). A request whose processing ends
     * normally without an answer stays open: its {@code ReplyTo} may have been handed on.
     */
    static void requestFailed(ActorCore<?> actor, Request request, Throwable failure) {
        if (!request.replyTo().isAnswered() && request.replyTo().isHeldBy(actor)) {
            NoReplyException e = new NoReplyException(actor + " failed while processing the request "
                    + ActorDiagnostics.brief(request.message()) + " without answering it: " + SafeText.of(failure));
            e.initCause(failure);
            request.replyTo().failUnanswered(e);
        }
    }

    /** The end of a message processed in a task of its own: counted, its place in a bounded mailbox given back. */
    static void processedInTask(ActorCore<?> actor) {
        actor.activation().countProcessed(false);
        MailboxAdmission.releasedLater(actor);
        Thread.interrupted();
    }

    /**
     * A message started as a task of its own could not be queued: it is a dead letter, and unless the runtime was
     * closed (which terminates the actor anyway) the actor fails with the cause, since a policy bound to it would
     * otherwise wait for that message forever.
     */
    static void refused(ActorCore<?> actor, Object envelope, Throwable cause) {
        MailboxAdmission.releasedLater(actor);
        if (!actor.scheduler().isClosed()) {
            ActorFailures.fail(actor, cause, "the runtime could not start one of its messages");
        }
        actor.deadLetter(envelope, actor.scheduler().isClosed() ? DeadLetter.Reason.RUNTIME_CLOSED
                : DeadLetter.Reason.UNPROCESSED_AT_EXIT);
    }
}

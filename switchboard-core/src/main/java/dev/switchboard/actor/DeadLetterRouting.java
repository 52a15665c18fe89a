package dev.switchboard.actor;

import dev.switchboard.internal.RuntimeEvents;
import dev.switchboard.internal.Scheduler;
import java.util.function.Consumer;

/**
 * Where an actor's dead letters go: the reason they carry, the requester a dead request fails, the counts (the
 * actor's, and its runtime's), the runtime's listener ({@code DeadLetter.subscribe}) and its event hook.
 *
 * <p>Owns the extras' dead-letter counts, and the draining of what a terminated actor still holds. May touch the
 * actor's status word (read only: whether the close ended it), its mailbox and awaited replies (as the holder of
 * the terminated actor's token), its runtime's dead-letter accounting, and a dead request's {@link ReplyTo}. A dead
 * letter of an actor not started yet is counted by the actor and added to its runtime's count by
 * {@code start()}.
 */
final class DeadLetterRouting {
    private DeadLetterRouting() {
    }

    /**
     * With the token of the terminated {@code actor} held: turns what is queued into dead letters (its mailbox's
     * messages, and the replies that came after its exit, whose handlers do not run) and wakes the senders waiting
     * on a full bounded mailbox, who then see the exit and dead-letter their own messages.
     */
    static void drainQueued(ActorCore<?> actor) {
        Object envelope;
        while ((envelope = actor.mailbox.pollAny()) != null) {
            MailboxAdmission.released(actor);
            if (!(envelope instanceof RevocableMessage r && r.droppedAtEnd())) {   // a timer's: cancelled by the end
                route(actor, envelope, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
            }
        }
        if (actor.limit != null) {
            actor.limit.wakeAll();
        }
        AwaitedReplies replies = AwaitedReplies.of(actor);
        if (replies != null) {
            Runnable r;
            while ((r = replies.pollReady()) != null) {
                if (r instanceof PendingReply<?> p) {
                    replies.handled(p);
                    route(actor, p.arrived(), DeadLetter.Reason.REPLY_AFTER_EXIT);
                } else {
                    ((ControlAction) r).dropped();
                }
            }
        }
    }

    /**
     * Counts a message no one will process and tells the runtime's listener. A request among them fails its
     * requester at once with a {@link NoReplyException}.
     */
    static void route(ActorCore<?> actor, Object envelope, DeadLetter.Reason reason) {
        if (envelope instanceof ActorStop.Signal) {
            return;                                       // a stop that came too late: nothing was sent to count
        }
        if (envelope instanceof RevocableMessage r) {
            r.undelivered();
            if (r.takenBack()) {
                return;                                   // neither processed nor a dead letter: never sent, as it were
            }
        }
        boolean byClose = (actor.status() & ActorCore.BY_CLOSE) != 0;
        if (byClose && (reason == DeadLetter.Reason.RECIPIENT_TERMINATED
                || reason == DeadLetter.Reason.UNPROCESSED_AT_EXIT)) {
            reason = DeadLetter.Reason.RUNTIME_CLOSED;    // a message the close kept from it; replies keep theirs
        }
        Object message = Dispatch.messageOf(envelope);
        if (envelope instanceof Request r) {
            r.replyTo().failUnanswered(new NoReplyException(actor + (byClose
                    ? " was terminated by the close of its runtime " + runtimeName(actor) + " before processing the request "
                    : reason == DeadLetter.Reason.MAILBOX_FULL ? "'s mailbox was full: it dropped the request "
                    : reason == DeadLetter.Reason.FAILED_PROCESSING ? " failed processing, and its supervisor dropped,"
                            + " the request "
                    : " terminated before processing the request ") + ActorDiagnostics.brief(message))
                    .causedByClose(byClose));
        }
        ActorExtras x = actor.extras();
        ActorExtras.DEAD_LETTERS.getAndAdd(x, 1L);
        Scheduler s = actor.scheduler();
        if (s == null) {
            // Not started yet (a bounded mailbox dropped it): it has no runtime to tell. The actor counts it, and
            // its runtime adds it to its own count at start(); the listener does not hear of it.
            ActorExtras.EARLY_DEAD_LETTERS.getAndAdd(x, 1L);
            return;
        }
        s.deadLetters().countOne(reason.ordinal());
        RuntimeEvents events = s.events();
        Consumer<Object> listener = s.deadLetters().listener();
        if (listener == null && !events.heard()) {
            return;
        }
        DeadLetter letter = new DeadLetter(message, actor.self, reason);
        events.publish(RuntimeEvents.Kind.DEAD_LETTER, actor.self, letter, null, reason.name());
        if (listener != null) {
            // Outside the actor's context: work the listener starts must not attach to a finished actor.
            s.runInGlobalScope(() -> listener.accept(letter));
        }
    }

    /**
     * Counts, in runtime {@code s}, a message to an actor of another place that no one will process here (a reply
     * that came after its requester stopped waiting), and tells the runtime's listener.
     */
    static void routeRemote(Scheduler s, ActorRef<?> recipient, Object message, DeadLetter.Reason reason) {
        s.deadLetters().countOne(reason.ordinal());
        RuntimeEvents events = s.events();
        Consumer<Object> listener = s.deadLetters().listener();
        if (listener == null && !events.heard()) {
            return;
        }
        DeadLetter letter = new DeadLetter(message, recipient, reason);
        events.publish(RuntimeEvents.Kind.DEAD_LETTER, recipient, letter, null, reason.name());
        if (listener != null) {
            s.runInGlobalScope(() -> listener.accept(letter));
        }
    }

    /**
     * A runtime takes over the dead letters counted before the actor's start: all {@code MAILBOX_FULL}, the one
     * reason an actor without a runtime can have (a terminated actor was started, or refused a start, which sets
     * its runtime before it counts; a reply comes to an actor that processed a request).
     */
    static void countEarly(ActorCore<?> actor, Scheduler s) {
        ActorExtras x = actor.extrasOrNull();
        if (x != null && x.earlyDeadLetters != 0) {
            s.deadLetters().count(DeadLetter.Reason.MAILBOX_FULL.ordinal(),
                    (long) ActorExtras.EARLY_DEAD_LETTERS.getAndSet(x, 0L));
        }
    }

    /** The name of the runtime the actor ran on, for a message; "" if it never started. */
    private static String runtimeName(ActorCore<?> actor) {
        var s = actor.scheduler();
        return s == null ? "" : s.name();
    }
}

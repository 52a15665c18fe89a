package dev.switchboard.actor;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.RuntimeEvents;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.Worker;
import java.util.Objects;

/**
 * How a message gets into an actor's mailbox: the sends of a reference, of a request and of a timer, the places of
 * a {@link BoundedMailbox} (taken by a send, given back when the message is taken or processed), and what happens
 * to a message sent into a full one ({@link BoundedMailbox.Overflow}): dropped as a dead letter, refused with a
 * {@link MailboxFullException}, or, for a sender outside the runtime, a wait for room.
 *
 * <p>Owns no state: it uses the actor's mailbox, its {@link MailboxLimit} and, once a message is in, the token
 * protocol's {@link ActorCore#signal()}. Enqueue, then check: the message is in the mailbox before the sender
 * reads the status word in {@code signal()}, which is what keeps a wake-up from being lost (see ActorCell). A
 * sender on a worker never waits for room: the worker may be the one the actor needs to run.
 */
final class MailboxAdmission {
    private MailboxAdmission() {
    }

    /** {@link ActorRef#send} to an actor, whose one mailbox is 0. */
    static <M> void tell(ActorCore<M> actor, Mailbox box, M message) {
        Objects.requireNonNull(message, () -> "null message sent to " + actor);
        enqueue(actor, box, message, 0, false);
    }

    /** Sends a request envelope into mailbox {@code index}, or where the message routes if -1. */
    static <M> void request(ActorCore<M> actor, Request request, M message, int index) {
        enqueue(actor, actor.mailbox, request, index < 0 ? actor.routeOf(message) : index, false);
    }

    /**
     * A timer's send into mailbox {@code index}: as a send, except that a full bounded mailbox makes the message a
     * {@code MAILBOX_FULL} dead letter instead of waiting or throwing, whatever the mailbox's overflow: the timer
     * thread serves every timer and reply timeout of the runtime, and must never wait for one actor.
     */
    static void timerSend(ActorCore<?> actor, RevocableMessage message, int index) {
        enqueue(actor, actor.mailbox, message, index, true);
    }

    /**
     * Queues a copy of a graceful stop into mailbox {@code index}: behind what is there, with a place in a bounded
     * mailbox even if it is full; dropped if the actor has ended (nothing to stop).
     */
    static void stopSend(ActorCore<?> actor, ActorStop.Signal stop, int index) {
        if (actor.isTerminated()) {
            return;
        }
        MailboxLimit l = actor.limit;
        if (l != null) {
            l.forceReserve(index);
        }
        if (!actor.mailbox.offer(stop, index)) {            // 2^30 messages queued: the actor cannot be stopped so
            if (l != null) {
                l.release(index);
            }
            throw new IllegalStateException(actor.mailboxName(index) + " is full (" + ActorCore.MAX_QUEUED
                    + " messages): the stop cannot be queued; stopNow() ends the actor without queueing");
        }
        actor.signal();
    }

    /**
     * Enqueues an envelope into mailbox {@code index} (already checked) and schedules the actor if needed. A
     * reference keeps the actor's mailbox beside the actor, so a sender reads both from the reference at once
     * instead of the mailbox after the actor: {@code box} is that mailbox. A full bounded mailbox drops the
     * envelope as a dead letter if {@code dropWhenFull}.
     */
    static void enqueue(ActorCore<?> actor, Mailbox box, Object envelope, int index, boolean dropWhenFull) {
        MailboxLimit l = actor.limit;
        if (actor.isTerminated()) {
            if (!(envelope instanceof RevocableMessage r && r.droppedAtEnd())) {   // a timer's: cancelled by the end
                actor.deadLetter(envelope, DeadLetter.Reason.RECIPIENT_TERMINATED);
            }
        } else if (l != null && !l.tryReserve(index) && !overflow(actor, envelope, index, l, dropWhenFull)) {
            return;                                       // dropped, or the sender gets an exception
        } else if (!box.offer(envelope, index)) {
            if (l != null) {
                l.release(index);
            }
            actor.deadLetter(envelope, DeadLetter.Reason.MAILBOX_FULL);
        } else {
            actor.signal();
        }
    }

    /** Gives back the place of the envelope just taken from the mailbox, if bounded and processed inline. */
    static void released(ActorCore<?> actor) {
        MailboxLimit l = actor.limit;
        if (l != null && actor.dispatch.releasesOnTake()) {
            l.release(actor.mailbox.lastServed());
        }
    }

    /**
     * Gives back the place of a message taken from a bounded mailbox by a dispatch that processes it later, as a
     * task of its own (a stateless actor, a policy): when its processing ends, or it becomes a dead letter
     * unprocessed. Otherwise the backlog would only move from the mailbox to the tasks or the policy.
     */
    static void releasedLater(ActorCore<?> actor) {
        MailboxLimit l = actor.limit;
        if (l != null && !actor.dispatch.releasesOnTake()) {
            l.release(0);                        // one mailbox: a policy on a bounded selector needs one (bind)
        }
    }

    /**
     * Mailbox {@code index} is full. Returns true once a place has been reserved after all (a sender outside the
     * runtime waited for it); otherwise the message was dropped as a dead letter, or this throws.
     */
    private static boolean overflow(ActorCore<?> actor, Object envelope, int index, MailboxLimit l, boolean drop) {
        BoundedMailbox b = l.bound;
        BoundedMailbox.Overflow what = drop ? BoundedMailbox.Overflow.DROP : b.whenFull();
        Scheduler s = actor.scheduler();
        if (s != null && s.events().heard()) {
            s.events().publish(RuntimeEvents.Kind.OVERFLOW, actor.self, Dispatch.messageOf(envelope), null,
                    actor.mailboxName(index) + " is full (capacity " + b.capacity() + "): " + what);
        }
        switch (what) {
            case DROP -> {
                actor.deadLetter(envelope, DeadLetter.Reason.MAILBOX_FULL);
                return false;
            }
            case FAIL -> throw mailboxFull(actor, envelope, index, b, "");
            default -> {
                if (Thread.currentThread() instanceof Worker) {
                    throw mailboxFull(actor, envelope, index, b, " (a sender on a worker never waits for room)");
                }
                Clock clock = ActorTimers.clock(actor);
                long start = clock.nanoTime();
                switch (l.awaitPlace(index, MailboxLimit.deadlineAfter(b.maxWait(), clock), clock,
                        actor::isTerminated)) {
                    case RESERVED -> {
                        return true;
                    }
                    case GONE -> {
                        actor.deadLetter(envelope, DeadLetter.Reason.RECIPIENT_TERMINATED);
                        return false;
                    }
                    case INTERRUPTED -> throw mailboxFull(actor, envelope, index, b, " (the sender was interrupted"
                            + " after " + ActorDiagnostics.duration(clock.nanoTime() - start) + " of waiting for"
                            + " room)");
                    default -> throw mailboxFull(actor, envelope, index, b, " (no room within "
                            + ActorDiagnostics.duration(b.maxWait().toNanos()) + ")");
                }
            }
        }
    }

    private static MailboxFullException mailboxFull(ActorCore<?> actor, Object envelope, int index,
            BoundedMailbox b, String why) {
        return new MailboxFullException(actor.mailboxName(index) + " is full (capacity " + b.capacity() + ", "
                + b.whenFull() + "): " + ActorDiagnostics.brief(Dispatch.messageOf(envelope)) + " was not sent"
                + why, actor.self, b.capacity());
    }
}

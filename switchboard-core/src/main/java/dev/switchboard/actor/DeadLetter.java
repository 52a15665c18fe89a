package dev.switchboard.actor;

import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.task.TaskRuntime;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A message that no actor will process. Dead letters are counted per actor ({@link ActorCore#deadLetterCount()})
 * and per runtime ({@link TaskRuntime#deadLetterCount()}), and passed to the listeners {@linkplain #subscribe
 * subscribed} to the runtime; while none is, the runtime logs them.
 *
 * @param message   the message as sent
 * @param recipient the actor it was sent to
 * @param reason    why it was not processed
 */
public record DeadLetter(Object message, ActorRef<?> recipient, Reason reason) {
    /** Why a message became a dead letter. */
    public enum Reason {
        /** Sent after the recipient had exited. */
        RECIPIENT_TERMINATED,
        /** Still in the recipient's mailbox when it exited. */
        UNPROCESSED_AT_EXIT,
        /**
         * A reply the recipient awaited with {@code awaitReply} arrived after it had exited, so its handler did not
         * run (the message is the reply, or the {@link NoReplyException} if the request failed).
         */
        REPLY_AFTER_EXIT,
        /**
         * A reply sent after the {@code awaitReply} that asked for it had timed out (the recipient is the actor
         * that waited; its handler ran with a {@link ReplyTimeoutException}), or after a restart of the actor
         * abandoned that {@code awaitReply} (its handler does not run); or a reply to an {@code ask} after its
         * future timed out or was cancelled: no actor waited for it, and the recipient is the actor asked, the one
         * that answered late.
         */
        REPLY_TOO_LATE,
        /** The recipient's mailbox was full: a bounded mailbox that drops, or the 2^30 limit of any mailbox. */
        MAILBOX_FULL,
        /**
         * The recipient's runtime was closed: the message was still in its mailbox, or was sent afterwards, or the
         * actor was started after the close.
         */
        RUNTIME_CLOSED,
        /**
         * The recipient failed processing it, and its supervisor restarted or resumed it without this message
         * (see {@code SupervisorStrategy}): the message that caused the failure, dropped.
         */
        FAILED_PROCESSING
    }

    /**
     * Calls {@code listener} with every dead letter of {@code runtime} from now on, until the returned subscription
     * is closed. What a listener can rely on:
     * <ul>
     *   <li>Several listeners may be subscribed, to one runtime or to several; each hears every dead letter of its
     *       runtime, in the order they subscribed. Subscribing the same listener twice makes two
     *       subscriptions.</li>
     *   <li>It is called on the thread that produced the dead letter (the sender's, or a worker), outside every
     *       finish: keep it short. Work it starts belongs to the runtime's global scope.</li>
     *   <li>A listener that throws does not stop the others: its exception goes to the runtime's handler of
     *       failures outside every finish ({@link TaskRuntime.Builder#onUnscopedFailure}).</li>
     *   <li>While no listener is subscribed, the runtime logs dead letters ({@code System.Logger}
     *       "dev.switchboard", level INFO: the first 10, then a count at every power of ten); while one is, it
     *       does not. {@link TaskRuntime#deadLetterCount()} counts them all either way.</li>
     *   <li>Messages dropped by a bounded mailbox before its actor started are counted, but no listener hears of
     *       them: the actor had no runtime yet.</li>
     * </ul>
     *
     * <pre>{@code
     * try (DeadLetter.Subscription s = DeadLetter.subscribe(runtime, d -> log.warn("dead letter {}", d))) {
     *     runtime.finish(() -> ...);
     * }
     * }</pre>
     *
     * @return the subscription; closing it unsubscribes {@code listener} (a letter being delivered at that moment
     *         may still reach it, none produced after {@code close} returns does)
     */
    public static Subscription subscribe(TaskRuntime runtime, Consumer<? super DeadLetter> listener) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(listener, "listener");
        Scheduler scheduler = RuntimeAccess.scheduler(runtime);
        Consumer<Object> each = letter -> listener.accept((DeadLetter) letter);   // one object per subscription
        scheduler.deadLetters().subscribe(each);
        return () -> scheduler.deadLetters().unsubscribe(each);
    }

    /**
     * A listener's subscription to a runtime's dead letters ({@link DeadLetter#subscribe}). Closing it
     * unsubscribes the listener; closing it again does nothing.
     */
    public interface Subscription extends AutoCloseable {
        /** Unsubscribes the listener. */
        @Override
        void close();
    }

    /**
     * {@code RECIPIENT_TERMINATED: too late to pong@3}: the reason, the message (shortened) and the recipient; for a
     * late reply, whose recipient is the actor that awaited it or, for an {@code ask}, the one asked,
     * {@code REPLY_TOO_LATE: 42, a reply bank@4 sent or awaited}.
     */
    @Override
    public String toString() {
        return describe(ActorDiagnostics.brief(message));
    }

    /** {@link #toString()} with the message shown as {@code shown} (its type only, in a log line). */
    String describe(String shown) {
        return reason == Reason.REPLY_TOO_LATE ? reason + ": " + shown + ", a reply " + recipient + " sent or awaited"
                : reason + ": " + shown + " to " + recipient;
    }
}

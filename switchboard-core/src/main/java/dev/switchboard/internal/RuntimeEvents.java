package dev.switchboard.internal;

import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One hook for what happens to a runtime's actors that a program may want to see as it happens: an actor's
 * failure, a cell hosting a fresh instance of its actor (a restart), a dead letter, a message meeting a full
 * bounded mailbox, and a failure outside every finish. Logging, JFR events, metrics and a test kit subscribe here
 * ({@link Scheduler#events()}); the public ways to watch ({@code DeadLetter.subscribe}, the builder's
 * {@code onUnscopedFailure}) keep working beside it.
 *
 * <p>A subscriber hears every event of its runtime, in the order its thread produced them, on the thread that
 * produced them (a worker, a sender, the timer thread): it must be quick and must not block or wait for the
 * runtime. An exception escaping it is logged, and the other subscribers still hear the event.
 *
 * <p>Owns the subscribers. Costs nothing on any path while nobody subscribes but one volatile read where an event
 * would be made, and every such place is off the path of a message that is accepted and processed (a failure, a
 * dead letter, a send into a full mailbox, a restart). Events name actors by their reference, typed {@code Object} here: this package is the ground floor and
 * names no actor type.
 */
public final class RuntimeEvents {
    /** What happened. */
    public enum Kind {
        /**
         * An exception escaped an actor: what ended it, or one that escaped its {@code onExit()} or its dispatch
         * policy after it ended; {@code detail} says where.
         */
        FAILURE,
        /** A cell hosts a fresh instance of its actor, behind the same reference ({@code detail}: why). */
        RESTART,
        /** A message no one will process: {@code subject} is the {@code DeadLetter}, {@code detail} its reason. */
        DEAD_LETTER,
        /**
         * A message met a full bounded mailbox: {@code subject} is the message, {@code detail} the mailbox and
         * what its overflow does (DROP, FAIL, WAIT).
         */
        OVERFLOW,
        /** A failure outside every finish ({@code source} is null): no finish can rethrow it. */
        UNSCOPED_FAILURE,
        /**
         * An actor was stopped: by {@code stop()} or {@code stopNow()}, or by its supervisor ({@code detail}: how;
         * {@code failure}: the failure its supervisor stopped it for, or null).
         */
        STOPPED,
        /** A finish's hang report was made ({@code detail}: the report). */
        HANG_REPORT
    }

    /**
     * One event.
     *
     * @param kind    what happened
     * @param source  the actor's reference ({@code ActorRef}), or null when no actor is concerned
     * @param subject the message or letter concerned, or null
     * @param failure the failure, or null
     * @param detail  a short text, never null
     */
    public record Event(Kind kind, Object source, Object subject, Throwable failure, String detail) {
        public Event {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** The subscribers, oldest first (a copy-on-write list: publishing reads one volatile array). */
    private final CopyOnWriteArrayList<Consumer<Event>> subscribers = new CopyOnWriteArrayList<>();

    RuntimeEvents() {
    }

    /** Whether anybody hears events: a place that would make one makes none while this is false. */
    public boolean heard() {
        return !subscribers.isEmpty();
    }

    /** Gives {@code event} to every subscriber, oldest first; one that throws is logged. */
    public void publish(Event event) {
        for (Consumer<Event> s : subscribers) {
            try {
                s.accept(event);
            } catch (Throwable t) {
                try {
                    Scheduler.LOG.log(System.Logger.Level.ERROR, "Switchboard: a runtime event subscriber threw on "
                            + event.kind(), t);
                } catch (Throwable ignored) {
                    // no memory even to log: the event was still given to the other subscribers
                }
            }
        }
    }

    /** Makes and publishes an event, if anybody hears. */
    public void publish(Kind kind, Object source, Object subject, Throwable failure, String detail) {
        if (heard()) {
            publish(new Event(kind, source, subject, failure, detail));
        }
    }

    /**
     * Subscribes {@code subscriber} to every later event of this runtime; closing the returned handle ends the
     * subscription (an event being delivered at that moment may still reach it).
     */
    public AutoCloseable subscribe(Consumer<? super Event> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        Consumer<Event> s = subscriber::accept;            // one object per subscription, removed by identity
        subscribers.add(s);
        return () -> subscribers.remove(s);
    }
}

package dev.switchboard.soak;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What a soak round (or the whole soak) did, counted exactly. */
final class Counters {
    final LongAdder actors = new LongAdder();
    /** Messages whose {@code send} returned. */
    final LongAdder sent = new LongAdder();
    /** Sends a full failing (or waiting) mailbox refused with an exception: never enqueued. */
    final LongAdder refused = new LongAdder();
    /** Messages whose processing started. */
    final AtomicLong processed = new AtomicLong();
    final LongAdder deadLetters = new LongAdder();
    final LongAdder tasks = new LongAdder();
    /** Failures the round threw on purpose, and failures its finishes reported. */
    final LongAdder thrown = new LongAdder();
    final LongAdder reported = new LongAdder();
    final LongAdder closedRounds = new LongAdder();
    /** Asks sent, and how they ended; replies that came after their ask timed out. */
    final LongAdder asks = new LongAdder();
    final LongAdder asksAnswered = new LongAdder();
    final LongAdder asksTimedOut = new LongAdder();
    final LongAdder asksUnanswered = new LongAdder();
    final LongAdder lateReplies = new LongAdder();
    /** Failures a supervisor handled (restart, resume): each one's message is a FAILED_PROCESSING dead letter. */
    final LongAdder handled = new LongAdder();
    /** Dead letters of messages the round did not send: a supervisor's watch message that came as it ended. */
    final LongAdder unsent = new LongAdder();
    /** Restarts of supervised actors. */
    final LongAdder restarts = new LongAdder();
    /** Actors stopped from outside (stop()) at the end of a round instead of sent a Stop. */
    final LongAdder stops = new LongAdder();

    void addTo(Counters total) {
        total.actors.add(actors.sum());
        total.sent.add(sent.sum());
        total.refused.add(refused.sum());
        total.processed.addAndGet(processed.get());
        total.deadLetters.add(deadLetters.sum());
        total.tasks.add(tasks.sum());
        total.thrown.add(thrown.sum());
        total.reported.add(reported.sum());
        total.closedRounds.add(closedRounds.sum());
        total.asks.add(asks.sum());
        total.asksAnswered.add(asksAnswered.sum());
        total.asksTimedOut.add(asksTimedOut.sum());
        total.asksUnanswered.add(asksUnanswered.sum());
        total.lateReplies.add(lateReplies.sum());
        total.handled.add(handled.sum());
        total.restarts.add(restarts.sum());
        total.unsent.add(unsent.sum());
        total.stops.add(stops.sum());
    }

    /** Operations: actors started, messages sent or refused, tasks run. */
    long operations() {
        return actors.sum() + sent.sum() + refused.sum() + tasks.sum();
    }

    @Override
    public String toString() {
        return String.format("%,d actors, %,d messages sent (%,d processed, %,d dead letters), %,d sends refused,"
                        + " %,d tasks, %,d failures thrown / %,d reported, %,d rounds closed mid-run, %,d asks (%,d"
                        + " answered, %,d timed out, %,d unanswered; %,d late replies), %,d failures handled by"
                        + " supervisors (%,d restarts), %,d actors stopped from outside",
                actors.sum(), sent.sum(), processed.get(), deadLetters.sum(), refused.sum(), tasks.sum(),
                thrown.sum(), reported.sum(), closedRounds.sum(), asks.sum(), asksAnswered.sum(),
                asksTimedOut.sum(), asksUnanswered.sum(), lateReplies.sum(), handled.sum(), restarts.sum(),
                stops.sum());
    }
}

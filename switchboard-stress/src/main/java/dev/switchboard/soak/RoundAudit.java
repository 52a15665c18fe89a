package dev.switchboard.soak;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ProcessingFailure;
import dev.switchboard.soak.Round.LoopCheck;
import dev.switchboard.soak.Round.Msg;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.MultiException;
import dev.switchboard.task.RuntimeClosedException;
import dev.switchboard.task.TaskRuntime;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The books of one soak {@link Round} and the exact checks it ends with: while the round runs, what was sent to
 * each actor, how many asks ended and which failures reached no finish; once its finish has ended and its runtime
 * has closed, {@link #check} holds them and the round's {@link Counters} to the accounting that {@link Round}'s
 * class comment lists (messages, asks, failures, the {@code forall}) and adds each disagreement, in words, to the
 * round's discrepancies. The round owns one: its actors, tasks and listeners record into it from any thread, and
 * its {@code run} calls {@link #check} once, at the end.
 */
final class RoundAudit {
    private final Counters counters;
    private final Queue<String> discrepancies;
    /** Messages sent to each actor, to name the actor when the totals disagree. */
    private final Map<ActorRef<Msg>, LongAdder> sentTo = new ConcurrentHashMap<>();
    /** Failures that reached no finish (a task of a finish that the close had already ended). */
    private final LongAdder unscoped = new LongAdder();
    private final Queue<Throwable> unscopedFailures = new ConcurrentLinkedQueue<>();
    /** Asks whose future has completed. */
    private final LongAdder asksEnded = new LongAdder();

    RoundAudit(Counters counters, Queue<String> discrepancies) {
        this.counters = counters;
        this.discrepancies = discrepancies;
    }

    /** A message to {@code to} counts as sent: its {@code send} (or {@code ask}) returned. */
    void sent(ActorRef<Msg> to) {
        counters.sent.increment();
        sentTo.computeIfAbsent(to, k -> new LongAdder()).increment();
    }

    /** An ask's future has completed. */
    void askEnded() {
        asksEnded.increment();
    }

    /** The runtime's unscoped-failure handler: {@code failure} reached no finish. */
    void reachedNoFinish(Throwable failure) {
        if (!(unwrap(failure) instanceof RuntimeClosedException)) {
            unscoped.increment();                    // refusals after the close are not failures thrown
            unscopedFailures.add(failure);
        }
    }

    /**
     * A finish the close stopped throws the close's exception with the other failures suppressed in it (when it
     * kept them all): each is a failure reported.
     */
    private static List<Throwable> withSuppressed(RuntimeClosedException closed) {
        List<Throwable> all = new java.util.ArrayList<>(List.of(closed));
        all.addAll(List.of(closed.getSuppressed()));
        return all;
    }

    private void discrepancy(String what) {
        discrepancies.add(what);
    }

    /**
     * Checks the round, and adds the failures the {@code forall} threw, the failures reported and whether the close
     * cut it short to its counters: {@code outcome} is what its finish threw (null if nothing), {@code cutShort}
     * whether the close may have cut its work short, {@code loops} the {@code forall} of its body, and
     * {@code targets} and {@code actors} its actors, index for index.
     */
    void check(TaskRuntime rt, Throwable outcome, boolean cutShort, LoopCheck loops, List<ActorRef<Msg>> targets,
               List<ActorCore<Msg>> actors) {
        Counters c = counters;
        if (outcome instanceof FinishTimeoutException hang) {
            discrepancy("the finish hung: " + hang.getMessage() + " " + rt.diagnose());
            return;
        }
        List<Throwable> reported = outcome == null ? List.of()
                : outcome instanceof MultiException m ? m.failures()
                : outcome instanceof RuntimeClosedException closed ? withSuppressed(closed) : List.of(outcome);
        long reportedCount = outcome instanceof MultiException m ? m.failureCount() : reported.size();
        long closedReports = reported.stream().filter(f -> unwrap(f) instanceof RuntimeClosedException).count();
        for (Throwable f : reported) {
            Throwable cause = unwrap(f);
            if (!(cause instanceof Round.InjectedFailure || cause instanceof Round.InjectedError
                    || cause instanceof RuntimeClosedException)) {
                discrepancy("a failure the round did not throw: " + describe(f));
            }
        }
        // Every failure thrown is reported exactly once: by the round's finish, by the forall, or (a task of a
        // finish the close had already ended) to the runtime's unscoped-failure handler
        // (or handled by a supervisor: the token that threw is a FAILED_PROCESSING dead letter)
        long thrown = c.thrown.sum() + loops.thrown.get();
        long reportedTotal = reportedCount - closedReports + loops.reported + unscoped.sum() + c.handled.sum();
        boolean loopCut = loops.unexpected instanceof RuntimeClosedException;
        boolean cut = closedReports > 0 || loopCut;
        if (cut) {
            c.closedRounds.increment();
            if (!cutShort) {
                discrepancy("the runtime was reported closed, but nothing closed it during the finish");
            }
        } else if (unscoped.sum() != 0) {
            discrepancy(unscoped.sum() + " failures reached no finish, though nothing closed the runtime");
        }
        long hidden = (outcome instanceof MultiException m ? m.failureCount() - m.failures().size() : 0)
                + loops.hidden;
        if (reportedTotal < thrown || reportedTotal > thrown + (cut ? hidden : 0)) {
            discrepancy("thrown " + thrown + " failures, reported " + reportedTotal + " (" + hidden
                    + " not kept; finish " + reportedCount
                    + " with " + closedReports + " closes, forall " + loops.reported + ", outside every finish "
                    + unscoped.sum() + ")" + repeated(reported)
                    + both(reported, loops.failures, List.copyOf(unscopedFailures)));
        }
        if (!loopCut) {
            if (loops.unexpected != null) {
                discrepancy("forall threw a failure it did not throw: " + describe(loops.unexpected));
            }
            if (loops.iterations.get() != loops.size) {
                discrepancy("forall ran " + loops.iterations.get() + " of " + loops.size + " iterations");
            }
            if (loops.reported != loops.thrown.get()) {
                discrepancy("forall threw " + loops.thrown.get() + " failures and reported " + loops.reported);
            }
        }
        c.thrown.add(loops.thrown.get());
        c.reported.add(reportedTotal);
        long askDeadline = System.nanoTime() + Round.HANG.toNanos();   // every ask has a timeout of at most 40 ms
        while (asksEnded.sum() < c.asks.sum() && System.nanoTime() < askDeadline) {
            LockSupport.parkNanos(1_000_000);
        }
        long asks = c.asks.sum();
        long ended = c.asksAnswered.sum() + c.asksTimedOut.sum() + c.asksUnanswered.sum();
        if (asksEnded.sum() != asks || ended != asks) {
            discrepancy(asks + " asks, " + asksEnded.sum() + " ended (" + c.asksAnswered.sum() + " answered, "
                    + c.asksTimedOut.sum() + " timed out, " + c.asksUnanswered.sum() + " unanswered)");
        }
        // a reply comes late only after its ask ended without it: timed out, or failed by the close meanwhile
        if (c.lateReplies.sum() > c.asksTimedOut.sum() + c.asksUnanswered.sum()) {
            discrepancy(c.lateReplies.sum() + " late replies to " + c.asksTimedOut.sum() + " asks that timed out and "
                    + c.asksUnanswered.sum() + " that were not answered");
        }
        long sent = c.sent.sum();
        long processed = c.processed.get();
        long dead = c.deadLetters.sum() - c.lateReplies.sum() - c.handled.sum() - c.unsent.sum();
        if (sent != processed + dead) {
            discrepancy("sent " + sent + " messages, processed " + processed + " + dead letters " + dead
                    + " = " + (processed + dead) + perActor(targets, actors));
        }
        if (rt.deadLetterCount() != c.deadLetters.sum()) {
            discrepancy("the runtime counted " + rt.deadLetterCount() + " dead letters, its listener saw "
                    + c.deadLetters.sum());
        }
    }

    /** The actors whose own counts disagree with what was sent to them, for a discrepancy's message. */
    private String perActor(List<ActorRef<Msg>> targets, List<ActorCore<Msg>> actors) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < targets.size(); i++) {
            ActorRef<Msg> to = targets.get(i);
            ActorCore<Msg> a = actors.get(i);
            long sentHere = sentTo.getOrDefault(to, new LongAdder()).sum();
            if (sentHere != a.processedCount() + a.deadLetterCount()) {
                sb.append("; ").append(a).append(" (").append(a.getClass().getSimpleName()).append(", ")
                        .append(a.state()).append("): sent ").append(sentHere).append(", processed ")
                        .append(a.processedCount()).append(", dead letters ").append(a.deadLetterCount())
                        .append(", queued ").append(a.mailboxSize()).append(" [").append(Seam.internals(a))
                        .append(']');
            }
        }
        return sb.toString();
    }

    /** The failures reported in more than one place (by identity), for a discrepancy's message. */
    @SafeVarargs
    private static String both(List<Throwable>... places) {
        Map<Throwable, Integer> where = new IdentityHashMap<>();
        for (List<Throwable> place : places) {
            for (Throwable f : place) {
                where.merge(unwrap(f), 1, Integer::sum);
            }
        }
        List<String> twice = where.entrySet().stream().filter(e -> e.getValue() > 1)
                .map(e -> describe(e.getKey())).toList();
        return twice.isEmpty() ? "" : "; reported in two places (finish, forall, outside every finish): " + twice;
    }

    /** The failures reported more than once, for a discrepancy's message. */
    private static String repeated(List<Throwable> reported) {
        Map<String, Long> seen = new TreeMap<>();
        Map<String, Long> kinds = new TreeMap<>();
        for (Throwable f : reported) {
            seen.merge(describe(unwrap(f)), 1L, Long::sum);
            kinds.merge(f.getClass().getSimpleName() + "/" + unwrap(f).getClass().getSimpleName(), 1L, Long::sum);
        }
        seen.values().removeIf(n -> n == 1);
        return "; kinds " + kinds + (seen.isEmpty() ? "" : "; reported more than once: " + seen);
    }

    /** A failure that cannot carry a suppressed note (the injected ones cannot) arrives wrapped in the note. */
    private static Throwable unwrap(Throwable f) {
        return f instanceof ProcessingFailure note && note.getCause() != null ? note.getCause() : f;
    }

    /** A failure in words, for a discrepancy's message. */
    static String describe(Throwable f) {
        return f.getClass().getName() + ": " + f.getMessage();
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Durations;
import dev.switchboard.internal.SafeText;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What hang reports and error messages say about actors: why an actor keeps its finish open, whom it awaits a
 * reply from and whether that wait is a deadlock, and messages shortened so that a diagnostic never throws.
 */
final class ActorDiagnostics {
    private ActorDiagnostics() {
    }

    /**
     * The actor's internal state in words, for a stress test's report of an actor whose counts do not add up: the
     * bits of its status word, its activation, and the indices of its mailbox's queues. Any thread; a snapshot.
     */
    static String internals(ActorCore<?> actor) {
        ActorCore<?> cell = actor.cell();
        int s = cell.status();
        StringBuilder sb = new StringBuilder("status");
        String[] names = {"SCHEDULED", "PAUSED", "STARTED", "TERMINATED", "RELEASED", "BY_CLOSE", "GONE"};
        for (int bit = 0; bit < names.length; bit++) {
            if ((s & (1 << bit)) != 0) {
                sb.append(' ').append(names[bit]);
            }
        }
        if ((s & (ActorCore.AWAIT_UNIT - 1)) == 0) {
            sb.append(" none (not started)");
        }
        sb.append(", awaiting ").append((s & ActorCore.AWAIT_MASK) >>> 8).append(" replies");
        Activation a = cell.activation();
        if (a != null) {
            sb.append("; activation's pending count ").append(a.getPendingCount());   // its children alive
            if (cell.scheduler() != null) {
                sb.append(", ").append(cell.scheduler().whereIs(a));
            }
        }
        return sb.append("; ").append(cell.mailbox.internals()).toString();
    }

    /**
     * A line for a hang report about {@code actor}, whose status word is {@code s}, or null if it is released; ages
     * measured at {@code nowNanos} (the report's reading of the rough clock that stamped them).
     */
    static String describeIfOpen(ActorCore<?> actor, int s, long nowNanos, long startedAtNanos, String startedBy) {
        if ((s & ActorCore.RELEASED) != 0) {
            return null;
        }
        String backoff = (s & (ActorCore.PAUSED | ActorCore.TERMINATED)) == ActorCore.PAUSED
                ? Supervision.backoffWait(actor) : null;
        String what = (s & ActorCore.TERMINATED) != 0 ? "exited, waiting for tasks it spawned"
                : backoff != null ? "never exited (" + backoff + ")"
                : (s & ActorCore.PAUSED) != 0 ? "never exited (paused: nothing will process its mailbox until resume())"
                : (s & ActorCore.AWAIT_MASK) != 0 ? "never exited (" + describeAwaits(actor, s, nowNanos) + ")"
                : "never exited";
        String activity = (s & ActorCore.SCHEDULED) != 0 ? "running or scheduled" : "idle";
        return "actor " + actor + " started by thread '" + startedBy + "' " + ageMillis(nowNanos - startedAtNanos) + ": " + what
                + " (" + activity + ", " + actor.queueReport() + ", " + actor.processedCount() + " processed"
                + deadLetters(actor) + ((s & ActorCore.TERMINATED) == 0 ? activeTimers(actor) : "") + ")";
    }

    /**
     * {@code ", 3 dead letters"}: the messages sent to {@code actor} that it will not process, or "" if none (the
     * message it waits for may be among them: dropped by a full mailbox, say).
     */
    private static String deadLetters(ActorCore<?> actor) {
        long n = actor.deadLetterCount();
        return n == 0 ? "" : ", " + n + (n == 1 ? " dead letter" : " dead letters");
    }

    /** Timers a report names one by one; the rest it counts. */
    static final int TIMERS_NAMED = 10;

    /**
     * {@code ", timers: 'deadline' (once), 'tick' (periodic)"} for the actor's active timers, or "": an actor
     * waiting for its own timer is not stuck, and one that a periodic timer keeps busy never ends by itself. Past
     * {@link #TIMERS_NAMED}, {@code ", and 415 more"}. Read without the actor's token (a report's look; at worst a
     * timer started or cancelled meanwhile is missed).
     */
    private static String activeTimers(ActorCore<?> actor) {
        ActorTimers.TimerMap timers = ActorTimers.of(actor);
        if (timers == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        int active = 0;
        for (Map.Entry<Object, ActorTimers.Timer> e : List.copyOf(timers.entrySet())) {
            if (e.getValue().isActive() && ++active <= TIMERS_NAMED) {
                sb.append(sb.isEmpty() ? ", timers: " : ", ").append('\'').append(SafeText.of(e.getKey()))
                  .append("' (").append(e.getValue().isSingle() ? "once" : "periodic").append(')');
            }
        }
        if (active > TIMERS_NAMED) {
            sb.append(", and ").append(active - TIMERS_NAMED).append(" more");
        }
        return sb.toString();
    }

    /**
     * The replies {@code actor} awaits, whom from, whether that actor can answer at all, and whether the wait is
     * part of a cycle of actors awaiting each other (a deadlock: each holds its messages, the other's request
     * among them, until its own reply comes).
     */
    private static String describeAwaits(ActorCore<?> actor, int s, long now) {
        int count = (s & ActorCore.AWAIT_MASK) >>> 8;
        StringBuilder sb = new StringBuilder("awaiting ").append(count).append(count == 1 ? " reply" : " replies");
        AwaitedReplies replies = AwaitedReplies.of(actor);
        if (replies == null) {
            return sb.toString();
        }
        for (PendingReply<?> p : replies.awaited()) {
            sb.append(": from ").append(p.target).append(" to ").append(brief(p.request)).append(", for ")
              .append(ageMillis(now - p.sinceNanos).replace(" ago", ""));
            if (p.target instanceof LocalRef<?> r) {
                ActorCore<?> t = r.actor;
                sb.append(whyNoReply(p.target));
                String cycle = awaitCycle(actor, t);
                if (cycle != null) {
                    sb.append("; a deadlock: ").append(cycle);
                }
            }
            if (p.isDone()) {
                sb.append(" (the reply is in; its handler waits to run)");
            }
        }
        return sb.toString();
    }

    /**
     * Why a local actor asked for a reply may not be answering, as a note to append (with its leading space), or
     * "" if its state says nothing: it was never started (the request waits in its mailbox), or it has exited.
     */
    static String whyNoReply(ActorRef<?> target) {
        if (target instanceof LocalRef<?> r) {         // printed as the reference: its toString is ours
            ActorState ts = r.actor.state();
            if (ts == ActorState.NEW) {
                return " (" + r + " was never started: the request waits in its mailbox)";
            } else if (ts == ActorState.TERMINATED) {
                return " (" + r + (ActorStop.stopped(r.actor) ? " was stopped"
                        : ActorFailures.kept(r.actor) != null ? " failed" : " has exited") + ")";
            } else if (r.actor.dispatch instanceof PolicyDispatch p) {
                try {
                    int held = p.policy.held();       // a racy read, and a policy's own code: it may throw
                    if (held > 0) {                   // the request may be among them, not started yet
                        return " (" + p.policy + " holds " + held + (held == 1 ? " message" : " messages")
                                + " it has not started)";
                    }
                } catch (Throwable policyFailed) {     // a diagnostic: it must never stop the timeout it explains
                    return "";
                }
            }
        }
        return "";
    }

    /**
     * If following "awaits a reply from" starting at {@code next} leads back to {@code actor}, the cycle, e.g.
     * {@code A@1 awaits a reply from B@2, which awaits a reply from A@1}; otherwise null.
     */
    private static String awaitCycle(ActorCore<?> actor, ActorCore<?> next) {
        StringBuilder path = new StringBuilder().append(actor);
        Set<ActorCore<?>> seen = new HashSet<>();
        seen.add(actor);
        ActorCore<?> at = next;
        for (int hops = 0; at != null && hops < 64; hops++) {
            path.append(hops == 0 ? " awaits a reply from " : ", which awaits a reply from ").append(at);
            if (at == actor) {
                return path.append(" (each takes no message until its reply comes)").toString();
            }
            if (!seen.add(at)) {
                return null;                  // a cycle that does not include this actor
            }
            AwaitedReplies a = AwaitedReplies.of(at);
            at = a == null ? null : a.firstUnansweredTarget();
        }
        return null;
    }

    /** "12 ms ago", "3.4 s ago". */
    static String ageMillis(long nanos) {
        return Durations.ago(TimeUnit.NANOSECONDS.toMillis(nanos));   // 0 for a stamp taken after the clock read
    }

    /** "12 ms", "3.4 s". */
    static String duration(long nanos) {
        return ageMillis(nanos).replace(" ago", "");
    }

    /** "processing a Balance": where an actor failed, for a log, naming the message's type and nothing of it. */
    static String processing(Object message) {
        return "processing " + withArticle(typeOf(message));
    }

    /** "a Balance", "an Order". */
    static String withArticle(String type) {
        return (!type.isEmpty() && "AEIOUaeiou".indexOf(type.charAt(0)) >= 0 ? "an " : "a ") + type;
    }

    /** The simple name of a message's class (for an anonymous or hidden class, its binary name's last part). */
    static String typeOf(Object message) {
        return message == null ? "null" : LocalRef.simpleName(message.getClass());
    }

    /** A short description of a message for a diagnostic; never throws, whatever the message's toString does. */
    static String brief(Object message) {
        return SafeText.brief(message, 120);
    }
}

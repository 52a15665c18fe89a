package dev.switchboard.actor;

import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.RuntimeCounters;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.task.TaskRuntime;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * A snapshot of a runtime's figures, for a program to poll and export (Micrometer, Prometheus, a log line): taken
 * by {@link #of(TaskRuntime)}, immutable afterwards.
 *
 * <pre>{@code
 * RuntimeMetrics m = RuntimeMetrics.of(runtime);
 * log.info("{} of {} workers busy, {} queued, {} actors live, {} messages, {} dead letters, {} failures",
 *         m.workersBusy(), m.workers(), m.queued(), m.actorsLive(), m.messagesProcessed(), m.deadLetterCount(),
 *         m.failures());
 * }</pre>
 *
 * <p><b>Exact or approximate.</b> A snapshot is read without stopping the runtime. Once the work it counts has
 * ended (the finishes that ran it have returned, nothing else runs), {@code actorsLive}, {@code messagesProcessed},
 * {@code deadLetters} and {@code failures} are exact. While the runtime runs:
 * <ul>
 *   <li>{@code deadLetters} and {@code failures} count those that happened before the snapshot, and perhaps some
 *       during it;</li>
 *   <li>{@code messagesProcessed} and {@code actorsLive} never count a message or an actor twice, but may lag: the
 *       messages of an actor that ends during the snapshot, or of one that has ended while tasks it spawned still
 *       run, may be missing until a later snapshot; {@code messagesProcessed} never goes down from one snapshot to
 *       the next (a counter, as a metrics system expects);</li>
 *   <li>{@code workers}, {@code workersBusy} and {@code queued} describe a moment, each part read at a slightly
 *       different one.</li>
 * </ul>
 *
 * <p><b>Cost.</b> Counting costs the runtime nothing per message or per actor start: an actor's messages are
 * counted by the actor itself (as for {@link ActorCore#processedCount()}) and added, when it ends, to a counter of
 * the worker it ends on; dead letters and failures, which are rare, are counted as they happen. A snapshot walks
 * the workers, the runtime's shared queue and the actors still open: it takes time proportional to the live actors
 * (about 3 ms per hundred thousand on a small virtual machine), so poll it every few seconds, not per message.
 *
 * @param runtime           the runtime's name
 * @param workers           the worker threads the pool has now: up to {@link TaskRuntime#workers()}, started as
 *                          work comes and retired after a minute idle, and more while some block in a finish or a
 *                          {@code get}
 * @param workersBusy       the workers running a task or an actor now (one blocked inside it included)
 * @param queued            tasks and actors ready to run that no worker runs yet: in the workers' queues and
 *                          handoff buffers, and in the runtime's shared queue
 * @param actorsLive        actors started and not ended (an ended actor has exited, failed for good or been
 *                          stopped, and its mailbox has been drained)
 * @param messagesProcessed messages processed by every actor of the runtime, those that have ended included (as
 *                          {@link ActorCore#processedCount()} counts them: a message whose processing failed
 *                          counts; one a stateless actor or a monitor processes counts when it ends)
 * @param deadLetters       dead letters by reason, every reason present (see {@link DeadLetter.Reason});
 *                          {@link #deadLetterCount()} is their sum, {@link TaskRuntime#deadLetterCount()} too
 * @param failures          failures reported for actors: each exception that ended an actor, and each one its
 *                          supervisor handled (resumed, restarted, stopped or escalated; an escalated failure counts
 *                          again for each parent it fails); one that escaped an actor's {@code onExit()} or
 *                          {@code onReplaced()} counts too
 */
public record RuntimeMetrics(String runtime, int workers, int workersBusy, long queued, long actorsLive,
                             long messagesProcessed, Map<DeadLetter.Reason, Long> deadLetters, long failures) {
    /** Copies {@code deadLetters} into an unmodifiable map with every reason (0 for those it lacks). */
    public RuntimeMetrics {
        Objects.requireNonNull(runtime, "runtime");
        EnumMap<DeadLetter.Reason, Long> all = new EnumMap<>(DeadLetter.Reason.class);
        for (DeadLetter.Reason r : DeadLetter.Reason.values()) {
            Long n = deadLetters.get(r);
            all.put(r, n == null ? 0L : n);
        }
        deadLetters = Collections.unmodifiableMap(all);
    }

    /**
     * A snapshot of {@code runtime}'s figures now (see the class comment for what is exact and what it costs).
     * Works on a closed runtime too: its figures no longer change.
     */
    public static RuntimeMetrics of(TaskRuntime runtime) {
        Scheduler s = RuntimeAccess.scheduler(Objects.requireNonNull(runtime, "runtime"));
        RuntimeCounters c = s.counters();
        int workers = c.workers();
        int busy = c.busyWorkers();
        long queued = c.queued();
        // the ended actors' messages first, then the open actors: see RuntimeCounters' implementation notes
        long[] processed = {c.endedMessages()};
        long[] live = {0};
        c.forEachTracked(n -> {
            if (n instanceof Activation a && a.isOpen()) {
                live[0]++;
                if (!a.endCounted()) {             // counted among the ended just before its release
                    processed[0] += a.processed();
                }
            }
        });
        EnumMap<DeadLetter.Reason, Long> dead = new EnumMap<>(DeadLetter.Reason.class);
        for (DeadLetter.Reason r : DeadLetter.Reason.values()) {
            dead.put(r, s.deadLetters().counted(r.ordinal()));
        }
        return new RuntimeMetrics(s.name(), workers, busy, queued, live[0], c.processedReported(processed[0]), dead,
                c.actorFailures());
    }

    /** Every dead letter counted, whatever its reason. */
    public long deadLetterCount() {
        long n = 0;
        for (long d : deadLetters.values()) {
            n += d;
        }
        return n;
    }

    /** The dead letters counted for {@code reason}. */
    public long deadLetters(DeadLetter.Reason reason) {
        return deadLetters.get(Objects.requireNonNull(reason, "reason"));
    }
}

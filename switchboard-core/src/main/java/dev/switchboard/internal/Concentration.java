package dev.switchboard.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * While the runtime holds short turns ({@link SpreadingTrials}), its actors run on one worker at a time, the
 * <em>owner</em>: what "held" means is then what one worker does, whatever the program's shape.
 *
 * <h2>Overview</h2>
 * Holding short turns in the handoff buffer keeps a server's clients off the idle worker, but leaves a program
 * whose actors are all busy where it was: a many-to-many program (Savina's Big), a broker and a hundred creatures,
 * a pipeline of fine-grained stages keep both workers busy, and every message between them crosses cores. On the
 * two-core guests those programs ran 1.6 to 1.9 times as long on two workers as on one, Pekko's as well
 * (docs/decisions/030-one-worker-while-held.md). So while short turns are held:
 * <ul>
 *   <li>a worker that starts a chain of turns with an actor's activation claims the actors if nobody owns them;
 *       if another worker does, it gives the activation to the shared queue without a pump, and the owner takes it
 *       (R1);</li>
 *   <li>a worker that runs a chain while another owns the actors gives its buffered activations the same way
 *       at its next look at the shared queue, and ends the chain (R2);</li>
 *   <li>the owner keeps what would have left it: activations that overflow its buffer, that yield after their
 *       budget or after the handoff limit go to the shared queue without a pump, it takes from the shared queue
 *       when its buffer is empty and every {@value Worker#SHARED_PERIOD} turns, and it spreads nothing (R3);</li>
 *   <li>a pump that runs on another worker than the owner leaves the shared queue to the owner (R5).</li>
 * </ul>
 * The owner gives the actors up when its chain ends or when it enters a blocking wait (R4), and the watchdog takes
 * them from an owner that started nothing for a whole look while work waits for it (R6: it blocks in user code, or
 * runs one long turn); while actors are held and entries wait, it looks every millisecond.
 * <p>
 * Tasks are not concentrated: a task's chain runs where the pool puts it (one submitted from outside while the
 * actors are held starts on their owner, which takes the shared queue's entries). Actors with long turns are: a
 * program whose turns are long finds SPREAD faster in its trials, and a single long turn (a spawner creating
 * thousands of actors in one message) holds the others back about a look before the watchdog gives them to
 * another worker (R6). Whether holding pays is what the trials measure, now of every program with short turns (a
 * worker whose sampled turns are short tells the watchdog, {@link SpreadRule#sawShortTurnChance}), not only of one
 * with an idle worker.
 *
 * <h2>Implementation notes</h2>
 * No entry of the shared queue is stranded without a pump. An entry given without a pump has an owner that will
 * poll it, unless the owner is leaving: the giver queues the entry and then reads {@code owner} (both volatile);
 * the owner clears {@code owner} and then reads whether the queue is empty. Volatile accesses are totally ordered,
 * so either the giver reads null and signals a pump, or the owner sees the entry and signals one. A pump run by a
 * non-owner that leaves the queue alone has cleared its {@code pending} flag first, so a later offer with a pump
 * submits one. An owner that stops making progress loses the actors to the watchdog (R6), and the pump that the
 * watchdog then signals lets another worker claim them: a held program waits at most about a watchdog period
 * behind a stuck owner, as handed-off activations do behind a stuck worker.
 * {@code owner} is written with a CAS when claimed (two workers may race for it) and by the owner alone when
 * released (plain volatile write; the watchdog's revocation is a CAS, so it never clears a later owner).
 */
final class Concentration {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Concentration.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RunQueue queue;
    private final SpreadingTrials trials;
    /** The worker that runs the actors while short turns are held, or null. */
    private volatile Thread owner;
    /** Owners the watchdog revoked, for tests and diagnostics (written by the watchdog only). */
    private volatile long revocations;

    /** The concentration of the actors whose activations wait in {@code queue}, on while {@code trials} hold. */
    Concentration(RunQueue queue, SpreadingTrials trials) {
        this.queue = queue;
        this.trials = trials;
    }

    /** Whether short turns are held now, and so actors concentrated (a volatile read). */
    boolean on() {
        return trials.holdsShortTurns();
    }

    /** Whether some worker owns the actors now. */
    boolean held() {
        return owner != null;
    }

    /** Whether thread {@code t} owns the actors now. */
    boolean owns(Thread t) {
        return owner == t;
    }

    /** Whether thread {@code t} owns the actors and short turns are held now: what it runs stays with it (R3). */
    boolean keeps(Thread t) {
        return owner == t && on();
    }

    /** Whether {@code w} owns the actors now, claiming them if nobody does. */
    boolean claim(Thread w) {
        Thread o = owner;
        return o == w || o == null && OWNER.compareAndSet(this, null, w);
    }

    /**
     * Whether the actors are held on another worker than the calling thread: a pump run here leaves the shared
     * queue to that worker (R5).
     */
    boolean heldElsewhere() {
        Thread o = owner;
        return o != null && o != Thread.currentThread() && on();
    }

    /**
     * Gives {@code node} to the owner: queued in the shared queue with no pump, unless the owner is leaving; a pump
     * then goes to the calling worker's deque ({@code onWorker}) or to the pool from outside.
     */
    void giveAway(Node node, boolean onWorker) {
        queue.offerQuiet(node);
        if (owner == null) {                     // it left meanwhile: it may not have seen the entry
            queue.signal(onWorker);
        }
    }

    /** Worker {@code w} gives the actors up (R4), and makes sure what waits in the shared queue has a pump. */
    void leave(Thread w) {
        if (owner == w) {
            owner = null;
            if (!queue.isEmpty()) {
                queue.signal(true);
            }
        }
    }

    /** The watchdog: worker {@code w} started nothing for a whole look while work waits for it (R6). */
    void revoke(Thread w) {
        if (OWNER.compareAndSet(this, w, null)) {
            revocations++;
            queue.signal(false);
        }
    }

    /** Owners the watchdog has revoked so far. */
    long revocations() {
        return revocations;
    }
}

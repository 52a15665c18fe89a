package dev.switchboard.actor;

import dev.switchboard.internal.Clock;
import dev.switchboard.internal.Context;
import dev.switchboard.internal.MessageSampling;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.Dispatcher;
import dev.switchboard.spi.MessageProcessing;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;

/**
 * The dispatch of an actor bound to a {@link DispatchPolicy}: instead of an activation loop that processes
 * messages, turns that hand the policy every arrival and every finished message, and start the messages the
 * policy chooses as tasks of their own ({@link MessageTask}). It is the policy's {@link Dispatcher}.
 */
final class PolicyDispatch extends Dispatch implements Dispatcher {
    /*
     * Implementation notes.
     *
     * Turns run with the actor's token held, on whatever thread took it: a sender on a worker, or the task of a
     * message that has just finished (which reports itself by queueing its ticket and signalling the actor). The
     * token serialises turns, so the fields below that are not volatile belong to the turn that runs.
     *
     * A finished message is queued as its bare ticket when it has neither result nor failure (the common case,
     * which allocates nothing), otherwise as a Finished record.
     *
     * requestTurn() sets a volatile flag, then signals; a turn clears the flag before it polls, and the release
     * of the token re-checks it (hasWork), so a request made during a turn either is seen by that turn or makes
     * the token be taken again: the same enqueue-then-check argument as for messages. Once the actor has
     * terminated the flag is cleared and ignored (only finished messages are still reported), so a late request
     * cannot keep the drain taking the token.
     *
     * Turns run inline on a sender's worker give the token on to the activation (a worker task) after the
     * runtime's throughput budget of turns (the sender's wait, not the actor's turn), so a send does not keep its
     * sender busy while work keeps arriving.
     *
     * The continuation: when a turn runs on the thread of a message that has just finished, the first message it
     * starts becomes that task's next message: it runs right after the turn, on this warm core, with no task, no
     * queue and no wake-up, so a policy that starts one message at a time (a mutex) runs a stream of messages like
     * an actor's activation runs its messages, within the actor's throughput budget. Any other message is a task of
     * its own: on a worker it goes through the handoff buffer, after the current turn (the worker's spreading
     * rule decides whether an idle worker takes it instead). When this thread already has a message to
     * continue with and the actor's messages are long, it is forked instead, so an idle worker can steal it at
     * once rather than find it hidden behind the continuation (what long means: LetterLength). A short one goes
     * behind the continuation with the watchdog told to look often (Scheduler.activateBehind): if the
     * continuation turns out long after all, the message waits as an activation held behind a long turn does,
     * until the watchdog's next looks (every millisecond while a worker holds work back and another is idle; the
     * first may come a period of 10 ms later), not until the continuation's chain ends. A message task started
     * while another message of the actor is started and unreported tells the scheduler that parallel work is
     * expected (Scheduler.expectParallelWork): for a while, a worker that runs out of work spins rather than
     * parks, so that it is back for the next batch when a message that runs alone (a write) has cut this one.
     *
     * Inline messages: for a policy that allows them (mayRunInline), start() asks the actor's LetterPlacement where
     * each message runs. One that runs inline is queued (InlineLetters) and runs right after the turn that started
     * it, on the turn's thread with the token held; the loop then goes round again without giving the token up, and
     * the next turn reports it to the policy. They run only in the actor's activation or on the thread of a message
     * task of the actor: a turn on a sender's stack hands them to the activation, and while messages run inline
     * ActorCell.runAcquired does not run turns on senders at all (turnsOnActivationOnly). A policy that, idle,
     * starts each arrival at once (startsEachArrivalWhenIdle) is left out while messages run inline and it is idle
     * (skipsPolicyNow: nothing started and unreported, nothing held, no turn asked for): runDirect takes the
     * messages from the mailbox and processes them here one at a time, with the activation's budget and yield, as
     * the plain activation loop does. Those it does not time go through Dispatch.process, the plain activation's
     * own processing, unless the policy wraps the processing in a process() of its own (processesOnce); one in
     * about LetterPlacement.LEFT_OUT_SAMPLE_PERIOD goes through processStarted and is timed (untilTimed counts
     * down to it; LetterPlacement.gapAfter sets the next gap): the messages left out are the cheap ones, to
     * which a timing adds the most. `started` counts the messages started and not yet reported, so the token's
     * holder knows when the policy is idle, and whether tasks of the actor run beside an inline message (then that
     * message is no sample of what inline costs).
     */
    /** Where a started message runs ({@link #processStarted}): as a task of its own. */
    static final int AS_TASK = 0;
    /** Inline, on the thread of the turn. */
    static final int INLINE = 1;
    /** Inline, while messages of the actor run as tasks beside it. */
    static final int BESIDE_TASKS = 2;
    final DispatchPolicy policy;
    private final ActorCore<?> actor;
    /** Finished messages not yet reported to the policy: tickets, or {@link Finished} records. */
    private final MailboxQueue finished = new MailboxQueue(16, ActorCore.MAX_QUEUED);
    private volatile boolean turnRequested;
    /** During a turn run by a message that has just finished on this thread: that message's task, or null. */
    private MessageTask continuation;
    /** During a turn: whether the turn's thread has a message to continue with already. */
    private boolean continuing;
    /** Whether a turn is running (start() is valid only then). */
    private boolean inTurn;
    /** Whether the policy has been told that its actor terminated (it is told once). */
    private boolean terminatedReported;
    /** How long the started messages take, for the choice between forking one and queueing it. */
    private final LetterLength length = new LetterLength();
    /** Whether the policy lets its messages run inline ({@link DispatchPolicy#mayRunInline()}, read at bind). */
    private final boolean mayRunInline;
    /**
     * Whether, while messages run inline, the policy may be left out when it is idle ({@link
     * DispatchPolicy#startsEachArrivalWhenIdle()}, read at bind).
     */
    private final boolean skipsPolicyWhenIdle;
    /**
     * Whether the policy keeps the default {@code process} (read at bind): then the messages taken without the
     * policy and not timed are processed as a plain actor's activation processes them.
     */
    private final boolean processesOnce;
    /** Confined to the turns: messages started and not yet reported to the policy. */
    private int started;
    /** Confined to the turns: messages processed without the policy until the next one is timed. */
    private int untilTimed;
    /**
     * Where started messages run, for a policy that may run them inline; made by the first start (the token held)
     * and read by the message tasks it made after that, which their fork publishes to.
     */
    LetterPlacement placement;
    /** The messages started inline, until their reports (confined to the turns); null unless mayRunInline. */
    private final InlineLetters inlineLetters;

    /** A finished message that came with a result or a failure. */
    private record Finished(Object ticket, Object result, Throwable failure) {
    }

    /**
     * Binds a dispatch policy ({@code dev.switchboard.spi.Seam#bind}) to {@code actor}: from now on every message
     * becomes the policy's to start. Called before start.
     */
    static void bind(ActorCore<?> actor, DispatchPolicy policy) {
        synchronized (actor) {
            if (actor.status() != 0 || actor.activation() != null) {
                throw new IllegalStateException(actor + " was already started: bind " + policy + " before start()");
            }
            if (actor.dispatch instanceof PolicyDispatch p) {
                throw new IllegalStateException(actor + " is already bound to " + p.policy);
            }
            if (actor.dispatch == Dispatch.PARALLEL) {
                throw new IllegalStateException(actor + " is a stateless actor; " + policy + " needs an Actor or"
                        + " Selector");
            }
            if (actor.limit != null && actor.mailbox instanceof SelectorMailboxes m && m.mailboxes() > 1) {
                throw new IllegalStateException(actor + " has several bounded mailboxes; " + policy + " can be bound"
                        + " to an actor with a bounded mailbox, or a selector whose mailboxes are unbounded");
            }
            PolicyDispatch d = new PolicyDispatch(actor, policy);
            policy.bound(actor.self, d);
            actor.extras();                    // runnable() looks for the policy among the extras' cases
            actor.dispatch = d;                // published to senders by start()'s release of STARTED
        }
    }

    PolicyDispatch(ActorCore<?> actor, DispatchPolicy policy) {
        this.actor = actor;
        this.policy = policy;
        this.mayRunInline = policy.mayRunInline();
        this.skipsPolicyWhenIdle = mayRunInline && policy.startsEachArrivalWhenIdle();
        this.inlineLetters = mayRunInline ? new InlineLetters(actor) : null;
        this.processesOnce = processesOnce(policy);
    }

    /** Whether {@code policy} keeps {@link DispatchPolicy#process}'s default: it processes each message once. */
    private static boolean processesOnce(DispatchPolicy policy) {
        try {
            return policy.getClass().getMethod("process", MessageProcessing.class).getDeclaringClass()
                    == DispatchPolicy.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("DispatchPolicy declares process(MessageProcessing)", e);
        }
    }

    /** Messages started and not yet reported to the policy (for the token's holder). */
    int started() {
        return started;
    }

    @Override
    void dispatch(ActorCore<?> actor, Object envelope) {
        throw new AssertionError("a policy's messages are started by its turns");
    }

    @Override
    boolean releasesOnTake() {
        return false;
    }

    /** Whether a turn has something to report besides arrivals. */
    boolean hasWork() {
        return turnRequested || !finished.isEmpty() || mayRunInline && !inlineLetters.isEmpty();
    }

    /**
     * Whether turns run on the worker of the actor's activation only, not on a sender's stack: while the messages
     * run inline, as an actor's messages run in its activation (read by the thread that has just taken the token).
     */
    boolean turnsOnActivationOnly() {
        LetterPlacement p = placement;
        return p != null && p.inline();
    }

    /** Whether finished messages wait to be reported (after termination, the only work a policy has left). */
    boolean hasFinished() {
        return !finished.isEmpty();
    }

    /** The turns, run with the token held; they give it up (or drain the terminated actor) before returning. */
    void runTurns(boolean inline) {
        Thread thread = Thread.currentThread();
        Node previous = Context.enter(thread, actor.activation());
        MessageTask finishing = previous instanceof MessageTask mt && mt.actor == actor && mt.reporting ? mt : null;
        int turnsLeft = actor.scheduler().budget();      // a sender's wait: the runtime's
        int ranInline = 0;
        boolean direct = false;
        try {
            for (;;) {
                if (actor.isTerminated()) {
                    ActorTermination.drainOrRelease(actor);
                    return;
                }
                if (ActorLifecycle.runStartHookIfPending(actor)) {
                    continue;                             // terminated by it, or on to the messages
                }
                if (!inline && skipsPolicyNow()) {
                    int budget = actor.budget();
                    int ran = runDirect(budget - ranInline);
                    ranInline += ran;
                    if (ranInline >= budget) {
                        ranInline = 0;
                        if (yieldsAfterBudget(budget)) {
                            return;
                        }
                        continue;
                    }
                    if (!actor.mailbox.hasAny() && placement.inline() && !actor.isTerminated()) {
                        if (!actor.releaseAndReacquire()) {   // idle, as a plain actor's activation would be
                            return;
                        }
                        continue;
                    }
                    if (ran != 0) {
                        continue;                         // terminated (drained above), or on to tasks (below)
                    }
                }
                continuing = finishing != null && finishing.hasNext();
                continuation = continuing ? null : finishing;
                inTurn = true;
                try {
                    boolean changed = false;
                    if (turnRequested) {
                        turnRequested = false;
                        changed = true;
                    }
                    Object f;
                    while ((f = finished.poll()) != null) {
                        report(f);
                        changed = true;
                    }
                    if (mayRunInline && inlineLetters.hasReports()) {
                        inlineLetters.reportAll(this);
                        changed = true;
                    }
                    Mailbox box = actor.mailbox;
                    Object envelope;
                    // Idle and inline now: the next messages are processed without the policy (the loop's top).
                    direct = !inline && skipsPolicyNow() && box.hasAny();
                    while (!direct && (envelope = box.poll()) != null) {
                        int from = box.lastServed();
                        if (ActorStop.takenByPolicy(actor, envelope, from)) {
                            MailboxAdmission.releasedLater(actor);   // the stop, or a dead letter behind it
                        } else {
                            arrived(envelope, from);
                            changed = true;
                        }
                    }
                    if (changed && !actor.isTerminated() && !ActorFailures.ending(actor.extrasOrNull())) {
                        policy.turn();                    // not once a message has failed: it ends in a moment
                    }
                    ActorStop.endIfStoppedByPolicy(actor, policy.held() + policy.returning());
                } catch (Throwable t) {
                    ActorFailures.fail(actor, t, "its dispatch policy " + policy + " threw",
                            "in its dispatch policy " + policyName());
                    continue;
                } finally {
                    inTurn = false;
                    continuation = null;
                    continuing = false;
                }
                if (mayRunInline && !inlineLetters.isEmpty()) {
                    if (inline && finishing == null) {
                        // A sender's stack: the messages run on a worker, in the actor's activation.
                        actor.scheduler().activate(actor.activation());
                        return;
                    }
                    int budget = actor.budget();
                    ranInline += inlineLetters.run(this, budget - ranInline);   // the rest wait for the next turn
                    if (ranInline >= budget) {
                        ranInline = 0;
                        if (inline) {                      // a finished task's thread: the activation goes on
                            actor.scheduler().activate(actor.activation());
                            return;
                        }
                        if (yieldsAfterBudget(budget)) {
                            return;
                        }
                    }
                    continue;                             // the next turn reports them, the token still held
                }
                if (direct) {
                    continue;
                }
                if (!actor.releaseAndReacquire()) {
                    return;
                }
                if (inline && --turnsLeft <= 0) {
                    // On a sender's stack: its send has waited long enough; the token goes on to a worker.
                    actor.scheduler().activate(actor.activation());
                    return;
                }
            }
        } finally {
            Context.restore(thread, previous);
        }
    }

    /** Hands an arrival to the policy; if the policy throws, the message is a dead letter (and the actor fails). */
    private void arrived(Object envelope, int mailbox) {
        try {
            policy.arrived(envelope, Dispatch.messageOf(envelope), mailbox);
        } catch (Throwable t) {
            MailboxAdmission.releasedLater(actor);
            actor.deadLetter(envelope, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
            throw t;
        }
    }

    void report(Object f) {
        started--;
        if (f instanceof Finished d) {
            policy.finished(d.ticket, d.result, d.failure);
        } else {
            policy.finished(f, null, null);
        }
    }

    /**
     * A started message has been processed (called by its task): queue its report ({@link #processStarted}) and
     * signal the actor.
     */
    void finished(Object f) {
        if (!finished.offer(f)) {
            throw new IllegalStateException(actor + " has " + ActorCore.MAX_QUEUED
                    + " finished messages its policy has not seen");
        }
        actor.signal();
    }

    /**
     * The actor terminated (with the token held, each time a terminated actor is drained): the policy hears of the
     * messages that have finished, and, the first time, passes the ones it still holds back as dead letters. Messages
     * still running when it terminated are reported as they finish, after {@code terminated}. A failure of the
     * policy here is reported to the actor's finish, not thrown.
     */
    void terminated() {
        turnRequested = false;                       // nothing to decide any more
        if (mayRunInline && !inlineLetters.isEmpty()) {
            inlineLetters.runAll(this);              // started before the end: they run, as started tasks do
            try {
                inlineLetters.reportAll(this);
            } catch (Throwable t) {
                ActorFailures.report(actor, t, "its dispatch policy " + policy
                        + " threw in finished() after it terminated", "in finished() of its dispatch policy "
                        + policyName() + " after it terminated");
            }
        }
        Object f;
        while ((f = finished.poll()) != null) {
            try {
                report(f);
            } catch (Throwable t) {
                ActorFailures.report(actor, t, "its dispatch policy " + policy
                        + " threw in finished() after it terminated", "in finished() of its dispatch policy "
                        + policyName() + " after it terminated");
            }
        }
        if (!terminatedReported) {
            terminatedReported = true;
            try {
                policy.terminated(e -> {
                    MailboxAdmission.releasedLater(actor);
                    actor.deadLetter(e, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
                });
            } catch (Throwable t) {
                ActorFailures.report(actor, t, "its dispatch policy " + policy + " threw in terminated()",
                        "in terminated() of its dispatch policy " + policyName());
            }
        }
    }

    /** The policy's words without the actor's name, which the failure's line says already ("PerKey"). */
    private String policyName() {
        String name = String.valueOf(policy);
        String ofActor = " of " + actor;
        return name.endsWith(ofActor) ? name.substring(0, name.length() - ofActor.length()) : name;
    }

    // ------------------------------------------------------------------------------------------ Dispatcher

    @Override
    public void start(Object envelope, Object ticket) {
        Objects.requireNonNull(envelope, "envelope");
        Objects.requireNonNull(ticket, "ticket");
        if (!inTurn || Context.current() != actor.activation()) {
            throw new IllegalStateException(policy + " started a message of " + actor + " outside its turn: start()"
                    + " is valid only inside arrived(), finished() and turn()");
        }
        started++;
        if (mayRunInline && placement().runInline()) {
            inlineLetters.add(envelope, ticket);
            return;
        }
        MessageTask c = continuation;
        if (c != null) {
            continuation = null;
            if (c.continueWith(envelope, ticket)) {
                continuing = true;
                return;
            }
        }
        MessageTask task = new MessageTask(actor.activation(), envelope, this, ticket);
        if (started > 1) {
            actor.scheduler().expectParallelWork();   // beside another (see the notes)
        }
        if (!continuing) {
            task.scheduler().activate(task);
        } else if (length.isLong(actor.scheduler())) {
            task.scheduler().submit(task);
        } else {
            task.scheduler().activateBehind(task);
        }
    }

    @Override
    public boolean runsInline() {
        LetterPlacement p = placement;
        return p != null && p.inline();
    }

    /** The placement of started messages, made by the first start (with the token held). */
    private LetterPlacement placement() {
        LetterPlacement p = placement;
        if (p == null) {
            p = new LetterPlacement(actor.scheduler());
            placement = p;
        }
        return p;
    }

    /**
     * The activation has run its budget of messages: it gives its worker to the work waiting there, and then the
     * caller returns (true: the token stays with the re-queued activation), or goes on if none waits.
     */
    private boolean yieldsAfterBudget(int units) {
        if (actor.scheduler().yieldIfOthersWaiting(actor.activation())) {
            return true;
        }
        actor.scheduler().turnGoesOn(actor.activation(), units);
        return false;
    }

    /**
     * Whether the next messages may be processed without the policy: it allows that when idle, messages run inline
     * now, and it is idle (no message of its actor started and not reported, none held, nothing else to tell it).
     */
    private boolean skipsPolicyNow() {
        LetterPlacement p = placement;
        return skipsPolicyWhenIdle && p != null && p.inline() && started == 0 && !turnRequested
                && finished.isEmpty() && policy.held() == 0;
    }

    /**
     * Processes up to {@code limit} messages from the mailbox here, in arrival order, without the policy (see
     * {@link DispatchPolicy#startsEachArrivalWhenIdle()}), as long as they should still run inline. Returns how
     * many it took.
     */
    private int runDirect(int limit) {
        Mailbox box = actor.mailbox;
        LetterPlacement p = placement;
        int ran = 0;
        int left = untilTimed;                            // counted down here, stored once
        boolean plainly = processesOnce && MessageSampling.every() == 0;
        Object envelope;
        while (ran < limit && !actor.isTerminated() && !ActorFailures.ending(actor.extrasOrNull()) && p.choose()
                && (envelope = box.poll()) != null) {
            ran++;
            if (ActorStop.takenByPolicy(actor, envelope, box.lastServed())) {
                MailboxAdmission.releasedLater(actor);   // the stop, or a dead letter behind it
                ActorStop.endIfStoppedByPolicy(actor, 0);
                continue;
            }
            if (--left > 0 && plainly) {
                Dispatch.process(actor, envelope, true);      // as a plain actor's activation processes it
                MailboxAdmission.releasedLater(actor);
                continue;
            }
            untilTimed = left;
            processStarted(inlineLetters.one(envelope), envelope, null, true, INLINE);
            left = untilTimed;                            // the next gap, if it timed this one
        }
        untilTimed = left;
        return ran;
    }

    /**
     * Processes a started message on this thread, through the policy (a message task's, or the turn's for one
     * run inline): times it now and then, samples it for a JFR recording, and turns a failure into the actor's.
     * {@code alone}: no other message of the actor can be running (it is counted with a plain write);
     * {@code where}: {@link #AS_TASK}, {@link #INLINE} (on the turn's thread), or {@link #BESIDE_TASKS} (inline
     * while tasks of the actor run: not a sample of either place). Returns the report for the policy: the ticket,
     * or a {@link Finished} record with a result or a failure.
     */
    Object processStarted(MessageProcessing m, Object envelope, Object ticket, boolean alone, int where) {
        Object result = null;
        Throwable failure = null;
        LetterPlacement p = placement;
        boolean timed;
        if (p != null && p.timingAll()) {
            timed = true;                                 // until the first choice of where messages run
        } else if (!alone) {
            timed = LetterLength.timesNextMessage();
        } else {        // left out: runDirect counted down to this one, or the policy wraps it, or JFR samples it
            timed = untilTimed <= 0;
        }
        Clock clock = !timed ? null : p != null ? p.clock() : Clock.system();
        boolean othersWait = false;
        long startedAt = timed ? clock.nanoTime() : 0;
        long realStart = timed && clock != Clock.system() ? System.nanoTime() : startedAt;
        int every = MessageSampling.every();              // 0 unless a JFR recording samples messages
        Object sample = every != 0 && MessageSampling.due(every) ? MessageSampling.begin() : null;
        // a message its sender took back since it was sent (an unwatch) is started and finished, not processed
        boolean processing = !(envelope instanceof RevocableMessage r) || r.deliver();
        try {
            othersWait = timed && p != null && where == INLINE && othersWait();    // behind it, as it starts
            if (processing) {
                result = policy.process(m);
            }
        } catch (Throwable t) {
            failure = t;
            Object message = Dispatch.messageOf(envelope);
            ActorFailures.failProcessing(actor, t, message, "", null);
            if (envelope instanceof Request r) {
                Dispatch.requestFailed(actor, r, t);
            }
        } finally {
            if (timed) {
                long now = clock.nanoTime();
                length.took((clock != Clock.system() ? System.nanoTime() : now) - realStart);   // real time
                if (p != null && where != BESIDE_TASKS) {
                    p.messageTook(now - startedAt, othersWait);
                }
                if (alone) {
                    untilTimed = p.gapAfter(now - startedAt);
                }
            }
            if (sample != null) {
                MessageSampling.end(sample, actor.scheduler(), actor.self, Dispatch.messageOf(envelope));
            }
            if (alone) {                                  // no other message of the actor runs: one writer
                if (processing) {
                    actor.activation().countProcessed(true);
                }
                MailboxAdmission.releasedLater(actor);
                Thread.interrupted();
            } else if (processing) {
                Dispatch.processedInTask(actor);
            } else {
                MailboxAdmission.releasedLater(actor);
            }
        }
        return result == null && failure == null ? ticket : new Finished(ticket, result, failure);
    }

    /** For the token's holder: whether another message of the actor waits (in its mailbox, inline, or held). */
    private boolean othersWait() {
        return actor.mailbox.hasAny() || inlineLetters.hasUnrun() || policy.held() > 0;
    }

    @Override
    public void requestTurn() {
        if (!actor.isTerminated()) {                 // a terminated actor has no turns left to run
            turnRequested = true;
            actor.signal();
        }
    }

    @Override
    public ScheduledFuture<?> schedule(Duration delay, Runnable action) {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(action, "action");
        return ActorTimers.started(actor, "schedule").schedule(ActorTimers.nanos(delay), action);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Duration period, Runnable action) {
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(action, "action");
        long nanos = ActorTimers.nanos(period);
        if (nanos <= 0) {
            throw new IllegalArgumentException("the period of a timer of " + actor + " must be positive, got "
                    + period);
        }
        return ActorTimers.started(actor, "scheduleAtFixedRate").scheduleAtFixedRate(nanos, nanos, action);
    }

    @Override
    public String toString() {
        return "the dispatcher of " + actor;
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The cell of an actor: what its reference points at and what runs it. Package-private; applications see the
 * actor through {@link ActorCore}, its only subclass, which holds the API and leaves the work to this class and
 * the classes of each job named below.
 *
 * <p>Owns the status word, the activation, the runtime it was started on, the current behavior and the extras
 * (created on first use). May touch the mailbox (the token holder is its only consumer), the dispatch strategy,
 * and, through their static methods, the classes of each job: they take the actor and act on its cell.
 *
 * @param <M> the type of message the actor accepts
 */
abstract sealed class ActorCell<M> permits ActorCore {
    /*
     * Implementation notes.
     *
     * Overview. An actor has one status word and one schedulable task, its Activation, created by start(). A
     * send on the actor's reference (LocalRef) enqueues the message, then reads the status: if the actor is
     * started, not paused and not already scheduled, the sender sets the SCHEDULED bit with one CAS and
     * schedules the activation (on a worker, through the worker's handoff buffer). Whoever holds SCHEDULED (the
     * token) is the only consumer of the mailbox. The activation processes up to its throughput budget of
     * messages (the runtime's, unless the actor declared its own), then re-queues itself behind other work if more
     * messages and other work are waiting; when the mailbox is empty it clears SCHEDULED and re-checks the
     * mailbox (release-then-recheck). Enqueue-then-check on the sender side and release-then-recheck on the
     * consumer side are both full fences on different words, so either the sender sees SCHEDULED cleared or the
     * consumer sees the message: no wake-up is lost. Nothing is allocated per message.
     *
     * The life cycle lives in the same word: STARTED, PAUSED, TERMINATED, and RELEASED (the activation has been
     * completed into the finish). exit() and failures set TERMINATED; whichever thread holds (or next acquires)
     * SCHEDULED then turns the remaining mailbox into dead letters, runs onExit() and completes the activation,
     * which releases the enclosing finish once every task the actor spawned has ended too.
     *
     * The status word, bit by bit (all changes are atomic read-modify-writes on it):
     *
     *   bit(s)      name        set by                                     cleared by
     *   0           SCHEDULED   a CAS by whoever finds the actor runnable   its holder, when it gives the token up
     *                           and untaken: signal(), reacquire(),         (end of the activation loop or of a
     *                           holdIdle(); a refused start                 policy's turns, after draining,
     *                                                                       releaseHeld)
     *   1           PAUSED      pause(), by the processing                  resume()
     *   2           STARTED     start(), with the publication of the        never
     *                           activation and scheduler
     *   3           TERMINATED  exit(), a failure (fail, crashed,           never
     *                           schedulingRefused), close, a refused start
     *   4           RELEASED    the holder that first drains the            never
     *                           terminated actor, in the atomic that
     *                           clears SCHEDULED; a refused start
     *   5           BY_CLOSE    close(), with or before TERMINATED          never
     *   6           GONE        the actor and every task it spawned have    never
     *                           ended (ActorWatch): with RELEASED if no
     *                           child is alive then, else the completion
     *                           of the activation; a refused start
     *   8..31       the count   awaitReply(), +AWAIT_UNIT per reply         the reply's handler, or a failed send
     *               of awaited                                              of the request, -AWAIT_UNIT
     *               replies
     *
     * The parts. This class is the actor's cell, what its reference points at: the status word, the token protocol and
     * the activation loop. Each other job has a class beside it: the steps of its end (ActorTermination), the members
     * applications use (ActorCore, the subclass), who may call what (OwnerChecks), starting and the onStart/onExit
     * hooks (ActorLifecycle), sending into the mailbox and a full bounded one (MailboxAdmission), where messages wait
     * (Mailbox: SingleMailbox, or a selector's GuardedMailboxes; the loop calls the mailbox object, so those call sites
     * stay monomorphic or bimorphic), processing a taken message (Dispatch: inline, a task per message for a
     * StatelessActor, or a DispatchPolicy's turns in PolicyDispatch), timers (ActorTimers), the failure record
     * (ActorFailures), dead letters (DeadLetterRouting), awaited replies (AwaitedReplies, PendingReply), a fresh
     * instance behind the same reference (ActorHosting), diagnostics (ActorDiagnostics) and the state only some actors
     * need (ActorExtras, which also says what an actor costs in memory). Two hooks let a kind keep its own invariants:
     * afterDispatch() (a selector re-evaluates its declarative guards) and onQuiet() (a selector with nothing left that
     * could enable a mailbox is stuck).
     */

    static final int SCHEDULED = 1;
    static final int PAUSED = 2;
    static final int STARTED = 4;
    static final int TERMINATED = 8;
    static final int RELEASED = 16;
    /**
     * Set with (or before) TERMINATED when the runtime's close() terminated the actor: its dead letters are then
     * {@code RUNTIME_CLOSED}. Never set alone on an actor that was not started.
     */
    static final int BY_CLOSE = 32;
    static final int GONE = 64;
    /** The bits above the flags count the replies the actor awaits ({@code awaitReply}). */
    static final int AWAIT_UNIT = 1 << 8;
    static final int AWAIT_MASK = ~(AWAIT_UNIT - 1);
    /** The most a queue of an actor holds: its mailbox's, and the reply handlers' and finished messages' queues. */
    static final int MAX_QUEUED = 1 << 30;
    /** Flags that keep an actor from taking its next message (it still runs reply handlers). */
    static final int HELD = PAUSED | AWAIT_MASK;

    private static final VarHandle STATUS;
    private static final VarHandle ACTIVATION;
    private static final VarHandle EXTRAS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATUS = l.findVarHandle(ActorCell.class, "status", int.class);
            ACTIVATION = l.findVarHandle(ActorCell.class, "activation", Activation.class);
            EXTRAS = l.findVarHandle(ActorCell.class, "extras", ActorExtras.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        SeamAccess.install();
    }

    /** Where messages wait; see {@link Mailbox}. */
    final Mailbox mailbox;
    /** The reference senders hold; see {@link LocalRef}. Its {@code actor} is this actor's cell. */
    final LocalRef<M> self;
    /** The bound of a {@link BoundedMailbox}, or null: unbounded. */
    final MailboxLimit limit;
    /**
     * How taken messages are started: set by the constructor, or by {@code PolicyDispatch.bind} before start
     * (published to the activation with STARTED).
     */
    Dispatch dispatch;

    /** The status word: SCHEDULED, PAUSED, STARTED, TERMINATED, RELEASED, BY_CLOSE and the awaited-reply count. */
    private volatile int status;
    /** Set by start() before STARTED is published; read by senders after they read STARTED. */
    private volatile Activation activation;
    /** Set by start() (or a refused start) before STARTED is published. */
    Scheduler scheduler;
    /**
     * Confined to the holder of SCHEDULED (the processing): what processes the next message; null while the actor
     * runs its own {@code process}, a fresh instance's {@code process} once the cell hosts one (ActorHosting).
     */
    Behavior<M> behavior;
    /** What only some actors need, or null: created by the first use ({@link #extras()}). */
    private volatile ActorExtras extras;

    @SuppressWarnings("unchecked")
    ActorCell(Mailbox mailbox, Dispatch dispatch, BoundedMailbox bound) {
        ActorCore<M> host = (ActorCore<M>) ActorHosting.hostOfNew(this);
        if (host == null) {
            this.mailbox = mailbox;
            this.self = newRef();
            this.dispatch = dispatch;
            this.limit = bound == null ? null
                    : new MailboxLimit(bound, mailbox instanceof SelectorMailboxes m ? m.mailboxes() : 1);
        } else {                               // a fresh instance for a cell: it uses the cell's reference and mailbox
            this.mailbox = host.mailbox;
            this.self = host.self;
            this.dispatch = host.dispatch;
            this.limit = host.limit;
        }
    }

    /** This cell as the ActorCore it is (its only subclass). */
    @SuppressWarnings("unchecked")
    final ActorCore<M> core() {
        return (ActorCore<M>) this;
    }

    /** The actor's {@link ActorExtras}, created (and published with a CAS) by the first call. */
    final ActorExtras extras() {
        ActorExtras x = extras;
        if (x == null) {
            ActorExtras fresh = new ActorExtras();
            x = (ActorExtras) EXTRAS.compareAndExchange(this, null, fresh);
            if (x == null) {
                x = fresh;
            }
        }
        return x;
    }

    /** The actor's {@link ActorExtras}, or null if it never needed them. */
    final ActorExtras extrasOrNull() {
        return extras;
    }

    /** The cell whose reference, status word and mailbox this actor uses: itself, unless a cell hosts it. */
    final ActorCore<M> cell() {
        return self.actor;
    }

    // ------------------------------------------------------------------------------------------ hooks of the kinds

    /** The reference of this kind of actor; called once, by the constructor. */
    LocalRef<M> newRef() {
        return new LocalRef.OfActor<>(core());
    }

    /**
     * Called by a supervisor's restart (the token held) before the new instance is built: a kind resets what the
     * new instance's constructor sets up again (a selector's mailboxes and guards).
     */
    void beforeRestart() {
    }

    /**
     * Whether the children this actor supervises, when it ends, end after the messages queued to them (a router's
     * routees) rather than after the one they are processing.
     */
    boolean stopsChildrenGracefully() {
        return false;
    }

    /** Called by {@code start()} before the actor becomes runnable, on the starting thread. */
    void beforeStart() {
    }

    /** What {@link #beforeStart} failed in, for the report of its failure. */
    String startFailure() {
        return "it failed to start";
    }

    /** Where {@link #beforeStart} failed, for the failure log's "actor ... failed {where}: ...". */
    String startFailureWhere() {
        return "to start";
    }

    /** Whether the activation counts the tasks this actor spawns (for {@link #onQuiet}). */
    boolean tracksSpawnedTasks() {
        return false;
    }

    /**
     * Called by the activation after each dispatched message, start hook ({@code onStart}, {@code onRestart}) and
     * reply handler, before the next is selected.
     */
    void afterDispatch() {
    }

    /**
     * Called when the actor has gone idle (its token released, nothing ready), and again whenever the last task
     * it spawned has ended: a hook for kinds that can get stuck (a selector with every mailbox disabled).
     */
    void onQuiet() {
    }

    /** The activation (non-null once started). */
    final Activation activation() {
        return activation;
    }

    // ------------------------------------------------------------------------------------------ life cycle

    /** Installs the activation of a start (and its runtime); false if another start was first. */
    final boolean installActivation(Activation a, Scheduler s) {
        if (!ACTIVATION.compareAndSet(this, null, a)) {
            return false;
        }
        scheduler = s;
        return true;
    }

    /** Sets {@code bits} (STARTED, with TERMINATED if the start failed): publishes what start() installed. */
    final void publish(int bits) {
        STATUS.getAndBitwiseOr(this, bits);
    }

    /** A start refused by a closed runtime: takes the token of the new actor, terminated and released at once. */
    final boolean claimForRefusal() {
        return STATUS.compareAndSet(this, 0, TERMINATED | RELEASED | SCHEDULED | BY_CLOSE);
    }

    /** A refused start has drained the mailbox: gives the token up, and drains what raced with it. */
    final void releaseRefused() {
        clearScheduled();
        while (reacquire()) {                     // a send raced with the drain
            ActorTermination.drainTerminated(this);
        }
    }

    /** {@code pause()} sets PAUSED; {@code resume()} clears it and runs the actor if it was paused. */
    final void pauseBit(boolean pause) {
        if (pause) {
            STATUS.getAndBitwiseOr(this, PAUSED);
        } else if ((((int) STATUS.getAndBitwiseAnd(this, ~PAUSED)) & PAUSED) != 0) {
            signal();
        }
    }

    /** The mailbox a message sent without naming one goes to (always 0 for an actor). */
    int routeOf(M message) {
        return 0;
    }

    /** "the mailbox of Foo@3", or for a selector with several, "mailbox 2 of Foo@3". */
    String mailboxName(int index) {
        return "the mailbox of " + this;
    }

    /**
     * Where the message being processed came from, for a failure's note and log line: " from mailbox B" for a
     * selector of several mailboxes, else nothing. On the actor's processing.
     */
    String servedFrom() {
        return "";
    }

    // ------------------------------------------------------------------------------------------ the token

    /**
     * Called after an envelope was enqueued or the actor became runnable: takes the SCHEDULED token if the
     * actor should run and nobody holds it, then schedules the activation (or, for a terminated actor, turns
     * the mailbox into dead letters right here).
     */
    final void signal() {
        for (;;) {
            int s = status;
            if ((s & SCHEDULED) != 0) {
                return;                                   // the holder will see the message
            }
            if ((s & TERMINATED) != 0) {
                if (STATUS.compareAndSet(this, s, s | SCHEDULED)) {
                    ActorTermination.drainOrRelease(this);
                    return;
                }
            } else if (runnable(s)) {
                if (STATUS.compareAndSet(this, s, s | SCHEDULED)) {
                    runAcquired();
                    return;
                }
            } else {
                return;                                   // new, paused or awaiting: the message waits
            }
        }
    }

    /**
     * With the token just taken for work: runs it (a terminated actor's dead letters, a policy's turns) or
     * schedules the activation.
     */
    private void runAcquired() {
        if ((status & TERMINATED) != 0) {
            ActorTermination.drainOrRelease(this);
        } else if (dispatch instanceof PolicyDispatch p && !p.turnsOnActivationOnly() && scheduler.onWorker()) {
            p.runTurns(true);                             // thread-less: on the worker that is already here
        } else {
            // An actor's activation; or the turns of a policy whose sender is not a worker (the main thread,
            // say). Those go to a worker too: there the messages a turn starts are handed off on the same core,
            // and while the turn waits to run the token is held, so a burst of sends reaches it as one turn.
            scheduler.activate(activation);
        }
    }

    /**
     * Takes the token of a started actor that is idle (not scheduled, paused, awaiting a reply or terminated), so
     * that a check of its quiet state decides on a state nobody changes meanwhile. Returns false if it is not idle.
     * The caller gives the token back with {@link #releaseHeld()} or {@code ActorFailures.failHeld}.
     */
    final boolean holdIdle() {
        int s = status;
        return (s & (SCHEDULED | HELD | TERMINATED)) == 0 && (s & STARTED) != 0
                && STATUS.compareAndSet(this, s, s | SCHEDULED);
    }

    /** Gives back a token taken by {@link #holdIdle()}, and runs the actor if work arrived while it was held. */
    final void releaseHeld() {
        clearScheduled();
        if (reacquire()) {
            runAcquired();
        }
    }

    /** Whether a started, non-terminated actor with status {@code s} has something it may run now. */
    private boolean runnable(int s) {
        if ((s & STARTED) == 0) {
            return false;
        }
        ActorExtras x = extras;
        if (x != null) {                    // a policy's actor always has extras (bindPolicy made them)
            if (ActorFailures.ending(x)) {
                return false;               // failed, terminated in a moment: nothing more starts
            }
            if (dispatch instanceof PolicyDispatch p) {   // a policy takes every arrival it may and every finished one
                return x.startPending || mailbox.hasReady() || p.hasWork();
            }
            if (x.startPending || x.hasReadyReplies()) {
                return true;
            }
            if ((s & HELD) == 0 && Supervision.retryPending(x, mailbox)) {
                return true;
            }
        }
        return (s & HELD) == 0 && mailbox.hasReady();
    }

    /** Whether reply handlers are ready to run. */
    final boolean hasContinuations() {
        ActorExtras x = extras;
        return x != null && x.hasReadyReplies();
    }

    /**
     * Takes SCHEDULED again after releasing it, if there is work and nobody else took it. Returns whether the
     * caller holds the token now.
     */
    final boolean reacquire() {
        for (;;) {
            int s = status;
            if ((s & SCHEDULED) != 0) {
                return false;
            }
            boolean work = (s & TERMINATED) != 0
                    ? (s & RELEASED) == 0 || mailbox.hasAny() || hasContinuations()
                            || dispatch instanceof PolicyDispatch p && p.hasFinished()
                    : runnable(s);
            if (!work) {
                return false;
            }
            if (STATUS.compareAndSet(this, s, s | SCHEDULED)) {
                return true;
            }
        }
    }

    /** Gives the token up, then takes it again if work came meanwhile; returns whether it is held again. */
    final boolean releaseAndReacquire() {
        clearScheduled();
        return reacquire();
    }


    // ------------------------------------------------------------------------------------------ processing

    /** The activation loop: runs with the SCHEDULED token held, and gives it up (or re-queues) before returning. */
    final void runActivation() {
        if (dispatch instanceof PolicyDispatch p) {
            p.runTurns(false);
            return;
        }
        int turn = budget();
        int left = turn;
        for (;;) {
            int s = status;
            if ((s & TERMINATED) != 0) {
                ActorTermination.drainOrRelease(this);
                return;
            }
            if (runOne(s)) {
                if (--left > 0) {
                    continue;
                }
                s = status;
                if (((s & TERMINATED) != 0 || runnable(s)) && scheduler.yieldIfOthersWaiting(activation)) {
                    return;                               // the token stays with the re-queued activation
                }
                scheduler.turnGoesOn(activation, turn);    // nobody is waiting for this worker: go on
                turn = budget();
                left = turn;
                continue;
            }
            if (!releaseAndReacquire()) {                 // release, then re-check
                onQuiet();
                return;
            }
        }
    }

    /**
     * Runs {@code onStart()} if it is pending, or one reply handler, or else one message if the actor is neither
     * paused nor awaiting a reply. Returns whether it ran anything.
     */
    private boolean runOne(int s) {
        ActorExtras x = extras;
        if (x != null) {
            if (x.startPending) {
                ActorLifecycle.runStartHook(core(), x);
                afterDispatch();                          // onStart may have changed what a guard reads
                return true;
            }
            AwaitedReplies replies = x.replies;
            Runnable handler = replies == null ? null : replies.pollReady();
            if (handler != null) {
                handler.run();
                Thread.interrupted();
                afterDispatch();                          // as may a reply's handler
                return true;
            }
        }
        if ((s & HELD) != 0 || ActorFailures.ending(x)) {
            return false;                                 // a failure kept: it terminates in a moment
        }
        if (x != null && Supervision.retryPending(x, mailbox)) {  // a failed message its supervisor retries: first
            Supervision.runRetry(core());
            afterDispatch();
            return true;
        }
        Object envelope = mailbox.poll();
        if (envelope == null) {
            return false;
        }
        MailboxAdmission.released(core());
        dispatch.dispatch(core(), envelope);
        afterDispatch();
        return true;
    }

    // ------------------------------------------------------------------------------------------ the end's primitives

    /** Sets {@code bits} in the status word; returns the status before. The end's steps: {@link ActorTermination}. */
    final int orStatus(int bits) {
        return (int) STATUS.getAndBitwiseOr(this, bits);
    }

    /** Changes the status word from {@code expected} to {@code next}; returns whether it did. */
    final boolean casStatus(int expected, int next) {
        return STATUS.compareAndSet(this, expected, next);
    }

    /** Gives the token up (the holder's last step when it finds no more work for a terminated actor). */
    final void clearScheduled() {
        STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
    }

    /**
     * Publishes {@code bits} (RELEASED, and GONE if it goes with it) and gives the token up, in one atomic: the
     * end of an actor takes one read-modify-write of its status word rather than two. From here on another
     * thread may hold the token (to dead-letter what arrives); it finds RELEASED and only drains.
     */
    final void releaseWith(int bits) {
        int s = status;
        int witness;
        while ((witness = (int) STATUS.compareAndExchange(this, s, (s | bits) & ~SCHEDULED)) != s) {
            s = witness;                           // a concurrent change of other bits (an awaited count, a close)
        }
    }

    /** Marks the actor gone (see the bit table); returns whether it was already. */
    final boolean markGone() {
        return ((int) STATUS.getAndBitwiseOr(this, GONE) & GONE) != 0;
    }

    /** Whether the actor and every task it spawned have ended ({@link #markGone}). */
    final boolean isGone() {
        return (status & GONE) != 0;
    }

    final boolean isTerminated() {
        return (status & TERMINATED) != 0;
    }

    /** Counts a message no one will process: see {@link DeadLetterRouting}. */
    final void deadLetter(Object envelope, DeadLetter.Reason reason) {
        DeadLetterRouting.route(core(), envelope, reason);
    }

    // ------------------------------------------------------------------------------------------ replies

    /** Adds {@code delta} to the count of awaited replies (a count above 0 holds the actor's messages). */
    final void addAwaited(int delta) {
        STATUS.getAndAdd(this, delta * AWAIT_UNIT);
    }

    /**
     * The messages a turn of this actor takes: the budget it declared ({@code ActorCore.throughput(int)}), else
     * its runtime's ({@link Scheduler#budget(int)}). Read by the holder of the token.
     */
    final int budget() {
        ActorExtras x = extras;
        return scheduler.budget(x == null ? 0 : x.budget);
    }

    /** The runtime the started actor runs on. */
    final Scheduler scheduler() {
        return scheduler;
    }

    // ------------------------------------------------------------------------------------------ observation

    /** Whether this actor still keeps its finish open (it has not terminated and released it). */
    final boolean isOpen() {
        return (status & RELEASED) == 0;
    }

    /** What is queued, for diagnostics. */
    String queueReport() {
        return mailbox.size() + " queued" + (dispatch instanceof PolicyDispatch p
                ? ", " + p.policy.held() + " held by " + p.policy : "");
    }

    final int status() {
        return status;
    }
}

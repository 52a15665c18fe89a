package dev.switchboard.actor;

import dev.switchboard.internal.ActorAccess;
import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import dev.switchboard.internal.TimerService;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.RemoteRoute;
import dev.switchboard.spi.SendInterceptor;
import dev.switchboard.task.TaskRuntime;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What every kind of actor can do. Applications extend {@link Actor}, {@link StatelessActor} or {@link Selector};
 * this class, sealed to those kinds, holds the life cycle and the operations they inherit.
 * <ul>
 *   <li>{@link #start()} (or {@link #start(String)}, with a name) joins the current finish scope and returns the
 *       actor's {@linkplain ActorRef reference}, the one thing senders hold; {@link #self()} gives it to the
 *       actor. The finish ends only after the actor has exited.</li>
 *   <li>{@link #onStart()} runs before the first message, {@link #onExit()} once the actor has terminated.</li>
 *   <li>While it processes a message the actor may {@link #exit()}, {@link #pause()} and {@link #resume()},
 *       {@link #become} and {@link #unbecome}, ask another actor and wait for the reply without blocking a thread
 *       with {@link #awaitReply}, send itself messages later with timers ({@link #startSingleTimer},
 *       {@link #startTimerWithFixedDelay}, {@link #startTimerAtFixedRate}, {@link #cancelTimer}), and use any
 *       task-parallel construct: {@code async}, {@code finish}, futures.</li>
 *   <li>An exception escaping {@link #process} terminates the actor and is rethrown by its finish, with a note
 *       naming the actor. Messages sent to a terminated actor are dead letters: counted, never silently lost.</li>
 *   <li>{@link #state()}, {@link #processedCount()}, {@link #deadLetterCount()} and {@link #mailboxSize()}
 *       observe it from anywhere.</li>
 * </ul>
 *
 * @param <M> the type of message the actor accepts
 */
public abstract sealed class ActorCore<M> permits Actor, Selector {
    /*
     * Implementation notes.
     *
     * Overview. An actor has one status word and one schedulable task, its Activation, created by start(). A
     * send on the actor's reference (LocalRef) enqueues the message, then reads the status: if the actor is
     * started, not paused and not already scheduled, the sender sets the SCHEDULED bit with one CAS and
     * schedules the activation (on a worker, through the worker's handoff buffer). Whoever holds SCHEDULED (the
     * token) is the only consumer of the mailbox. The activation processes up to the runtime's throughput budget
     * of messages, then re-queues itself behind other work if more messages and other work are waiting; when the
     * mailbox is empty it clears SCHEDULED and re-checks the mailbox (release-then-recheck). Enqueue-then-check on
     * the sender side and release-then-recheck on the consumer side are both full fences on different words, so
     * either the sender sees SCHEDULED cleared or the consumer sees the message: no wake-up is lost. Nothing is
     * allocated per message.
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
     *                           holdIdle(); refuseStart()                   policy's turns, after draining,
     *                                                                       releaseHeld)
     *   1           PAUSED      pause(), by the processing                  resume()
     *   2           STARTED     start(), with the publication of the        never
     *                           activation and scheduler
     *   3           TERMINATED  exit(), a failure (fail, crashed,           never
     *                           schedulingRefused), close, refuseStart()
     *   4           RELEASED    the holder that first drains the            never
     *                           terminated actor; refuseStart()
     *   5           BY_CLOSE    close(), with or before TERMINATED          never
     *   8..31       the count   awaitReply(), +AWAIT_UNIT per reply         the reply's handler, or a failed send
     *               of awaited                                              of the request, -AWAIT_UNIT
     *               replies
     *
     * The parts. This class keeps the status word, the token protocol, the activation loop, sending and
     * termination. The rest is in classes of their own: where messages wait and which is next (the Mailbox:
     * SingleMailbox, or a selector's GuardedMailboxes; the loop calls the mailbox object, so those call sites
     * stay monomorphic or bimorphic); how a taken message is started (Dispatch, chosen at construction: SERIAL
     * processes it inline, PARALLEL starts a task per message for a StatelessActor; a DispatchPolicy bound
     * through the spi replaces the loop by PolicyDispatch's turns); the requester's side of awaitReply
     * (AwaitedReplies, PendingReply) and of ask (ReplyTo, AskFuture); the become stack (BecomeStack); what
     * diagnostics say (ActorDiagnostics); and the state only some actors need (ActorExtras). Two hooks let a kind
     * keep its own invariants: afterDispatch() (a selector re-evaluates its declarative guards) and onQuiet() (a
     * selector with every mailbox disabled and nothing left that could enable one reports itself stuck).
     *
     * Memory. An actor is four objects while it is idle: this one (48 bytes with compressed oops and no fields of
     * the subclass), its mailbox (SingleMailbox: 24 bytes, its queue created by the first message; see there),
     * its reference (LocalRef: 32 bytes) and its Activation (88 bytes). Everything only some actors need is in
     * ActorExtras, created the first time an actor needs it; hot paths test one field for null where they would
     * test several. `extras` is published with a CAS (compareAndExchange: a volatile write of a fully constructed
     * object) and read as a volatile field; its own fields keep the access modes and the confinement they would
     * have as fields of the actor. The runtime's close() marks the actor with the BY_CLOSE bit of the status word,
     * set with or before TERMINATED, so that a close never has to allocate.
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
    /** The bits above the flags count the replies the actor awaits ({@link #awaitReply}). */
    static final int AWAIT_UNIT = 1 << 8;
    static final int AWAIT_MASK = ~(AWAIT_UNIT - 1);
    /** The most a queue of an actor holds: its mailbox's, and the reply handlers' and finished messages' queues. */
    static final int MAX_QUEUED = 1 << 30;
    /** Flags that keep an actor from taking its next message (it still runs reply handlers). */
    static final int HELD = PAUSED | AWAIT_MASK;

    private static final VarHandle STATUS;
    private static final VarHandle ACTIVATION;
    private static final VarHandle EXTRAS;
    /** Bits of {@link #HOOKS}: the class overrides {@link #onStart()}, {@link #onExit()}. */
    private static final int START_HOOK = 1;
    private static final int EXIT_HOOK = 2;
    /** Which lifecycle hooks an actor class overrides (looked up once per class). */
    private static final ClassValue<Integer> HOOKS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            int hooks = 0;
            for (Class<?> c = type; c != null && c != ActorCore.class; c = c.getSuperclass()) {
                hooks |= declares(c, "onStart") ? START_HOOK : 0;
                hooks |= declares(c, "onExit") ? EXIT_HOOK : 0;
            }
            return hooks;
        }

        private static boolean declares(Class<?> c, String name) {
            try {
                c.getDeclaredMethod(name);
                return true;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATUS = l.findVarHandle(ActorCore.class, "status", int.class);
            ACTIVATION = l.findVarHandle(ActorCore.class, "activation", Activation.class);
            EXTRAS = l.findVarHandle(ActorCore.class, "extras", ActorExtras.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        SeamAccess.install();
    }

    /** Where messages wait; see {@link Mailbox}. */
    final Mailbox mailbox;
    /** The reference senders hold; see {@link LocalRef}. */
    final LocalRef<M> self;
    /** The bound of a {@link BoundedMailbox}, or null: unbounded. */
    private final MailboxLimit limit;
    /**
     * How taken messages are started: set by the constructor, or by {@link #bindPolicy} before start (published
     * to the activation with STARTED).
     */
    private Dispatch dispatch;

    /** The status word: SCHEDULED, PAUSED, STARTED, TERMINATED, RELEASED, BY_CLOSE and the awaited-reply count. */
    private volatile int status;
    /** Set by start() before STARTED is published; read by senders after they read STARTED. */
    private volatile Activation activation;
    private Scheduler scheduler;
    /** Confined to the holder of SCHEDULED (the processing); null while the actor runs {@link #process}. */
    private Behavior<M> behavior;
    /** What only some actors need, or null: created by the first use ({@link #extras()}). */
    private volatile ActorExtras extras;

    ActorCore(Mailbox mailbox, Dispatch dispatch, BoundedMailbox bound) {
        this.mailbox = mailbox;
        this.self = newRef();
        this.dispatch = dispatch;
        this.limit = bound == null ? null
                : new MailboxLimit(bound, mailbox instanceof SelectorMailboxes m ? m.mailboxes() : 1);
    }

    /**
     * Processes one message. Runs for one message at a time (unless this is a {@link StatelessActor}); an
     * exception escaping it terminates the actor and is rethrown by the finish the actor was started in.
     */
    protected abstract void process(M message);

    /** The actor's {@link ActorExtras}, created (and published with a CAS) by the first call. */
    private ActorExtras extras() {
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

    /** Whether this actor has needed its {@link ActorExtras}; for tests. */
    final boolean hasExtras() {
        return extras != null;
    }

    // ------------------------------------------------------------------------------------------ hooks of the kinds

    /** The reference of this kind of actor; called once, by the constructor. */
    LocalRef<M> newRef() {
        return new LocalRef.OfActor<>(this);
    }

    /** Called by {@code start()} before the actor becomes runnable, on the starting thread. */
    void beforeStart() {
    }

    /** Whether the activation counts the tasks this actor spawns (for {@link #onQuiet}). */
    boolean tracksSpawnedTasks() {
        return false;
    }

    /** Called by the activation after each dispatched message, before the next is selected. */
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

    /**
     * Starts this actor in the current finish scope: the finish will not end before this actor has exited.
     * Messages sent to its reference before {@code start()} (the actor may hand out {@link #self()} from its
     * constructor) are processed from now on, after {@link #onStart()}. Outside every finish the actor joins the
     * default runtime's global scope, unless the calling thread created a runtime it has not closed: then
     * {@code start()} throws, since the actor would not run on that runtime (start it inside its
     * {@code finish}).
     *
     * @return the actor's reference, which senders hold
     * @throws IllegalStateException if this actor was already started, or if it is started outside every finish
     *         on a thread that created a runtime it has not closed
     */
    public ActorRef<M> start() {
        startInScope();
        return self;
    }

    /**
     * Starts this actor, as {@link #start()}, with a name: the actor's reference and every diagnostic about it
     * (errors, hang reports, dead letters) show {@code name@id} instead of the class name. Names need not be
     * unique; the {@linkplain ActorRef#id() id} is.
     *
     * @throws IllegalArgumentException if the name is blank, longer than 200 characters or contains a control
     *         character
     * @throws IllegalStateException    if this actor was already started
     */
    public ActorRef<M> start(String name) {
        String checked = LocalRef.checkName(name, this);
        if (status != 0 || activation != null) {
            throw new IllegalStateException(this + " was already started (state " + state() + "): it cannot be"
                    + " named " + checked + " now");
        }
        extras().name = checked;
        return start();
    }

    /** The name given to {@link #start(String)}, or null. */
    final String givenName() {
        ActorExtras x = extras;
        return x == null ? null : x.name;
    }

    /**
     * This actor's reference: what to put in a message for others to answer (never {@code this}). Available from
     * the constructor on.
     */
    protected ActorRef<M> self() {
        return self;
    }

    /**
     * Runs once on a started actor before its first message, in the actor's context, as if it were a message:
     * it may send, spawn tasks, {@code become}, {@code exit()}. An exception escaping it terminates the actor and
     * reaches the actor's finish, as one escaping {@link #process} does. Does nothing unless overridden.
     */
    protected void onStart() {
    }

    /**
     * Runs once after the actor has terminated, whatever ended it ({@code exit()}, a failure, the close of its
     * runtime), as the actor's last word: forward an end down a pipeline, release a resource. It runs inside the
     * actor's finish (tasks it spawns are waited for) and, like a message, with the actor's context; messages
     * sent to the actor itself are dead letters by now. An exception escaping it reaches the actor's finish. It
     * does not run if the actor terminated before its {@link #onStart()} could run. Does nothing unless
     * overridden.
     */
    protected void onExit() {
    }

    /** The default runtime's scheduler (creating the default runtime if it is the first to be used). */
    private static Scheduler defaultScheduler() {
        Scheduler s = Scheduler.defaultScheduler();
        if (s == null) {
            TaskRuntime.defaultRuntime();
            s = Scheduler.defaultScheduler();
        }
        return s;
    }

    private void startInScope() {
        if (status != 0 || activation != null) {
            throw new IllegalStateException(this + " was already started (state " + state() + ")");
        }
        SendInterceptor held = SendInterception.interceptor();
        if (held != null && held.interceptSpawn(this::startInScope)) {
            return;                                  // held (a transaction starts it when it commits)
        }
        Node context = Context.current();
        if (context == null) {
            Scheduler.requireNoRuntimeOpenedHere(this + ".start()");
        }
        Scheduler s = context != null ? context.scheduler() : defaultScheduler();
        if (s.isClosed()) {
            refuseStart(s);
        }
        if (context == null) {
            context = s.globalScope();
        }
        int hooks = HOOKS.get(getClass());
        Activation a = new Activation(context.attachChild(), s, this, (hooks & EXIT_HOOK) != 0);
        if (!ACTIVATION.compareAndSet(this, null, a)) {   // lost a race with a concurrent start()
            a.tryComplete();                                 // undo the registration
            throw new IllegalStateException(this + " was already started (state " + state() + ")");
        }
        scheduler = s;
        ActorExtras x = extras;
        if (x != null && x.earlyDeadLetters != 0) {
            s.countDeadLetters((long) ActorExtras.EARLY_DEAD_LETTERS.getAndSet(x, 0L));
        }
        context.scope().track(a);
        if ((hooks & START_HOOK) != 0) {
            extras().startPending = true;        // published with STARTED below
        }
        int initial = STARTED;
        try {
            beforeStart();
        } catch (Throwable t) {
            report(t, "it failed to start (" + t + ")");
            initial |= TERMINATED;                   // drained and released by the signal below
        }
        boolean closedMeanwhile = s.isClosed();     // after track(): close() saw the actor or we see the close
        if (closedMeanwhile) {
            initial |= TERMINATED | BY_CLOSE;
        }
        STATUS.getAndBitwiseOr(this, initial);   // publishes activation, scheduler and dispatch to senders
        signal();
        if (closedMeanwhile) {
            s.requireOpen("start " + this);      // terminated and drained above; the caller learns why
        }
        onQuiet();                               // a selector started with every mailbox disabled is stalled
    }

    /**
     * {@code start()} on a closed runtime: the actor never runs. It is terminated in that runtime, so the
     * messages already sent to it and every later one are counted there as dead letters, and start throws.
     */
    private void refuseStart(Scheduler s) {
        scheduler = s;
        ActorExtras x = extras;
        if (x != null) {
            s.countDeadLetters((long) ActorExtras.EARLY_DEAD_LETTERS.getAndSet(x, 0L));
        }
        if (STATUS.compareAndSet(this, 0, TERMINATED | RELEASED | SCHEDULED | BY_CLOSE)) {
            Object envelope;
            while ((envelope = mailbox.pollAny()) != null) {
                released();
                deadLetter(envelope, DeadLetter.Reason.RUNTIME_CLOSED);
            }
            STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
            while (reacquire()) {                     // a send raced with the drain
                drainTerminated();
            }
        }
        s.requireOpen("start " + this);
    }

    /**
     * Terminates this actor: it processes no further message, the messages still in its mailbox and every
     * message sent from now on become dead letters, and its finish scope is released once the tasks it spawned
     * have ended. Idempotent. In a transaction of a transactional actor it takes effect when the transaction
     * commits.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void exit() {
        requireOwnContext("exit");
        if (SendInterception.interceptExit(self)) {
            return;                                  // held (a transaction's exit waits for its commit)
        }
        terminate(0);
    }

    /**
     * Stops processing further messages until {@link #resume()}; messages keep arriving (paper 002 §5.1.2).
     * Does not block.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void pause() {
        requireOwnContext("pause");
        requireNoPolicy("pause()", "hold the messages in the policy instead");
        STATUS.getAndBitwiseOr(this, PAUSED);
    }

    /**
     * An actor bound to a policy (a monitor) does not take messages itself: its policy starts them, possibly
     * several at once. Holding it ({@code pause}, {@code awaitReply}) would not hold the messages already
     * started, so it is refused.
     */
    final void requireNoPolicy(String op, String instead) {
        if (dispatch instanceof PolicyDispatch p) {
            throw new IllegalStateException(this + "." + op + " is not supported: " + this + " is bound to "
                    + p.policy + ", which decides when its messages run; " + instead);
        }
    }

    /**
     * Resumes processing after {@link #pause()}; a no-op if not paused.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void resume() {
        requireOwnContext("resume");
        int s = (int) STATUS.getAndBitwiseAnd(this, ~PAUSED);
        if ((s & PAUSED) != 0) {
            signal();
        }
    }

    /**
     * Processes the following messages with {@code next} until {@link #unbecome()}.
     *
     * @throws IllegalStateException if this actor has been started and this is not called by its processing of a
     *         message or of a reply (a task it spawned could run beside its next message); before {@code start()} it
     *         may be called from anywhere, to set the first behavior in the constructor
     */
    protected final void become(Behavior<M> next) {
        Objects.requireNonNull(next, "behavior");
        requireProcessingOnceStarted("become");
        ActorExtras x = extras();
        if (x.become == null) {
            x.become = new BecomeStack();
        }
        x.become.push(behavior);
        behavior = next;
    }

    /**
     * Returns to the behavior before the last {@link #become}.
     *
     * @throws IllegalStateException if there was no {@code become} to undo, or if called from outside this actor's
     *         context once it has been started (as for {@link #become})
     */
    protected final void unbecome() {
        requireProcessingOnceStarted("unbecome");
        ActorExtras x = extras;
        if (x == null || x.become == null || x.become.isEmpty()) {
            throw new IllegalStateException(this + ".unbecome() without a matching become()");
        }
        behavior = x.become.pop();
    }

    // ------------------------------------------------------------------------------------------ timers

    /**
     * The shortest period (or delay) of a periodic timer: the runtime's one timer thread also times every ask and
     * awaitReply, and a period it can never keep up with would hold their timeouts back.
     */
    static final Duration MIN_TIMER_PERIOD = Duration.ofMillis(1);

    /**
     * Sends {@code message} to this actor once, after {@code delay}, as {@code self().send(message)} would (a
     * selector: to the mailbox its {@code route} picks for the message when the timer starts), except that a full
     * bounded mailbox makes it a dead letter instead of waiting or throwing. A timer started before with the same
     * {@code key} is cancelled first; {@link #cancelTimer} cancels this one, and so does this actor's termination,
     * whatever ends it. Once a timer has been cancelled or replaced, none of its messages is processed, not even
     * one it sent before and that waits in the mailbox (it is dropped when its turn comes, counted as processed).
     * After this actor has terminated, starting a timer does nothing.
     *
     * <pre>{@code
     * protected void onStart() { startSingleTimer("idle", new Idle(), IDLE); }
     * protected void process(Msg m) {
     *     switch (m) {
     *         case Work w -> { handle(w); startSingleTimer("idle", new Idle(), IDLE); }   // restarts it
     *         case Idle i -> exit();    // IDLE without work: an Idle sent before the restart never comes
     *     }
     * }
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     * @throws IllegalStateException if not called while this started actor processes a message, a reply or its
     *         {@code onStart()} (a task it spawned may not: it could run beside the next message), or if the actor is
     *         bound to a dispatch policy
     */
    protected final void startSingleTimer(Object key, M message, Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("startSingleTimer() of " + this + " needs a delay of zero or more, got "
                    + delay);
        }
        startTimer("startSingleTimer", key, message, nanos(delay), 0, false);
    }

    /**
     * Sends {@code message} to this actor every {@code period}, the first time one period from now, until
     * {@link #cancelTimer} with the same {@code key}, another timer started with that key, or this actor's
     * termination. The sends keep their rate whatever the actor does meanwhile: an actor slower than the period
     * finds several in its mailbox.
     *
     * @throws IllegalArgumentException if {@code period} is shorter than a millisecond
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final void startTimerAtFixedRate(Object key, M message, Duration period) {
        Objects.requireNonNull(period, "period");
        requireTimerPeriod("startTimerAtFixedRate", period);
        long nanos = nanos(period);
        startTimer("startTimerAtFixedRate", key, message, nanos, nanos, false);
    }

    /**
     * Sends {@code message} to this actor every {@code delay}, the first time one delay from now, each send
     * {@code delay} after the one before: unlike {@link #startTimerAtFixedRate}, a timer thread held up does not
     * make up for lost sends in a burst. Ends as the other timers do (see {@link #startSingleTimer}).
     *
     * @throws IllegalArgumentException if {@code delay} is shorter than a millisecond
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final void startTimerWithFixedDelay(Object key, M message, Duration delay) {
        Objects.requireNonNull(delay, "delay");
        requireTimerPeriod("startTimerWithFixedDelay", delay);
        long nanos = nanos(delay);
        startTimer("startTimerWithFixedDelay", key, message, nanos, nanos, true);
    }

    private void requireTimerPeriod(String op, Duration period) {
        if (period.compareTo(MIN_TIMER_PERIOD) < 0) {
            throw new IllegalArgumentException(op + "() of " + this + " needs a period of at least "
                    + MIN_TIMER_PERIOD.toMillis() + " ms, got " + period + " (the runtime's one timer thread also"
                    + " times every ask and awaitReply)");
        }
    }

    /**
     * Cancels the timer started with {@code key}, if one is active; returns whether one was. Once it has returned,
     * none of the timer's messages is processed, not even one already in the mailbox. After this actor has
     * terminated it returns false (termination cancelled every timer).
     *
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final boolean cancelTimer(Object key) {
        Objects.requireNonNull(key, "key");
        if (!timerContext("cancelTimer")) {
            return false;                     // terminated: its timers were cancelled
        }
        ActorExtras.TimerMap timers = timersOrNull();
        ActorExtras.Timer t = timers == null ? null : timers.remove(key);
        return t != null && t.cancel();
    }

    /**
     * Whether the timer started with {@code key} is active: a single timer until this actor takes its message, a
     * periodic one until cancelled.
     *
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final boolean isTimerActive(Object key) {
        Objects.requireNonNull(key, "key");
        if (!timerContext("isTimerActive")) {
            return false;
        }
        ActorExtras.TimerMap timers = timersOrNull();
        ActorExtras.Timer t = timers == null ? null : timers.get(key);
        return t != null && t.isActive();
    }

    private void startTimer(String op, Object key, M message, long delayNanos, long periodNanos,
            boolean fixedDelay) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, () -> "null message for a timer of " + this);
        if (!timerContext(op)) {
            return;                           // terminated (an exit() earlier in this message, a close): no timer
        }
        int index = routeOf(message);         // here, so that a selector's route() failing fails the caller
        ActorExtras.Timer t = new ActorExtras.Timer(this, message, index, periodNanos == 0);
        TimerService timers = scheduler.timers();
        t.future = periodNanos == 0 ? timers.schedule(delayNanos, t)
                : fixedDelay ? timers.scheduleWithFixedDelay(delayNanos, periodNanos, t)
                : timers.scheduleAtFixedRate(delayNanos, periodNanos, t);
        ActorExtras.Timer replaced = extras().timers().put(key, t);
        if (replaced != null) {
            replaced.cancel();
        }
    }

    /** The timers this actor keeps, or null if it never started one (for diagnostics: read without the token). */
    final ActorExtras.TimerMap timersOrNull() {
        ActorExtras x = extras;
        return x == null ? null : x.timers;
    }

    /** The timers this actor keeps (active or not yet dropped); for tests. */
    final int timerCount() {
        ActorExtras.TimerMap timers = timersOrNull();
        return timers == null ? 0 : timers.size();
    }

    /**
     * Timers belong to the holder of the token: a started actor's own processing, not a task it spawned. Returns
     * false once the actor has terminated (its timers are cancelled; starting one does nothing).
     */
    private boolean timerContext(String op) {
        if (status == 0) {
            throw new IllegalStateException(this + "." + op + "() needs " + this + " started: start timers in"
                    + " onStart() or process()");
        }
        requireNoPolicy(op + "()", "its policy decides when its messages run, and timers are not offered there");
        if (dispatch == Dispatch.PARALLEL && Context.current() != activation) {
            throw new IllegalStateException(this + "." + op + "() from a message of a stateless actor, whose"
                    + " messages run in parallel: its timers are started in onStart() and end with it");
        }
        requireProcessingOnceStarted(op);
        return !isTerminated();
    }

    /**
     * A timer's send into mailbox {@code index}: as a send, except that a full bounded mailbox makes the message a
     * {@code MAILBOX_FULL} dead letter instead of waiting or throwing, whatever the mailbox's overflow: the timer
     * thread serves every timer and reply timeout of the runtime, and must never wait for one actor.
     */
    final void timerSend(ActorExtras.TimerMessage message, int index) {
        enqueue(mailbox, message, index, true);
    }

    /** The actor terminated (with the token held): no timer of it sends again. */
    private void cancelTimers() {
        try {
            ActorExtras.TimerMap timers = timersOrNull();
            if (timers != null) {
                for (ActorExtras.Timer t : timers.values()) {
                    t.cancel();
                }
                timers.clear();
            }
        } catch (Throwable t) {
            addFailure(t);                    // a cancel cannot fail short of an internal error; report it
        }
    }

    // ------------------------------------------------------------------------------------------ sending

    /** The mailbox a message sent without naming one goes to (always 0 for an actor). */
    int routeOf(M message) {
        return 0;
    }

    /** {@link ActorRef#send} to an actor, whose one mailbox is 0. */
    final void tell(Mailbox box, M message) {
        Objects.requireNonNull(message, () -> "null message sent to " + this);
        enqueue(box, message, 0);
    }

    /** {@link ActorRef#ask} into mailbox {@code index}, or where the request routes if -1; see {@link AskFuture}. */
    final <R> CompletableFuture<R> ask(Function<? super ReplyTo<R>, ? extends M> request, Duration timeout,
            int index) {
        return AskFuture.ask(this, request, timeout, index);
    }

    /** Sends a request envelope into mailbox {@code index}, or where the message routes if -1. */
    final void enqueueRequest(Request request, M message, int index) {
        enqueue(mailbox, request, index < 0 ? routeOf(message) : index);
    }

    /**
     * Enqueues an envelope into mailbox {@code index} (already checked) and schedules the actor if needed. A
     * reference keeps the actor's mailbox beside the actor, so a sender reads both from the reference at once
     * instead of the mailbox after the actor: {@code box} is that mailbox.
     */
    final void enqueue(Mailbox box, Object envelope, int index) {
        enqueue(box, envelope, index, false);
    }

    /** {@link #enqueue}; a full bounded mailbox drops the envelope as a dead letter if {@code dropWhenFull}. */
    private void enqueue(Mailbox box, Object envelope, int index, boolean dropWhenFull) {
        MailboxLimit l = limit;
        if ((status & TERMINATED) != 0) {
            if (!(envelope instanceof ActorExtras.TimerMessage)) {   // a timer's: cancelled by the termination
                deadLetter(envelope, DeadLetter.Reason.RECIPIENT_TERMINATED);
            }
        } else if (l != null && !l.tryReserve(index) && !overflow(envelope, index, l, dropWhenFull)) {
            return;                                       // dropped, or the sender gets an exception
        } else if (!box.offer(envelope, index)) {
            if (l != null) {
                l.release(index);
            }
            deadLetter(envelope, DeadLetter.Reason.MAILBOX_FULL);
        } else {
            signal();
        }
    }

    /**
     * Mailbox {@code index} is full. Returns true once a place has been reserved after all (a sender outside the
     * runtime waited for it); otherwise the message was dropped as a dead letter, or this throws.
     */
    private boolean overflow(Object envelope, int index, MailboxLimit l, boolean drop) {
        BoundedMailbox b = l.bound;
        switch (drop ? BoundedMailbox.Overflow.DROP : b.whenFull()) {
            case DROP -> {
                deadLetter(envelope, DeadLetter.Reason.MAILBOX_FULL);
                return false;
            }
            case FAIL -> throw mailboxFull(envelope, index, b, "");
            default -> {
                if (Thread.currentThread() instanceof dev.switchboard.internal.Worker) {
                    throw mailboxFull(envelope, index, b, " (a sender on a worker never waits for room)");
                }
                long start = System.nanoTime();
                switch (l.awaitPlace(index, MailboxLimit.deadlineAfter(b.maxWait()),
                        () -> (status & TERMINATED) != 0)) {
                    case RESERVED -> {
                        return true;
                    }
                    case GONE -> {
                        deadLetter(envelope, DeadLetter.Reason.RECIPIENT_TERMINATED);
                        return false;
                    }
                    case INTERRUPTED -> throw mailboxFull(envelope, index, b, " (the sender was interrupted after "
                            + ActorDiagnostics.duration(System.nanoTime() - start) + " of waiting for room)");
                    default -> throw mailboxFull(envelope, index, b, " (no room within "
                            + ActorDiagnostics.duration(b.maxWait().toNanos()) + ")");
                }
            }
        }
    }

    private MailboxFullException mailboxFull(Object envelope, int index, BoundedMailbox b, String why) {
        return new MailboxFullException(mailboxName(index) + " is full (capacity " + b.capacity() + ", "
                + b.whenFull() + "): " + ActorDiagnostics.brief(messageOf(envelope)) + " was not sent" + why, self,
                b.capacity());
    }

    /** "the mailbox of Foo@3", or for a selector with several, "mailbox 2 of Foo@3". */
    String mailboxName(int index) {
        return "the mailbox of " + this;
    }

    /** Gives back the place of the envelope just taken from the mailbox, if bounded and processed inline. */
    private void released() {
        MailboxLimit l = limit;
        if (l != null && dispatch.releasesOnTake()) {
            l.release(mailbox.lastServed());
        }
    }

    /**
     * Gives back the place of a message taken from a bounded mailbox by a dispatch that processes it later, as a
     * task of its own (a stateless actor, a policy): when its processing ends, or it becomes a dead letter
     * unprocessed. Otherwise the backlog would only move from the mailbox to the tasks or the policy.
     */
    final void releasedLater() {
        MailboxLimit l = limit;
        if (l != null && !dispatch.releasesOnTake()) {
            l.release(0);                        // one mailbox: a policy on a bounded selector needs one (bindPolicy)
        }
    }

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
                    drainOrRelease();
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
            drainOrRelease();
        } else if (dispatch instanceof PolicyDispatch p && scheduler.onWorker()) {
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
     * The caller gives the token back with {@link #releaseHeld()} or {@link #failHeld}.
     */
    final boolean holdIdle() {
        int s = status;
        return (s & (SCHEDULED | HELD | TERMINATED)) == 0 && (s & STARTED) != 0
                && STATUS.compareAndSet(this, s, s | SCHEDULED);
    }

    /** Gives back a token taken by {@link #holdIdle()}, and runs the actor if work arrived while it was held. */
    final void releaseHeld() {
        STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
        if (reacquire()) {
            runAcquired();
        }
    }

    /** Like {@link #fail}, for the holder of a token taken by {@link #holdIdle()}: the holder drains the mailbox. */
    final void failHeld(Throwable failure, String what) {
        keepFailure(failure);
        report(failure, what);
        STATUS.getAndBitwiseOr(this, TERMINATED);
        drainOrRelease();
    }

    /** Whether a started, non-terminated actor with status {@code s} has something it may run now. */
    private boolean runnable(int s) {
        if ((s & STARTED) == 0) {
            return false;
        }
        ActorExtras x = extras;
        if (x != null) {                    // a policy's actor always has extras (bindPolicy made them)
            if (dispatch instanceof PolicyDispatch p) {   // a policy takes every arrival and every finished message
                return x.startPending || mailbox.hasAny() || p.hasWork();
            }
            if (x.startPending || x.hasReadyReplies()) {
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
    private boolean reacquire() {
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
        STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
        return reacquire();
    }

    // ------------------------------------------------------------------------------------------ processing

    /** The activation loop: runs with the SCHEDULED token held, and gives it up (or re-queues) before returning. */
    final void runActivation() {
        if (dispatch instanceof PolicyDispatch p) {
            p.runTurns(false);
            return;
        }
        int budget = scheduler.budget();
        for (;;) {
            int s = status;
            if ((s & TERMINATED) != 0) {
                drainOrRelease();
                return;
            }
            if (runOne(s)) {
                if (--budget > 0) {
                    continue;
                }
                s = status;
                if (((s & TERMINATED) != 0 || runnable(s)) && scheduler.yieldIfOthersWaiting(activation)) {
                    return;                               // the token stays with the re-queued activation
                }
                scheduler.turnGoesOn(activation);          // nobody is waiting for this worker: go on
                budget = scheduler.budget();
                continue;
            }
            if (!releaseAndReacquire()) {                 // release, then re-check
                onQuiet();
                return;
            }
        }
    }

    /**
     * Runs {@link #onStart()} if it is pending, or one reply handler, or else one message if the actor is neither
     * paused nor awaiting a reply. Returns whether it ran anything.
     */
    private boolean runOne(int s) {
        ActorExtras x = extras;
        if (x != null) {
            if (x.startPending) {
                runStartHook(x);
                return true;
            }
            AwaitedReplies replies = x.replies;
            PendingReply<?> handler = replies == null ? null : replies.pollReady();
            if (handler != null) {
                handler.run();
                Thread.interrupted();
                return true;
            }
        }
        if ((s & HELD) != 0) {
            return false;
        }
        Object envelope = mailbox.poll();
        if (envelope == null) {
            return false;
        }
        released();
        dispatch.dispatch(this, envelope);
        afterDispatch();
        return true;
    }

    /** Runs {@link #onStart()} if it is pending (with the token held); returns whether it ran. */
    final boolean runStartHookIfPending() {
        ActorExtras x = extras;
        if (x != null && x.startPending) {
            runStartHook(x);
            return true;
        }
        return false;
    }

    private void runStartHook(ActorExtras x) {
        x.startPending = false;
        try {
            onStart();
        } catch (Throwable t) {
            fail(t, "this exception escaped onStart()");
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * Runs {@link #onExit()} once, on the thread that releases the terminated actor (with the token held), in the
     * actor's context: unless the class does not override it, or the actor ended before its onStart() ran.
     */
    private void runExitHook() {
        ActorExtras x = extras;
        if ((status & STARTED) == 0 || !activation.exitHook || x != null && x.startPending) {
            return;
        }
        Thread thread = Thread.currentThread();
        Node previous = Context.enter(thread, activation);
        try {
            onExit();
        } catch (Throwable t) {
            reportNote(t, " failed in onExit() after it terminated", "");
        } finally {
            Context.restore(thread, previous);
            if (scheduler.onWorker()) {
                Thread.interrupted();
            }
        }
    }

    /**
     * Processes one envelope on the current thread, catching what escapes: the serial dispatch (on the
     * activation holding the token, {@code serial}) and the parallel one (a {@link MessageTask}).
     */
    final void processEnvelope(Object envelope, boolean serial) {
        Object message = envelope;
        try {
            if (envelope instanceof Request r) {
                message = r.message();
            } else if (envelope instanceof ActorExtras.TimerMessage t) {
                if (!t.timer().deliver()) {
                    return;                       // its timer was cancelled or replaced since it sent this
                }
                message = t.message();
            }
            invoke(message);
        } catch (Throwable t) {
            fail(t, "this exception escaped process(" + ActorDiagnostics.brief(message) + ")");
            if (envelope instanceof Request r) {
                requestFailed(r, t);
            }
        } finally {
            if (serial) {
                activation.countProcessed(true);
                Thread.interrupted();  // an interrupt set while processing this message is not seen by the next
            } else {
                processedInTask();
            }
        }
    }

    /**
     * The processing of a request failed: unless it answered before it failed, no answer can be relied on, and
     * the requester hears so now (a {@code ReplyTo} handed on before the failure is then answered too late, a dead
     * letter). A request whose processing ends normally without an answer stays open: its {@code ReplyTo} may
     * have been handed on.
     */
    final void requestFailed(Request request, Throwable failure) {
        if (!request.replyTo().isAnswered()) {
            NoReplyException e = new NoReplyException(this + " failed while processing the request "
                    + ActorDiagnostics.brief(request.message()) + " without answering it: " + failure);
            e.initCause(failure);
            request.replyTo().failUnanswered(e);
        }
    }

    /** Runs the current behavior, or {@link #process}, on {@code message}; exceptions escape. */
    @SuppressWarnings("unchecked")
    final void invoke(Object message) {
        Behavior<M> b = behavior;
        if (b == null) {
            process((M) message);
        } else {
            b.process((M) message);
        }
    }

    /** The end of a message processed in a task of its own: counted, its place in a bounded mailbox given back. */
    final void processedInTask() {
        activation.countProcessed(false);
        releasedLater();
        Thread.interrupted();
    }

    /**
     * Binds a dispatch policy ({@code dev.switchboard.spi.Seam#bind}): from now on every message becomes the
     * policy's to start. Called before start.
     */
    final synchronized void bindPolicy(DispatchPolicy policy) {
        if (status != 0 || activation != null) {
            throw new IllegalStateException(this + " was already started: bind " + policy + " before start()");
        }
        if (dispatch instanceof PolicyDispatch p) {
            throw new IllegalStateException(this + " is already bound to " + p.policy);
        }
        if (dispatch == Dispatch.PARALLEL) {
            throw new IllegalStateException(this + " is a stateless actor; " + policy + " needs an Actor or Selector");
        }
        if (limit != null && mailbox instanceof SelectorMailboxes m && m.mailboxes() > 1) {
            throw new IllegalStateException(this + " has several bounded mailboxes; " + policy + " can be bound to an"
                    + " actor with a bounded mailbox, or a selector whose mailboxes are unbounded");
        }
        PolicyDispatch d = new PolicyDispatch(this, policy);
        policy.bound(self, d);
        extras();                              // runnable() looks for the policy among the extras' cases
        dispatch = d;                          // published to senders by start()'s release of STARTED
    }

    // ------------------------------------------------------------------------------------------ failure and end

    /** Terminates the actor because of {@code failure}; the failure goes to the actor's finish scope. */
    final void fail(Throwable failure, String what) {
        keepFailure(failure);
        report(failure, what);
        terminate(0);
    }

    /** Keeps the first failure that terminates this actor, for {@link #failure()}; never throws. */
    private void keepFailure(Throwable failure) {
        try {
            // the first one (a stateless actor's messages may fail at once); published to onExit() by the status
            // change that terminates
            ActorExtras.FAILURE.compareAndSet(extras(), (Throwable) null, failure);
        } catch (Throwable noMemory) {
            // failure() then says null; the failure itself is still reported to the finish
        }
    }

    /**
     * Why this actor terminated, for {@link #onExit()} (a parent that restarts a failed child, a resource released
     * differently): the first exception that escaped {@link #process}, {@link #onStart()}, a reply handler, a
     * guard or selection policy, or the runtime's handling of it; null if none did (it called {@link #exit()} and
     * nothing escaped after, or its runtime closed), or if it has not terminated. The same exception reaches the
     * actor's finish.
     */
    protected final Throwable failure() {
        ActorExtras x = extras;
        return x == null ? null : x.failure;
    }

    /**
     * Reports {@code failure} to the actor's finish with a note naming the actor: a suppressed
     * {@link ProcessingFailure}, or, for a throwable that cannot carry suppressed exceptions (the JVM creates some
     * errors that way, a {@link StackOverflowError} among them), a {@code ProcessingFailure} whose cause is the
     * failure. Without memory for the note, the failure is reported as it is.
     */
    final void report(Throwable failure, String what) {
        reportNote(failure, " was terminated: ", what);
    }

    /** {@link #report} with the note {@code this + verb + what} (built here: the actor's toString may throw). */
    private void reportNote(Throwable failure, String verb, String what) {
        Throwable reported = failure;
        try {
            String text = this + verb + what;
            Throwable[] suppressed = failure.getSuppressed();
            if (suppressed.length == 0 || !(suppressed[0] instanceof ProcessingFailure)) {
                failure.addSuppressed(new ProcessingFailure(text));
                if (failure.getSuppressed().length == 0) {
                    reported = new ProcessingFailure(text, failure);
                }
            }
        } catch (Throwable noMemory) {
            reported = failure;
        }
        addFailure(reported);
    }

    /** Adds a failure to the actor's finish as it is. */
    final void addFailure(Throwable failure) {
        activation.scope().addFailure(failure);
    }

    /** Sets TERMINATED and {@code also}; drains the actor here if nobody holds its token. */
    private void terminate(int also) {
        int s = (int) STATUS.getAndBitwiseOr(this, TERMINATED | also);
        if ((s & SCHEDULED) == 0 && reacquire()) {
            drainOrRelease();
        }
    }

    final boolean isTerminated() {
        return (status & TERMINATED) != 0;
    }

    /**
     * The runtime is being closed (called by the closing thread): terminate unless already terminated. Queued
     * messages and later sends become {@code RUNTIME_CLOSED} dead letters; if the token is free they are drained
     * here, otherwise by its holder.
     */
    final void terminateByClose() {
        if ((status & TERMINATED) == 0) {
            terminate(BY_CLOSE);
        }
    }

    /**
     * The pool refused to run this actor's activation (the runtime was closed, or there was no memory to queue
     * it). Called with the token held: terminates the actor, reporting the cause unless it is the close, and
     * drains its mailbox here.
     */
    final void schedulingRefused(Throwable cause) {
        int also = 0;
        if (scheduler.isClosed()) {
            also = BY_CLOSE;
        } else {
            keepFailure(cause);
            report(cause, "the runtime could not schedule it");
        }
        STATUS.getAndBitwiseOr(this, TERMINATED | also);
        drainOrRelease();
    }

    /**
     * Something escaped the activation loop itself (an error inside the runtime's own code, such as an
     * OutOfMemoryError while turning a message into a dead letter). Called with the token held: the actor
     * fails with it and is drained, or at least released, so that its finish is not left waiting.
     */
    final void crashed(Throwable failure) {
        keepFailure(failure);
        try {
            report(failure, "it failed outside process(): in its mailbox, its selection policy or the runtime itself");
        } catch (Throwable t) {
            addFailure(failure);
        }
        STATUS.getAndBitwiseOr(this, TERMINATED);
        drainOrRelease();
    }

    /**
     * A message started as a task of its own could not be queued: it is a dead letter, and unless the runtime was
     * closed (which terminates the actor anyway) the actor fails with the cause, since a policy bound to it would
     * otherwise wait for that message forever.
     */
    final void messageRefused(Object envelope, Throwable cause) {
        releasedLater();
        if (!scheduler.isClosed()) {
            fail(cause, "the runtime could not start one of its messages");
        }
        deadLetter(envelope, scheduler.isClosed() ? DeadLetter.Reason.RUNTIME_CLOSED
                : DeadLetter.Reason.UNPROCESSED_AT_EXIT);
    }

    /**
     * With the token held on a terminated actor: drain it, or if even that fails (no memory for a dead letter's
     * bookkeeping, say), report the failure and release its finish, so that nothing waits for it forever.
     */
    final void drainOrRelease() {
        try {
            drainTerminated();
        } catch (Throwable t) {
            addFailure(t);
            if (((int) STATUS.getAndBitwiseOr(this, RELEASED) & RELEASED) == 0) {
                cancelTimers();
                try {
                    holdAwaitedReplies();
                } catch (Throwable again) {              // the finish then may not wait for those answers
                    addFailure(again);
                }
                activation.sealSpawns();
                activation.tryComplete();
            }
            STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
            if (reacquire()) {                   // a message that came meanwhile: one more try to count it
                try {
                    drainTerminated();
                } catch (Throwable again) {
                    STATUS.getAndBitwiseAnd(this, ~SCHEDULED);   // the failure is reported; give the token up
                }
            }
        }
    }

    /**
     * With the token held on a terminated actor: turn the mailbox into dead letters, release the finish once,
     * give the token up, and repeat while messages keep arriving.
     */
    private void drainTerminated() {
        if ((status & RELEASED) == 0) {
            cancelTimers();                       // first: nothing below can keep a timer sending
        }
        do {
            Object envelope;
            while ((envelope = mailbox.pollAny()) != null) {
                released();
                if (!(envelope instanceof ActorExtras.TimerMessage)) {   // a timer's: cancelled above, dropped
                    deadLetter(envelope, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
                }
            }
            if (limit != null) {
                limit.wakeAll();                   // waiting senders see the exit and dead-letter their messages
            }
            ActorExtras x = extras;
            AwaitedReplies replies = x == null ? null : x.replies;
            if (replies != null) {
                PendingReply<?> p;
                while ((p = replies.pollReady()) != null) {   // replies that came after exit: their handlers do not run
                    replies.handled(p);
                    deadLetter(p.arrived(), DeadLetter.Reason.REPLY_AFTER_EXIT);
                }
            }
            if (dispatch instanceof PolicyDispatch d) {
                d.terminated();
            }
            if ((status & RELEASED) == 0) {
                runExitHook();
                holdAwaitedReplies();             // before RELEASED: if it throws, drainOrRelease still releases
                STATUS.getAndBitwiseOr(this, RELEASED);
                activation.sealSpawns();
                activation.tryComplete();   // the lingering task ends; the finish waits only for our children now
            }
            STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
        } while (reacquire());
    }

    /**
     * Counts a message no one will process and tells the runtime's listener. A request among them fails its
     * requester at once with a {@link NoReplyException}.
     */
    final void deadLetter(Object envelope, DeadLetter.Reason reason) {
        boolean byClose = (status & BY_CLOSE) != 0;
        if (byClose && (reason == DeadLetter.Reason.RECIPIENT_TERMINATED
                || reason == DeadLetter.Reason.UNPROCESSED_AT_EXIT)) {
            reason = DeadLetter.Reason.RUNTIME_CLOSED;    // a message the close kept from the actor; replies keep theirs
        }
        Object message = messageOf(envelope);
        if (envelope instanceof Request r) {
            r.replyTo().failUnanswered(new NoReplyException(this + (byClose
                    ? " was terminated by the close of its runtime before processing the request "
                    : reason == DeadLetter.Reason.MAILBOX_FULL ? "'s mailbox was full: it dropped the request "
                    : " terminated before processing the request ") + ActorDiagnostics.brief(message)));
        }
        ActorExtras x = extras();
        ActorExtras.DEAD_LETTERS.getAndAdd(x, 1L);
        Scheduler s = scheduler;
        if (s == null) {
            // Not started yet (a bounded mailbox dropped it): it has no runtime to tell. The actor counts it, and
            // its runtime adds it to its own count at start(); the listener does not hear of it.
            ActorExtras.EARLY_DEAD_LETTERS.getAndAdd(x, 1L);
            return;
        }
        s.countDeadLetter();
        Consumer<Object> listener = s.deadLetterListener();
        if (listener != null) {
            DeadLetter letter = new DeadLetter(message, self, reason);
            // Outside the actor's context: work the listener starts must not attach to a finished actor.
            s.runInGlobalScope(() -> listener.accept(letter));
        }
    }

    // ------------------------------------------------------------------------------------------ replies

    /**
     * Asks {@code to}, and runs {@code onReply} with the answer when it arrives; until then this actor processes
     * no further message — a synchronous receive that blocks no thread (paper 002 §5.2, Fig. 11 and 16). The
     * request is built by {@code request} around the {@link ReplyTo} the answer goes to, so its type says what
     * the reply is. Call it while processing a message (or from a reply handler, to chain requests).
     *
     * <p>The handler runs on this actor, in its processing context, never at the same time as the processing of
     * a message or another handler: it may touch the actor's state, call {@code awaitReply} again, {@code exit},
     * and so on. Several outstanding requests are allowed; the next message is processed once every handler
     * has run. A user {@link #pause()} stays in force independently. If the answer is a failure (the receiver
     * terminated before processing the request, failed while processing it, or answered with
     * {@link ReplyTo#fail}), this actor fails with it.
     * There is no timeout: a receiver that never answers keeps this actor waiting (the runtime's hang report
     * names the request); use the form with a timeout when that can happen.
     *
     * <pre>{@code
     * record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {}
     *
     * case Start s -> awaitReply(bank, replyTo -> new Balance(s.account(), replyTo), (Long balance) -> log(balance));
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code to} is this actor (it would wait for itself)
     * @throws IllegalStateException    if not called by this actor's processing or a task it spawned, or if the
     *         actor is bound to a dispatch policy (a monitor)
     */
    protected final <Q, R> void awaitReply(ActorRef<Q> to, Function<? super ReplyTo<R>, ? extends Q> request,
            Consumer<? super R> onReply) {
        requireOwnContext("awaitReply");
        Objects.requireNonNull(onReply, "onReply");
        AwaitedReplies.await(this, to, request, new PendingReply<R>(this, to, onReply, null, scheduler.roughNanoTime()));
    }

    /**
     * {@link #awaitReply(ActorRef, Function, Consumer)} with a deadline, and a handler that hears failures too:
     * {@code onResult} runs once, on this actor, with {@code (reply, null)} when the reply arrives within
     * {@code timeout}, or with {@code (null, failure)}: a {@link ReplyTimeoutException} naming this actor,
     * {@code to} and the request when none came in time, a {@link NoReplyException} when {@code to} cannot
     * answer, or the failure {@code to} answered with. Either way this actor takes messages again once the handler
     * has run; a failure does not terminate it (an exception escaping the handler does). A reply sent after the
     * timeout is a dead letter ({@link DeadLetter.Reason#REPLY_TOO_LATE}), and the actor that sends it is not
     * disturbed.
     *
     * <pre>{@code
     * case Start s -> awaitReply(bank, replyTo -> new Balance(s.account(), replyTo), Duration.ofMillis(200),
     *         (Long balance, Throwable f) -> {
     *             if (f != null) retryLater(); else log(balance);
     *         });
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    protected final <Q, R> void awaitReply(ActorRef<Q> to, Function<? super ReplyTo<R>, ? extends Q> request,
            Duration timeout, BiConsumer<? super R, ? super Throwable> onResult) {
        requireOwnContext("awaitReply");
        Objects.requireNonNull(onResult, "onResult");
        requirePositive(timeout, "awaitReply");
        PendingReply<R> pending = new PendingReply<>(this, to, null, onResult, scheduler.roughNanoTime());
        AwaitedReplies.await(this, to, request, pending);
        pending.timeoutAfter(timeout, startedTimers("awaitReply"));
    }

    /** {@code d} in nanoseconds, saturated at {@code Long.MAX_VALUE} (about 292 years). */
    static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    final void requirePositive(Duration timeout, String op) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(op + "() of " + this + " needs a positive timeout, got " + timeout);
        }
    }

    /** Adds {@code delta} to the count of awaited replies (a count above 0 holds the actor's messages). */
    final void addAwaited(int delta) {
        STATUS.getAndAdd(this, delta * AWAIT_UNIT);
    }

    /** The actor's {@link AwaitedReplies}, created by the first call. */
    final AwaitedReplies replies() {
        return extras().replies();
    }

    /** The runtime the started actor runs on. */
    final Scheduler scheduler() {
        return scheduler;
    }

    /**
     * On release (the token held, before the activation completes): until now the activation kept the finish open
     * for the answers this actor's processing awaits; they get holds of their own.
     */
    private void holdAwaitedReplies() {
        AwaitedReplies r = awaitedReplies();
        if (r != null) {
            r.holdUnanswered(activation);
        }
    }

    /** The replies this actor awaits, or null if it never awaited one. */
    final AwaitedReplies awaitedReplies() {
        ActorExtras x = extras;
        return x == null ? null : x.replies;
    }

    // ------------------------------------------------------------------------------------------ observation

    /** The current life-cycle state. */
    public final ActorState state() {
        int s = status;
        if ((s & TERMINATED) != 0) {
            return ActorState.TERMINATED;
        }
        if ((s & STARTED) == 0) {
            return ActorState.NEW;
        }
        return (s & HELD) != 0 ? ActorState.PAUSED : ActorState.STARTED;
    }

    /** Messages sent to this actor that became dead letters. */
    public final long deadLetterCount() {
        ActorExtras x = extras;
        return x == null ? 0 : x.deadLetters;
    }

    /** Messages this actor has processed so far. */
    public final long processedCount() {
        Activation a = activation;
        return a == null ? 0 : a.processed();
    }

    /** Messages waiting in this actor's mailbox(es). */
    public final int mailboxSize() {
        return mailbox.size();
    }

    /** The runtime this actor was started in, or null before {@link #start()}. */
    public final TaskRuntime runtime() {
        Scheduler s = status != 0 ? scheduler : null;
        return s == null ? null : (TaskRuntime) s.facade();
    }

    /**
     * The timer of this actor's runtime; before start, of the runtime the caller runs in, or outside every runtime
     * a timer shared by the JVM (an {@code ask} may be sent to an actor that has not started yet).
     */
    final TimerService timers() {
        Scheduler s = status != 0 ? scheduler : null;
        if (s == null) {
            Node n = Context.current();
            if (n == null) {
                return TimerService.shared();     // not worth a whole runtime
            }
            s = n.scheduler();
        }
        return s.timers();
    }

    /** The timer of this actor's runtime, for {@code op}, which needs the actor started. */
    final TimerService startedTimers(String op) {
        Scheduler s = status != 0 ? scheduler : null;
        if (s == null) {
            throw new IllegalStateException(op + "() needs " + this + " started: its runtime's timer is not known"
                    + " before");
        }
        return s.timers();
    }

    /** Whether this actor still keeps its finish open (it has not terminated and released it). */
    final boolean isOpen() {
        return (status & RELEASED) == 0;
    }

    /** For hang reports; see {@link ActorDiagnostics#describeIfOpen}. */
    final String describeIfOpen(long ageNanos, String startedBy) {
        return ActorDiagnostics.describeIfOpen(this, status, ageNanos, startedBy);
    }

    /** What is queued, for diagnostics. */
    String queueReport() {
        return mailbox.size() + " queued" + (dispatch instanceof PolicyDispatch p
                ? ", " + p.policy.held() + " held by " + p.policy : "");
    }

    final int status() {
        return status;
    }

    /** {@code name@id}, as its reference shows it ({@link ActorRef#toString()}). */
    @Override
    public String toString() {
        return self.toString();
    }

    // ------------------------------------------------------------------------------------------ helpers

    /**
     * Before start() an actor may be configured from anywhere (the constructor, typically); after, only from its
     * own context.
     */
    final void requireOwnContextOnceStarted(String op) {
        if (status != 0) {
            requireOwnContext(op);
        }
    }

    /**
     * Once started, only the actor's own processing (a message, a reply handler: the thread that holds its token)
     * may change what it is: not even a task it spawned, which may run beside its next message.
     */
    private void requireProcessingOnceStarted(String op) {
        if (status != 0 && Context.current() != activation) {
            Node n = Context.current();
            if (n == null || n.owner() != this) {      // a foreign thread or context
                throw new IllegalStateException(this + "." + op + "() may only be called while " + this
                        + " processes a message or a reply (called from " + calledFrom(n) + ")");
            }
            throw new IllegalStateException(this + "." + op + "() may only be called while " + this
                    + " processes a message or a reply, not from a task it spawned or a finish inside its"
                    + " processing (whose tasks may run beside it)");
        }
    }

    final void requireOwnContext(String op) {
        Node n = Context.current();
        if (n == null || n.owner() != this) {
            throw new IllegalStateException(this + "." + op + "() may only be called while " + this
                    + " processes a message or from a task it spawned (called from " + calledFrom(n) + ")");
        }
    }

    /** Where a call from the context {@code n} (null: none) came from, for the errors above. */
    private String calledFrom(Node n) {
        return n == null ? "thread '" + Thread.currentThread().getName() + "' outside every task"
                : n.owner() != null ? "the context of " + n.owner() : n.describe() + ", not " + this + "'s";
    }

    /**
     * The message an envelope carries, as the actor's {@code process} will see it (a request, and a timer's
     * message, are wrapped).
     */
    static Object messageOf(Object envelope) {
        return envelope instanceof Request r ? r.message()
                : envelope instanceof ActorExtras.TimerMessage t ? t.message() : envelope;
    }
}

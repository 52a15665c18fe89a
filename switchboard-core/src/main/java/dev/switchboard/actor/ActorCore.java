package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What every kind of actor can do. Applications extend {@link Actor}, {@link StatelessActor} or {@link Selector};
 * this class, sealed to those kinds, holds the life cycle and the operations they inherit.
 * <ul>
 *   <li>{@link #start()} (or {@link #start(String)}, with a name) joins the current finish scope and returns the
 *       actor's {@linkplain ActorRef reference}, the one thing senders hold; {@link #self()} gives it to the
 *       actor. The finish ends only after the actor has exited.</li>
 *   <li>{@link #onStart()} runs before the first message, {@link #onExit()} once the actor has terminated.</li>
 *   <li>While it processes a message the actor may {@link #exit()}, {@link #pause()} and {@link #resume()},
 *       {@link #become} and {@link #unbecome}, ask another actor with {@link #awaitReply} (answers go out with
 *       {@link #reply}), and use any task-parallel construct: {@code async}, {@code finish}, futures.</li>
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
     * schedules the activation (on a worker, through the worker's handoff buffer). Whoever holds SCHEDULED is the
     * only consumer of the mailbox. The activation processes up to the runtime's throughput budget of messages,
     * then re-queues itself behind other work if more messages and other work are waiting; when the mailbox is
     * empty it clears SCHEDULED and re-checks the mailbox (release-then-recheck). Enqueue-then-check on the
     * sender side and release-then-recheck on the consumer side are both full fences on different words, so
     * either the sender sees SCHEDULED cleared or the consumer sees the message: no wake-up is lost. Nothing is
     * allocated per message.
     *
     * The life cycle lives in the same word: STARTED, PAUSED, TERMINATED, and RELEASED (the activation has been
     * completed into the finish). exit() and failures set TERMINATED; whichever thread holds (or next acquires)
     * SCHEDULED then turns the remaining mailbox into dead letters and completes the activation, which releases
     * the enclosing finish once every task the actor spawned has ended too.
     *
     * The status word, bit by bit (all changes are atomic read-modify-writes on it):
     *
     *   bit(s)      name        set by                                     cleared by
     *   0           SCHEDULED   a CAS by whoever finds the actor runnable   its holder, when it gives the token up
     *                           and untaken: signal(), reacquire(),         (end of the activation loop or a
     *                           holdIdle(); refuseStart()                   monitor turn, after draining, releaseHeld)
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
     * The seam for other actor kinds. Kinds differ in two things and share everything else:
     * - Where messages wait and which one is next: the Mailbox object. Actor has one always-enabled queue
     *   (SingleMailbox, also the mailbox of a one-mailbox selector); a Selector with several guarded mailboxes
     *   picks the next message among the enabled, non-empty ones under its selection policy (GuardedMailboxes).
     *   The loop calls the mailbox object, not the actor, so its call sites stay monomorphic or bimorphic.
     * - How a message is started: dispatch(). By default it is processed inline, one at a time, by the
     *   activation. StatelessActor starts each message as a task of its own (MessageTask) and returns at once,
     *   so messages run in parallel; a parallel actor monitor (a bound MessageScheduler) starts the letters its
     *   policy chooses the same way.
     * Two hooks let a kind keep its own invariants: afterDispatch() (a selector re-evaluates its declarative
     * guards) and onQuiet() (a selector with every mailbox disabled and nothing left that could enable one
     * reports itself stuck). The status word, the activation loop, the finish accounting and the dead-letter
     * rules stay the same for all of them.
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
    /** The most a queue of an actor holds: its mailbox's, and the reply handlers' and monitor tickets' queues. */
    static final int MAX_QUEUED = 1 << 30;
    /** Flags that keep an actor from taking its next message (it still runs reply continuations). */
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
    /** Marks {@link #process} on the become stack. */
    @SuppressWarnings("rawtypes")
    private static final Behavior DEFAULT_BEHAVIOR = message -> {
        throw new AssertionError("marker behavior is never run");
    };

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATUS = l.findVarHandle(ActorCore.class, "status", int.class);
            ACTIVATION = l.findVarHandle(ActorCore.class, "activation", Activation.class);
            EXTRAS = l.findVarHandle(ActorCore.class, "extras", Extras.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /*
     * Implementation notes: memory.
     *
     * An actor is four objects while it is idle: this one (48 bytes with compressed oops and no fields of the
     * subclass), its mailbox (SingleMailbox: 24 bytes, its queue created by the first message; see there), its
     * reference (LocalRef: 32 bytes) and its Activation (88 bytes), about 194 bytes in all. Everything only some actors need is in Extras, created
     * the first time an actor needs it: become's stack, a request's reply bookkeeping, awaitReply's queues, a
     * bound monitor, dead-letter counts, a pending onStart(), a name. Hot paths test one field for null where they
     * tested several: `extras` is null for an actor that never used any of it.
     *
     * `extras` is published with a CAS (compareAndExchange: a volatile write of a fully constructed object) and
     * read as a volatile field; its own fields keep the access modes and the confinement they had as fields of
     * the actor. The runtime's close() marks the actor with the BY_CLOSE bit of the status word, set with or
     * before TERMINATED, so that a close never has to allocate.
     */

    /** Where messages wait; see {@link Mailbox}. */
    final Mailbox mailbox;
    /** The reference senders hold; see {@link LocalRef}. */
    final LocalRef<M> self;
    /** Whether messages are started as parallel tasks instead of processed inline. */
    private final boolean parallelDispatch;
    /** The bound of a {@link BoundedMailbox}, or null: unbounded. */
    private final MailboxLimit limit;

    /** The status word: SCHEDULED, PAUSED, STARTED, TERMINATED, RELEASED, BY_CLOSE and the awaited-reply count. */
    private volatile int status;
    /** Set by start() before STARTED is published; read by senders after they read STARTED. */
    private volatile Activation activation;
    private Scheduler scheduler;
    /** Confined to the holder of SCHEDULED (the processing); null while the actor runs {@link #process}. */
    private Behavior<M> behavior;
    /** What only some actors need, or null: created by the first use ({@link #extras()}). */
    private volatile Extras extras;

    /** The state of an actor that only some actors need (see the implementation notes above). */
    private static final class Extras {
        private static final VarHandle DEAD_LETTERS;
        private static final VarHandle EARLY_DEAD_LETTERS;
        private static final VarHandle CONTINUATIONS;
        private static final VarHandle AWAITING;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                DEAD_LETTERS = l.findVarHandle(Extras.class, "deadLetters", long.class);
                EARLY_DEAD_LETTERS = l.findVarHandle(Extras.class, "earlyDeadLetters", long.class);
                CONTINUATIONS = l.findVarHandle(Extras.class, "continuations", MailboxQueue.class);
                AWAITING = l.findVarHandle(Extras.class, "awaiting", ConcurrentLinkedQueue.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The bound thread-less scheduler (a parallel actor monitor), or null; set before start. */
        MessageScheduler messageScheduler;
        /** Tickets of scheduled messages that have been processed, waiting for the scheduler's finished(). */
        MailboxQueue finishedTickets;
        /** Reply handlers ready to run on the actor; created by the first awaitReply. */
        volatile MailboxQueue continuations;
        /** Replies awaited and not yet handled, for diagnostics and for exit; created by the first awaitReply. */
        volatile ConcurrentLinkedQueue<PendingReply<?>> awaiting;

        // Confined to the holder of SCHEDULED (the processing).
        @SuppressWarnings("rawtypes")
        ArrayDeque<Behavior> behaviors;
        Request currentRequest;
        Thread requestThread;
        boolean replyTaken;
        /**
         * During a scheduler turn run by a letter that has just finished on this thread: that letter's task, which
         * can run the next letter the turn starts right after the turn, on this thread (see
         * {@link #startScheduled}).
         */
        MessageTask continuation;
        /** During a scheduler turn: whether the turn's thread has a letter to continue with already. */
        boolean continuing;

        volatile long deadLetters;
        /** Dead letters from before start(), for the runtime's count once there is a runtime. */
        volatile long earlyDeadLetters;
        /**
         * Set by start() when the class overrides onStart(), before it publishes STARTED; cleared by the holder of
         * SCHEDULED that runs the hook. Senders read it plainly in {@link #runnable}: a stale true only makes
         * one of them schedule an activation that finds nothing to do.
         */
        boolean startPending;
        /** The name given to start(name), or null; written before the start publishes the actor. */
        String name;

        /** The replies the actor awaits (created by the first awaitReply). */
        ConcurrentLinkedQueue<PendingReply<?>> awaitingReplies() {
            ConcurrentLinkedQueue<PendingReply<?>> a = awaiting;
            if (a == null) {
                ConcurrentLinkedQueue<PendingReply<?>> fresh = new ConcurrentLinkedQueue<>();
                a = AWAITING.compareAndSet(this, null, fresh) ? fresh : awaiting;
            }
            return a;
        }

        /** The reply handlers ready to run (created by the first reply that arrives). */
        MailboxQueue continuationQueue() {
            MailboxQueue cs = continuations;
            if (cs == null) {
                MailboxQueue fresh = new MailboxQueue(4, MAX_QUEUED);
                cs = CONTINUATIONS.compareAndSet(this, null, fresh) ? fresh : continuations;
            }
            return cs;
        }

        boolean hasContinuations() {
            MailboxQueue cs = continuations;
            return cs != null && !cs.isEmpty();
        }

        boolean hasFinishedTickets() {
            return finishedTickets != null && !finishedTickets.isEmpty();
        }
    }

    /** The actor's {@link Extras}, created (and published with a CAS) by the first call. */
    private Extras extras() {
        Extras x = extras;
        if (x == null) {
            Extras fresh = new Extras();
            x = (Extras) EXTRAS.compareAndExchange(this, null, fresh);
            if (x == null) {
                x = fresh;
            }
        }
        return x;
    }

    /** Whether this actor has needed its {@link Extras}; for tests. */
    final boolean hasExtras() {
        return extras != null;
    }

    /** The bound monitor, or null (read by senders after STARTED, which start() published it with). */
    private MessageScheduler messageScheduler() {
        Extras x = extras;
        return x == null ? null : x.messageScheduler;
    }

    ActorCore(Mailbox mailbox, boolean parallelDispatch, BoundedMailbox bound) {
        this.mailbox = mailbox;
        this.self = newRef();
        this.parallelDispatch = parallelDispatch;
        this.limit = bound == null ? null
                : new MailboxLimit(bound, mailbox instanceof SelectorMailboxes m ? m.mailboxes() : 1);
    }

    /**
     * Processes one message. Runs for one message at a time (unless this is a {@link StatelessActor}); an
     * exception escaping it terminates the actor and is rethrown by the finish the actor was started in.
     */
    protected abstract void process(M message);

    // ------------------------------------------------------------------------------------------ the seam

    /**
     * Starts processing one envelope. By default the activation processes it inline; a parallel kind (see
     * {@link StatelessActor}) starts it as a task of its own.
     */
    void dispatch(Object envelope) {
        if (parallelDispatch) {
            MessageTask task = new MessageTask(activation, envelope);
            task.scheduler().submit(task);
        } else {
            processEnvelope(envelope, true);
        }
    }

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
     * default runtime's global scope.
     *
     * @return the actor's reference, which senders hold
     * @throws IllegalStateException if this actor was already started
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
        Extras x = extras;
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
        Node context = Context.current();
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
        Extras x = extras;
        if (x != null && x.earlyDeadLetters != 0) {
            s.countDeadLetters((long) Extras.EARLY_DEAD_LETTERS.getAndSet(x, 0L));
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
        STATUS.getAndBitwiseOr(this, initial);   // publishes activation and scheduler to senders
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
        Extras x = extras;
        if (x != null) {
            s.countDeadLetters((long) Extras.EARLY_DEAD_LETTERS.getAndSet(x, 0L));
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
     * have ended. Idempotent.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void exit() {
        requireOwnContext("exit");
        terminate();
    }

    /**
     * Stops processing further messages until {@link #resume()}; messages keep arriving (paper 002 §5.1.2).
     * Does not block.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void pause() {
        requireOwnContext("pause");
        requireNoMonitor("pause()", "hold the letters in the monitor instead");
        STATUS.getAndBitwiseOr(this, PAUSED);
    }

    /**
     * An actor bound to a monitor does not take messages itself: its monitor starts them, possibly several at once.
     * Holding it ({@code pause}, {@code awaitReply}) would not hold the letters already started, so it is refused.
     */
    private void requireNoMonitor(String op, String instead) {
        MessageScheduler ms = messageScheduler();
        if (ms != null) {
            throw new IllegalStateException(this + "." + op + " is not supported: " + this + " is bound to the monitor "
                    + ms + ", which decides when its messages run; " + instead);
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
        Extras x = extras();
        if (x.behaviors == null) {
            x.behaviors = new ArrayDeque<>();
        }
        x.behaviors.push(behavior != null ? behavior : DEFAULT_BEHAVIOR);
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
        Extras x = extras;
        if (x == null || x.behaviors == null || x.behaviors.isEmpty()) {
            throw new IllegalStateException(this + ".unbecome() without a matching become()");
        }
        @SuppressWarnings("unchecked")
        Behavior<M> previous = x.behaviors.pop();
        behavior = previous == DEFAULT_BEHAVIOR ? null : previous;
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

    /** {@link ActorRef#request}. */
    final void request(M message, DataDrivenFuture<Object> reply) {
        Objects.requireNonNull(message, () -> "null request sent to " + this);
        Objects.requireNonNull(reply, "reply");
        enqueue(new Request(message, reply), routeOf(message));
    }

    /** Enqueues an envelope into mailbox {@code index} (already checked) and schedules the actor if needed. */
    final void enqueue(Object envelope, int index) {
        enqueue(mailbox, envelope, index);
    }

    /**
     * {@link #enqueue(Object, int)} with the mailbox as the caller holds it: a reference keeps the actor's
     * mailbox beside the actor, so a sender reads both from the reference at once instead of the mailbox after
     * the actor.
     */
    final void enqueue(Mailbox box, Object envelope, int index) {
        MailboxLimit l = limit;
        if ((status & TERMINATED) != 0) {
            deadLetter(envelope, DeadLetter.Reason.RECIPIENT_TERMINATED);
        } else if (l != null && !l.tryReserve(index) && !overflow(envelope, index, l)) {
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
    private boolean overflow(Object envelope, int index, MailboxLimit l) {
        BoundedMailbox b = l.bound;
        switch (b.whenFull()) {
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
                            + ageMillis(System.nanoTime() - start).replace(" ago", "") + " of waiting for room)");
                    default -> throw mailboxFull(envelope, index, b, " (no room within "
                            + ageMillis(b.maxWait().toNanos()).replace(" ago", "") + ")");
                }
            }
        }
    }

    private MailboxFullException mailboxFull(Object envelope, int index, BoundedMailbox b, String why) {
        return new MailboxFullException(mailboxName(index) + " is full (capacity " + b.capacity() + ", "
                + b.whenFull() + "): " + brief(messageOf(envelope)) + " was not sent" + why, self, b.capacity());
    }

    /** "the mailbox of Foo@3", or for a selector with several, "mailbox 2 of Foo@3". */
    String mailboxName(int index) {
        return "the mailbox of " + this;
    }

    /** Gives back the place of the envelope just taken from the mailbox, if the mailbox is bounded. */
    private void released() {
        MailboxLimit l = limit;
        if (l != null && !parallelDispatch && messageScheduler() == null) {
            l.release(mailbox.lastServed());
        }
    }

    /**
     * Gives back the place of a message taken from a bounded mailbox by a kind that processes it later, as a task
     * of its own (a stateless actor, an actor under a monitor): when its processing ends, or it becomes a dead
     * letter unprocessed. Otherwise the backlog would only move from the mailbox to the tasks or the monitor.
     */
    private void releasedLater() {
        MailboxLimit l = limit;
        if (l != null && (parallelDispatch || messageScheduler() != null)) {
            l.release(0);                        // one mailbox: a monitor on a bounded selector needs one (bindScheduler)
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

    /** With the token just taken for work: runs it (a terminated actor's dead letters, a monitor's turns) or schedules the activation. */
    private void runAcquired() {
        if ((status & TERMINATED) != 0) {
            drainOrRelease();
        } else if (messageScheduler() != null && scheduler.onWorker()) {
            runSchedulerTurns();                          // thread-less: on the worker that is already here
        } else {
            // An actor's activation; or the turns of a monitor whose sender is not a worker (the main thread,
            // say). Those go to a worker too: there the letters a turn starts are handed off on the same core,
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
        report(failure, what);
        STATUS.getAndBitwiseOr(this, TERMINATED);
        drainOrRelease();
    }

    /** Whether a started, non-terminated actor with status {@code s} has something it may run now. */
    private boolean runnable(int s) {
        if ((s & STARTED) == 0) {
            return false;
        }
        Extras x = extras;
        if (x != null) {
            if (x.messageScheduler != null) {  // a monitor takes every arrival and every finished message
                return x.startPending || mailbox.hasAny() || !x.finishedTickets.isEmpty();
            }
            if (x.startPending || x.hasContinuations()) {
                return true;
            }
        }
        return (s & HELD) == 0 && mailbox.hasReady();
    }

    final boolean hasContinuations() {
        Extras x = extras;
        return x != null && x.hasContinuations();
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
                    ? (s & RELEASED) == 0 || mailbox.hasAny() || hasContinuations() || hasFinishedTickets()
                    : runnable(s);
            if (!work) {
                return false;
            }
            if (STATUS.compareAndSet(this, s, s | SCHEDULED)) {
                return true;
            }
        }
    }

    // ------------------------------------------------------------------------------------------ processing

    private boolean hasFinishedTickets() {
        Extras x = extras;
        return x != null && x.hasFinishedTickets();
    }

    /** The activation loop: runs with the SCHEDULED token held, and gives it up (or re-queues) before returning. */
    final void runActivation() {
        if (messageScheduler() != null) {
            runSchedulerTurns();
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
                budget = scheduler.budget();               // nobody is waiting for this worker: go on
                continue;
            }
            STATUS.getAndBitwiseAnd(this, ~SCHEDULED);    // release ...
            if (!reacquire()) {                           // ... then re-check
                onQuiet();
                return;
            }
        }
    }

    /**
     * The dispatch of an actor with a bound {@link MessageScheduler}, run with the token held, on whatever thread
     * took it (a sender, or the task of a message that just finished). Each turn first reports the finished
     * messages, then the new arrivals, then lets the scheduler start what it wants; the token serialises turns.
     */
    private void runSchedulerTurns() {
        Thread thread = Thread.currentThread();
        Node previous = Context.enter(thread, activation);
        MessageTask finishing = previous instanceof MessageTask mt && mt.actor == this ? mt : null;
        Extras x = extras;                       // bindScheduler created it
        MessageScheduler messageScheduler = x.messageScheduler;
        try {
            for (;;) {
                if ((status & TERMINATED) != 0) {
                    drainOrRelease();
                    return;
                }
                if (x.startPending) {
                    runStartHook(x);
                    continue;                             // terminated by it, or on to the letters
                }
                // set and cleared with the token held: the fields belong to this turn alone
                x.continuing = finishing != null && finishing.hasNext();
                x.continuation = x.continuing ? null : finishing;
                try {
                    boolean changed = false;
                    Object ticket;
                    while ((ticket = x.finishedTickets.poll()) != null) {
                        messageScheduler.finished(ticket);
                        changed = true;
                    }
                    Object envelope;
                    while ((envelope = mailbox.poll()) != null) {
                        released();
                        messageScheduler.arrived(envelope, messageOf(envelope));
                        changed = true;
                    }
                    if (changed && (status & TERMINATED) == 0) {
                        messageScheduler.turn();
                    }
                } catch (Throwable t) {
                    fail(t, "its monitor " + messageScheduler + " threw");
                    continue;
                } finally {
                    x.continuation = null;
                    x.continuing = false;
                }
                STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
                if (!reacquire()) {
                    return;
                }
            }
        } finally {
            Context.restore(thread, previous);
        }
    }

    /**
     * Starts a message its scheduler chose (called with the token held). When the turn runs on the thread of a
     * letter that has just finished, the first letter it starts becomes that task's next letter: it runs right
     * after the turn, on this warm core, with no task, no queue and no wake-up, so a monitor that starts one
     * letter at a time (a mutex) runs a stream of letters like an actor's activation runs its messages, within
     * the same throughput budget. Any other letter is a task of its own: on a worker it goes through the handoff
     * buffer, running after the current turn unless an idle worker can take it; when this thread already has a
     * letter to continue with, it is forked instead, so an idle worker can steal it at once rather than find it
     * hidden behind the continuation.
     */
    private void startScheduled(Object envelope, Object ticket) {
        Extras x = extras;
        MessageTask c = x.continuation;
        if (c != null) {
            x.continuation = null;
            if (c.continueWith(envelope, ticket)) {
                x.continuing = true;
                return;
            }
        }
        MessageTask task = new MessageTask(activation, envelope, ticket);
        if (x.continuing) {
            task.scheduler().submit(task);
        } else {
            task.scheduler().activate(task);
        }
    }

    /** A message started by the scheduler has been processed: report it (on this thread if the token is free). */
    final void scheduledMessageFinished(Object ticket) {
        if (!extras.finishedTickets.offer(ticket)) {
            throw new IllegalStateException(this + " has " + MAX_QUEUED + " finished letters its monitor has not seen");
        }
        signal();
    }

    /**
     * Binds a thread-less message scheduler (a parallel actor monitor, {@code dev.switchboard.monitor.Monitor})
     * to this actor: from now on every message becomes the scheduler's to start. Call it before {@link #start()}.
     *
     * @throws IllegalStateException if this actor was started already or has a scheduler
     */
    public final synchronized void bindScheduler(MessageScheduler s) {
        Objects.requireNonNull(s, "scheduler");
        if (status != 0 || activation != null) {
            throw new IllegalStateException(this + " was already started: bind its monitor before start()");
        }
        if (messageScheduler() != null) {
            throw new IllegalStateException(this + " already has a monitor: " + messageScheduler());
        }
        if (parallelDispatch) {
            throw new IllegalStateException(this + " is a stateless actor; a monitor needs an Actor or Selector");
        }
        if (limit != null && mailbox instanceof SelectorMailboxes m && m.mailboxes() > 1) {
            throw new IllegalStateException(this + " has several bounded mailboxes; a monitor can be bound to an actor"
                    + " with a bounded mailbox, or a selector whose mailboxes are unbounded");
        }
        Extras x = extras();
        x.finishedTickets = new MailboxQueue(16, MAX_QUEUED);
        s.bound(self, this::startScheduled);
        x.messageScheduler = s;                // published to senders by start()'s release of STARTED
    }

    /** The bound message scheduler, or null. */
    public final MessageScheduler boundScheduler() {
        return messageScheduler();
    }

    /**
     * Runs one reply continuation, or else one message if the actor is neither paused nor awaiting a reply.
     * Returns whether it ran anything.
     */
    private boolean runOne(int s) {
        Extras x = extras;
        if (x != null) {
            if (x.startPending) {
                runStartHook(x);
                return true;
            }
            MailboxQueue cs = x.continuations;
            Object c = cs == null ? null : cs.poll();
            if (c != null) {
                ((PendingReply<?>) c).run();
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
        dispatch(envelope);
        afterDispatch();
        return true;
    }

    /** Runs {@link #onStart()} (with the token held, in the actor's context). */
    private void runStartHook(Extras x) {
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
        Extras x = extras;
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
     * Processes one envelope on the current thread: the default dispatch ({@code serial}, on the activation
     * holding the token) and the body of a {@link MessageTask} (in parallel with other messages).
     */
    @SuppressWarnings("unchecked")
    final void processEnvelope(Object envelope, boolean serial) {
        Object message = envelope;
        Request request = null;
        if (envelope instanceof Request r) {
            request = r;
            message = r.message();
            if (serial) {
                Extras x = extras();
                x.currentRequest = r;
                x.requestThread = Thread.currentThread();
                x.replyTaken = false;
            }
        }
        try {
            Behavior<M> b = behavior;
            if (b == null) {
                process((M) message);
            } else {
                b.process((M) message);
            }
        } catch (Throwable t) {
            fail(t, "this exception escaped process(" + brief(message) + ")");
        } finally {
            if (request != null) {
                finishRequest(request, message, serial);
            }
            activation.countProcessed(serial);
            if (!serial) {
                releasedLater();
            }
            Thread.interrupted();      // an interrupt set while processing this message is not seen by the next
        }
    }

    private void finishRequest(Request request, Object message, boolean serial) {
        boolean taken;
        if (serial) {
            Extras x = extras;
            taken = x.replyTaken;
            x.currentRequest = null;
            x.requestThread = null;
        } else {
            taken = Context.current() instanceof MessageTask mt && mt.replyTaken;
        }
        if (!taken && !request.reply().isDone()) {
            request.reply().tryFail(new NoReplyException(this + " processed the request " + brief(message)
                    + " without replying (call reply(...) while processing it, or take replyChannel())"));
        }
    }

    /** Terminates the actor because of {@code failure}; the failure goes to the actor's finish scope. */
    final void fail(Throwable failure, String what) {
        report(failure, what);
        terminate();
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
        activation.scope().addFailure(reported);
    }

    private void terminate() {
        terminate(0);
    }

    /** Sets TERMINATED and {@code also}; drains the actor here if nobody holds its token. */
    private void terminate(int also) {
        int s = (int) STATUS.getAndBitwiseOr(this, TERMINATED | also);
        if ((s & SCHEDULED) == 0 && reacquire()) {
            drainOrRelease();
        }
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
        try {
            report(failure, "it failed outside process(): in its mailbox, its selection policy or the runtime itself");
        } catch (Throwable t) {
            activation.scope().addFailure(failure);
        }
        STATUS.getAndBitwiseOr(this, TERMINATED);
        drainOrRelease();
    }

    /**
     * A message started as a task of its own could not be queued: it is a dead letter, and unless the runtime was
     * closed (which terminates the actor anyway) the actor fails with the cause, since a monitor bound to it would
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
    private void drainOrRelease() {
        try {
            drainTerminated();
        } catch (Throwable t) {
            activation.scope().addFailure(t);
            if (((int) STATUS.getAndBitwiseOr(this, RELEASED) & RELEASED) == 0) {
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
        do {
            Object envelope;
            while ((envelope = mailbox.pollAny()) != null) {
                released();
                deadLetter(envelope, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
            }
            if (limit != null) {
                limit.wakeAll();                   // waiting senders see the exit and dead-letter their messages
            }
            Extras x = extras;
            MailboxQueue cs = x == null ? null : x.continuations;
            if (cs != null) {
                Object c;
                while ((c = cs.poll()) != null) {  // replies that came after exit: their handlers do not run
                    x.awaitingReplies().remove(c);
                    deadLetter(((PendingReply<?>) c).arrived(), DeadLetter.Reason.REPLY_AFTER_EXIT);
                }
            }
            MessageScheduler messageScheduler = x == null ? null : x.messageScheduler;
            if (messageScheduler != null) {
                Object ticket;
                while ((ticket = x.finishedTickets.poll()) != null) {
                    try {
                        messageScheduler.finished(ticket);   // leave() still runs once per processed letter
                    } catch (Throwable t) {
                        activation.scope().addFailure(t);
                    }
                }
                messageScheduler.terminated(e -> {
                    releasedLater();
                    deadLetter(e, DeadLetter.Reason.UNPROCESSED_AT_EXIT);
                });
            }
            if ((status & RELEASED) == 0) {
                runExitHook();
                STATUS.getAndBitwiseOr(this, RELEASED);
                activation.sealSpawns();
                activation.tryComplete();   // the lingering task ends; the finish waits only for our children now
            }
            STATUS.getAndBitwiseAnd(this, ~SCHEDULED);
        } while (reacquire());
    }

    private void deadLetter(Object envelope, DeadLetter.Reason reason) {
        boolean byClose = (status & BY_CLOSE) != 0;
        if (byClose && reason != DeadLetter.Reason.MAILBOX_FULL) {
            reason = DeadLetter.Reason.RUNTIME_CLOSED;
        }
        Object message = envelope;
        if (envelope instanceof Request r) {
            message = r.message();
            if (!r.reply().isDone()) {
                r.reply().tryFail(new NoReplyException(this + (byClose
                        ? " was terminated by the close of its runtime before processing the request "
                        : " terminated before processing the request ") + brief(message)));
            }
        }
        Extras x = extras();
        Extras.DEAD_LETTERS.getAndAdd(x, 1L);
        Scheduler s = scheduler;
        if (s == null) {
            // Not started yet (a bounded mailbox dropped it): it has no runtime to tell. The actor counts it, and
            // its runtime adds it to its own count at start(); the listener does not hear of it.
            Extras.EARLY_DEAD_LETTERS.getAndAdd(x, 1L);
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
     * Sends {@code request} to {@code to} and runs {@code onReply} with the answer when it arrives; until then
     * this actor processes no further message — a synchronous receive that blocks no thread (paper 002 §5.2,
     * Fig. 11 and 16). Call it while processing a message (or from a reply handler, to chain requests).
     *
     * <p>The handler runs on this actor, in its processing context, never at the same time as the processing of
     * a message or another handler: it may touch the actor's state, call {@code awaitReply} again, {@code exit},
     * and so on. Several outstanding requests are allowed; the next message is processed once every handler
     * has run. A user {@link #pause()} stays in force independently. If no reply can come (the receiver exited,
     * or processed the request without replying), this actor fails with a {@link NoReplyException}.
     *
     * <pre>{@code
     * case Start s -> awaitReply(bank, new Balance(account), (Long balance) -> log(balance));
     * }</pre>
     */
    protected final <Q, R> void awaitReply(ActorRef<Q> to, Q request, Consumer<? super R> onReply) {
        requireOwnContext("awaitReply");
        Objects.requireNonNull(onReply, "onReply");
        PendingReply<R> pending = new PendingReply<>(this, to, request, onReply);
        await(to, request, pending.answer, pending);
    }

    /**
     * {@link #awaitReply(ActorRef, Object, Consumer)} with a deadline, and a handler that hears failures too:
     * {@code onResult} runs once, on this actor, with {@code (reply, null)} when the reply arrives within
     * {@code timeout}, or with {@code (null, failure)}: a {@link ReplyTimeoutException} naming this actor,
     * {@code to} and the request when none came in time, a {@link NoReplyException} when {@code to} cannot
     * answer. Either way this actor takes messages again once the handler has run; a failure does not terminate
     * it (an exception escaping the handler does). A reply sent after the timeout is a dead letter
     * ({@link DeadLetter.Reason#REPLY_TOO_LATE}), and the actor that sends it is not disturbed.
     *
     * <pre>{@code
     * case Start s -> awaitReply(bank, new Balance(account), Duration.ofMillis(200), (Long balance, Throwable f) -> {
     *     if (f != null) retryLater(); else log(balance);
     * });
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    protected final <Q, R> void awaitReply(ActorRef<Q> to, Q request, Duration timeout,
            BiConsumer<? super R, ? super Throwable> onResult) {
        requireOwnContext("awaitReply");
        Objects.requireNonNull(onResult, "onResult");
        long nanos = timeout.toNanos();
        if (nanos <= 0) {
            throw new IllegalArgumentException(this + ".awaitReply() needs a positive timeout, got " + timeout);
        }
        PendingReply<R> pending = new PendingReply<>(this, to, request, onResult);
        // The request carries a channel of its own, so that a reply after the deadline completes the channel
        // (the replier is not disturbed, however it answers) and becomes a dead letter here.
        DataDrivenFuture<Object> channel = new DataDrivenFuture<>();
        await(to, request, channel, pending);
        channel.toCompletableFuture().whenComplete((reply, failure) -> {
            Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
            if (!(cause == null ? pending.answer.tryPut(reply) : pending.answer.tryFail(cause))) {
                deadLetter(cause == null ? reply : cause, DeadLetter.Reason.REPLY_TOO_LATE);
            }
        });
        // The JDK's timer thread fails the answer at the deadline unless the reply came first.
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(() -> {
            if (!pending.answer.isDone()) {
                pending.answer.tryFail(new ReplyTimeoutException(self, to, brief(request), timeout));
            }
        });
    }

    /**
     * Sends {@code request} with {@code channel} for the reply, and holds messages until {@code pending}'s handler
     * has run (it runs once {@code pending.answer} is done).
     */
    private <Q> void await(ActorRef<Q> to, Q request, DataDrivenFuture<Object> channel, PendingReply<?> pending) {
        if (to.equals(self)) {
            throw new IllegalArgumentException(this + ".awaitReply() to itself would wait forever: it takes no"
                    + " message until the reply, and only it could send the reply");
        }
        requireNoMonitor("awaitReply()", "send the reply as a message, or request() into a future and asyncAwait it");
        scheduler.requireOpen("awaitReply");
        STATUS.getAndAdd(this, AWAIT_UNIT);          // hold further messages until the handler has run
        Extras x = extras();
        x.awaitingReplies().add(pending);
        try {
            to.request(request, channel);
        } catch (Throwable t) {                      // not sent (a full bounded mailbox, say): nothing to await
            x.awaitingReplies().remove(pending);
            STATUS.getAndAdd(this, -AWAIT_UNIT);
            throw t;
        }
        try {
            TaskRuntime.current().asyncAwait(pending.answer, () -> runOnActor(pending));
        } catch (Throwable t) {                      // the runtime closed meanwhile: nothing will await the reply
            x.awaitingReplies().remove(pending);
            STATUS.getAndAdd(this, -AWAIT_UNIT);
            throw t;
        }
    }

    /**
     * Runs the handler of a reply that has arrived, on this actor (called by {@link PendingReply#run()}, which
     * the activation runs ahead of messages). A handler that throws fails the actor, and so does a request that
     * failed, unless the handler takes failures (the form with a timeout).
     */
    final <R> void replyArrived(PendingReply<R> pending) {
        try {
            pending.handle();
        } catch (Throwable t) {
            Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            fail(cause, "the reply to " + brief(pending.request) + " from " + pending.target
                    + " could not be processed");
        } finally {
            extras.awaitingReplies().remove(pending);   // awaitReply created the extras
            STATUS.getAndAdd(this, -AWAIT_UNIT);
        }
    }

    /** Queues {@code continuation} to run on this actor's activation, ahead of messages and despite a pause. */
    private void runOnActor(PendingReply<?> continuation) {
        if (!extras.continuationQueue().offer(continuation)) {     // awaitReply created the extras
            throw new IllegalStateException(this + " has " + MAX_QUEUED + " reply handlers waiting to run");
        }
        signal();
    }

    /**
     * Answers the request being processed (sent with {@link ActorRef#request} or {@code awaitReply}). Must be
     * called by the processing itself; a task that answers later takes {@link #replyChannel()} first.
     *
     * @throws IllegalStateException if the current message is not a request, or it was already answered
     */
    protected final void reply(Object value) {
        Request r = requireRequest("reply");
        r.reply().put(value);
    }

    /**
     * Takes the reply channel of the request being processed, to answer it later from another task (the
     * actor's processing then does not fail the request for lack of a reply).
     */
    protected final DataDrivenFuture<Object> replyChannel() {
        Request r = requireRequest("replyChannel");
        if (Context.current() instanceof MessageTask mt) {
            mt.replyTaken = true;
        } else {
            extras.replyTaken = true;              // processEnvelope created the extras for the request
        }
        return r.reply();
    }

    private Request requireRequest(String op) {
        Request r = null;
        Extras x = extras;
        if (x != null && x.requestThread == Thread.currentThread()) {
            r = x.currentRequest;
        } else if (Context.current() instanceof MessageTask mt && mt.actor == this) {
            r = mt.request();
        }
        if (r == null) {
            throw new IllegalStateException(this + "." + op + "() called outside the processing of a request"
                    + " (the message was sent with send(), not request()/awaitReply(), or " + op
                    + "() was called from another task: take replyChannel() while processing instead)");
        }
        return r;
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
        Extras x = extras;
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

    /** Whether this actor still keeps its finish open (it has not terminated and released it). */
    final boolean isOpen() {
        return (status & RELEASED) == 0;
    }

    final String describeIfOpen(long ageNanos, String startedBy) {
        int s = status;
        if ((s & RELEASED) != 0) {
            return null;
        }
        String age = ageMillis(ageNanos);
        String what = (s & TERMINATED) != 0 ? "exited, waiting for tasks it spawned"
                : (s & PAUSED) != 0 ? "never exited (paused: nothing will process its mailbox until resume())"
                : (s & AWAIT_MASK) != 0 ? "never exited (" + describeAwaits(s) + ")"
                : "never exited";
        String activity = (s & SCHEDULED) != 0 ? "running or scheduled" : "idle";
        return "actor " + this + " started by thread '" + startedBy + "' " + age + ": " + what
                + " (" + activity + ", " + queueReport() + ", " + processedCount() + " processed)";
    }

    /**
     * For hang reports: the replies this actor awaits, whom from, whether that actor can answer at all, and
     * whether the wait is part of a cycle of actors awaiting each other (a deadlock: each holds its messages,
     * the other's request among them, until its own reply comes).
     */
    private String describeAwaits(int s) {
        int count = (s & AWAIT_MASK) >>> 8;
        StringBuilder sb = new StringBuilder("awaiting ").append(count).append(count == 1 ? " reply" : " replies");
        Extras x = extras;
        ConcurrentLinkedQueue<PendingReply<?>> a = x == null ? null : x.awaiting;
        if (a == null) {
            return sb.toString();
        }
        long now = System.nanoTime();
        for (PendingReply<?> p : a) {
            sb.append(": from ").append(p.target).append(" to ").append(brief(p.request)).append(", for ")
              .append(ageMillis(now - p.sinceNanos).replace(" ago", ""));
            if (p.target instanceof LocalRef<?> r) {
                ActorCore<?> t = r.actor;
                ActorState ts = t.state();
                if (ts == ActorState.NEW) {
                    sb.append(" (").append(t).append(" was never started: the request waits in its mailbox)");
                } else if (ts == ActorState.TERMINATED) {
                    sb.append(" (").append(t).append(" has exited)");
                }
                String cycle = awaitCycle(t);
                if (cycle != null) {
                    sb.append("; a deadlock: ").append(cycle);
                }
            }
            if (p.answer.isDone()) {
                sb.append(" (the reply is in; its handler waits to run)");
            }
        }
        return sb.toString();
    }

    /**
     * If following "awaits a reply from" starting at {@code next} leads back to this actor, the cycle, e.g.
     * {@code A@1 awaits B@2, which awaits A@1}; otherwise null.
     */
    private String awaitCycle(ActorCore<?> next) {
        StringBuilder path = new StringBuilder().append(this);
        java.util.Set<ActorCore<?>> seen = new java.util.HashSet<>();
        seen.add(this);
        ActorCore<?> at = next;
        for (int hops = 0; at != null && hops < 64; hops++) {
            path.append(hops == 0 ? " awaits a reply from " : ", which awaits a reply from ").append(at);
            if (at == this) {
                return path.append(" (each takes no message until its reply comes)").toString();
            }
            if (!seen.add(at)) {
                return null;                  // a cycle that does not include this actor
            }
            ActorCore<?> following = null;
            Extras atExtras = at.extras;
            ConcurrentLinkedQueue<PendingReply<?>> a = atExtras == null ? null : atExtras.awaiting;
            if (a != null) {
                for (PendingReply<?> p : a) {
                    if (p.target instanceof LocalRef<?> r && !p.answer.isDone()) {
                        ActorCore<?> t = r.actor;
                        following = t;
                        break;
                    }
                }
            }
            at = following;
        }
        return null;
    }

    /** What is queued, for diagnostics. */
    String queueReport() {
        MessageScheduler ms = messageScheduler();
        return mailbox.size() + " queued" + (ms == null ? "" : ", " + ms.held() + " held by its monitor");
    }

    final int status() {
        return status;
    }

    private static String ageMillis(long nanos) {
        long ms = TimeUnit.NANOSECONDS.toMillis(nanos);
        return ms < 1000 ? ms + " ms ago" : String.format("%.1f s ago", ms / 1000.0);
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
            requireOwnContext(op);                  // the message for a foreign thread
            throw new IllegalStateException(this + "." + op + "() may only be called while " + this
                    + " processes a message or a reply, not from a task it spawned (which may run beside its next"
                    + " message)");
        }
    }

    final void requireOwnContext(String op) {
        Node n = Context.current();
        if (n == null || n.owner() != this) {
            throw new IllegalStateException(this + "." + op + "() may only be called while " + this
                    + " processes a message or from a task it spawned (called from "
                    + (n == null ? "thread '" + Thread.currentThread().getName() + "' outside every task"
                    : n.owner() != null ? "the context of " + n.owner() : "a task that is not " + this + "'s")
                    + ")");
        }
    }

    /**
     * The message an envelope carries, as the actor's {@code process} will see it: envelopes handed to a
     * {@link MessageScheduler} may wrap a request (sent with {@link ActorRef#request}).
     */
    static Object messageOf(Object envelope) {
        return envelope instanceof Request r ? r.message() : envelope;
    }

    /** A short description of a message for a diagnostic; never throws, whatever the message's toString does. */
    static String brief(Object message) {
        String s;
        try {
            s = String.valueOf(message);
        } catch (Throwable t) {
            s = message.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(message))
                    + " (its toString threw " + t + ")";
        }
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }
}

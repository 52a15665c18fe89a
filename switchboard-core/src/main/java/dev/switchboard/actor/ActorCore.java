package dev.switchboard.actor;

import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import dev.switchboard.task.TaskRuntime;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

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
 *       {@link #startTimerWithFixedDelay}, {@link #startTimerAtFixedRate}, {@link #cancelTimer},
 *       {@link #cancelAllTimers}), and use any
 *       task-parallel construct: {@code async}, {@code finish}, futures.</li>
 *   <li>An exception escaping {@link #process} terminates the actor and is rethrown by its finish, with a note
 *       naming the actor. Messages sent to a terminated actor are dead letters: counted, never silently lost.</li>
 *   <li>{@link #state()}, {@link #processedCount()}, {@link #deadLetterCount()} and {@link #mailboxSize()}
 *       observe it from anywhere.</li>
 * </ul>
 *
 * @param <M> the type of message the actor accepts
 */
public abstract sealed class ActorCore<M> extends ActorCell<M> permits Actor, Selector {
    /*
     * Implementation notes. This class holds the API and no state: the status word, the token protocol, the
     * activation loop and termination are its superclass's, ActorCell. Every operation acts on the actor's cell
     * (cell(): the actor whose reference, status word and mailbox it uses; the actor itself, unless it is an
     * instance the cell hosts, see ActorHosting) and leaves the work to the classes of each job: ActorLifecycle,
     * OwnerChecks (who may call what), ActorTimers, AwaitedReplies, ActorFailures, and ActorCell's token
     * protocol.
     */

    ActorCore(Mailbox mailbox, Dispatch dispatch, BoundedMailbox bound) {
        super(mailbox, dispatch, bound);
    }

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
        ActorLifecycle.start(this);
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
        if (status() != 0 || activation() != null || cell() != this) {
            throw new IllegalStateException(this + " was already started (state " + state() + "): it cannot be"
                    + " named " + checked + " now");
        }
        extras().name = checked;
        return start();
    }

    /**
     * Processes one message. Runs for one message at a time (unless this is a {@link StatelessActor}); an
     * exception escaping it terminates the actor and is rethrown by the finish the actor was started in.
     */
    protected abstract void process(M message);

    /**
     * This actor's reference: what to put in a message for others to answer (never {@code this}). Available from
     * the constructor on.
     */
    protected ActorRef<M> self() {
        return self;
    }

    /**
     * This actor's reference, for the code that creates it: the same reference {@link #start()} returns and
     * {@link #self()} gives, available from construction on, so that a graph of actors can be wired before any
     * of them starts. Messages sent to it before {@code start()} wait in the mailbox and are processed once the
     * actor has started (after {@link #onStart()}); if it is never started they are never processed. It stays the
     * actor's reference for the actor's whole life, through every instance its cell hosts.
     *
     * <pre>{@code
     * Stage sink = new Stage(null);
     * Stage middle = new Stage(sink.ref());        // wired to the sink before anything starts
     * Stage source = new Stage(middle.ref());
     * finish(() -> {
     *     source.start();                          // in any order: what is sent meanwhile waits
     *     middle.start();
     *     sink.start();
     * });
     * }</pre>
     */
    public ActorRef<M> ref() {
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
     * does not run if the actor terminated before its {@link #onStart()} could run, nor on an instance that ran
     * {@link #onReplaced} for a restart that ended before a new instance took over (a stop during the backoff, a
     * factory that failed): each instance runs one of the two. Does nothing unless overridden.
     */
    protected void onExit() {
    }

    /**
     * Runs on the new instance a supervisor's restart built ({@link SupervisorStrategy}), before the first message it
     * processes, in the actor's context: rebuild here what the instance it replaces held (reload state, set
     * timers, watch again). By default it runs {@link #onStart()}. An exception escaping it is a failure of the
     * actor, which its strategy decides on again.
     *
     * @param cause the failure that made the supervisor restart the actor
     */
    protected void onRestart(Throwable cause) {
        onStart();
    }

    /**
     * Runs on the failed instance when a supervisor's restart replaces it, before the new instance is built, in the
     * actor's context: release here what this instance holds (what {@link #onStart()} opened; a restart does not
     * run {@link #onExit()}, which runs once, at the actor's end, and never on an instance that ran this hook, even
     * if the actor ends before a new instance takes over). Its timers are cancelled and the children it
     * supervises stopped by then. An exception escaping it is logged with the failure and kept among its causes;
     * the restart goes on. Does nothing unless overridden (Pekko's {@code preRestart}, which runs {@code postStop}).
     *
     * @param cause the failure that made the supervisor restart the actor
     */
    protected void onReplaced(Throwable cause) {
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
        ActorCore<M> cell = cell();
        OwnerChecks.requireOwnContext(cell, "exit");
        if (SendInterception.interceptExit(cell.self)) {
            return;                                  // held (a transaction's exit waits for its commit)
        }
        ActorTermination.terminate(cell, 0);
    }

    /**
     * Stops processing further messages until {@link #resume()}; messages keep arriving ([Unified] §5.1.2).
     * Does not block.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void pause() {
        ActorCore<M> cell = cell();
        OwnerChecks.requireOwnContext(cell, "pause");
        OwnerChecks.requireNoPolicy(cell, "pause()", "pause() and resume() do not apply to it");
        cell.pauseBit(true);
    }

    /**
     * Resumes processing after {@link #pause()}; a no-op if not paused.
     *
     * @throws IllegalStateException if not called while this actor processes a message or from a task it spawned
     */
    protected final void resume() {
        ActorCore<M> cell = cell();
        OwnerChecks.requireOwnContext(cell, "resume");
        cell.pauseBit(false);
    }

    /**
     * Sets this actor's throughput budget: how many messages it processes in one turn before other work waiting
     * for its worker runs. Without it the actor takes its runtime's ({@link TaskRuntime#throughput()}, 64 unless
     * the runtime was built with another), as Pekko's actors take their dispatcher's {@code throughput}. A smaller
     * budget makes a busy actor share its worker sooner, so the actors it feeds answer sooner, at the cost of more
     * turns; a larger one lets it run longer when it has much to do. Declared while the actor processes a message,
     * it takes effect from its next turn. It belongs to the actor's reference, as its mailbox does: a restart by its
     * supervisor keeps it (the fresh instance's constructor may declare another). Under a schedule explorer
     * (switchboard-testkit's {@code ScheduleExplorer}) the explorer's throughput applies to every actor instead: it
     * is how finely the explorer interleaves the actors' messages.
     *
     * <pre>{@code
     * final class Master extends Selector<Msg, Numbered> {
     *     Master() {
     *         super(PRIORITIES);
     *         throughput(5);    // deal out a few items a turn: new, nearer work overtakes the backlog sooner
     *     }
     *     ...
     * }
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code messages} is less than 1
     * @throws IllegalStateException if this actor has been started and this is not called by its processing of a
     *         message or of a reply (as for {@link #become}), or if its messages run as tasks of their own (a
     *         {@link StatelessActor}, an actor bound to a monitor, a transactional actor), which declare it before
     *         {@code start()}; before {@code start()} it may be called from anywhere
     */
    protected final void throughput(int messages) {
        ActorCore<M> cell = cell();
        if (messages < 1) {
            throw new IllegalArgumentException(cell + ": the throughput must be at least 1 message, got " + messages);
        }
        if (cell.status() != 0 && cell.dispatch != Dispatch.SERIAL) {
            throw new IllegalStateException(cell + ".throughput() may only be called before start(): its messages"
                    + " run as tasks of their own (" + (cell.dispatch instanceof PolicyDispatch p
                    ? "it is bound to " + p.policy : "a stateless actor") + "); declare it in the constructor");
        }
        OwnerChecks.requireProcessingOnceStarted(cell, "throughput");
        cell.extras().budget = messages;
    }

    /** What a policy-bound actor does instead of {@code become}. */
    private static final String BECOME_UNDER_A_POLICY = "its messages may run several at once, each with the"
            + " behavior it started with; keep what changes in a field (a TRef in a transactional actor) and switch on"
            + " it in process()";

    /**
     * Processes the following messages with {@code next} until {@link #unbecome()}, which returns to the current
     * behavior: each {@code become} keeps the one it replaces, on a stack, until its {@code unbecome}. A state
     * machine that only moves from state to state uses {@link #become(Behavior, boolean) become(next, true)}, which
     * keeps nothing (Pekko's {@code become}).
     *
     * @throws IllegalStateException if this actor has been started and this is not called by its processing of a
     *         message or of a reply (a task it spawned could run beside its next message); before {@code start()} it
     *         may be called from anywhere, to set the first behavior in the constructor. Once started, always if
     *         this actor is bound to a dispatch policy (a monitor, a transactional actor), which may run several of
     *         its messages at once
     */
    protected final void become(Behavior<M> next) {
        become(next, false);
    }

    /**
     * Processes the following messages with {@code next}: with {@code discardOld}, in place of the current behavior,
     * which is not kept (Pekko's {@code become(behavior)}, and {@code become(behavior, true)}); without, as
     * {@link #become(Behavior)} does (Pekko's {@code become(behavior, false)}). An actor that moves from state to
     * state forever discards, or the behaviors it leaves pile up.
     *
     * <pre>{@code
     * private void closed(Msg m) { if (m instanceof Open) become(this::opened, true); }
     * private void opened(Msg m) { if (m instanceof Close) become(this::closed, true); }
     * }</pre>
     *
     * @throws IllegalStateException as {@link #become(Behavior)}
     */
    protected final void become(Behavior<M> next, boolean discardOld) {
        Objects.requireNonNull(next, "behavior");
        ActorCore<M> cell = cell();
        if (cell.status() != 0) {                      // in the constructor, it sets the first behavior
            OwnerChecks.requireNoPolicy(cell, "become()", BECOME_UNDER_A_POLICY);
        }
        OwnerChecks.requireProcessingOnceStarted(cell, "become");
        if (!discardOld) {
            ActorExtras x = cell.extras();
            if (x.become == null) {
                x.become = new BecomeStack();
            }
            x.become.push(cell.behavior);
        }
        cell.behavior = next;
    }

    /**
     * Returns to the behavior before the last {@link #become}.
     *
     * @throws IllegalStateException if there was no {@code become} to undo, or if called from outside this actor's
     *         context once it has been started (as for {@link #become})
     */
    protected final void unbecome() {
        ActorCore<M> cell = cell();
        if (cell.status() != 0) {
            OwnerChecks.requireNoPolicy(cell, "unbecome()", BECOME_UNDER_A_POLICY);
        }
        OwnerChecks.requireProcessingOnceStarted(cell, "unbecome");
        ActorExtras x = cell.extrasOrNull();
        if (x == null || x.become == null || x.become.isEmpty()) {
            throw new IllegalStateException(cell + ".unbecome() without a matching become()");
        }
        cell.behavior = x.become.pop();
    }

    /**
     * Sends {@code message} to this actor once, after {@code delay}, as {@code self().send(message)} would (a
     * selector: to the mailbox its {@code route} picks for the message when the timer starts), except that a full
     * bounded mailbox makes it a dead letter instead of waiting or throwing. A timer started before with the same
     * {@code key} is cancelled first; {@link #cancelTimer} cancels this one, and so does this actor's termination,
     * whatever ends it. Once a timer has been cancelled or replaced, none of its messages is processed, not even
     * one it sent before and that waits in the mailbox (it is dropped when its turn comes, counted neither as
     * processed nor as a dead letter). After this actor has terminated, starting a timer does nothing.
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
            throw new IllegalArgumentException("startSingleTimer() of " + cell() + " needs a delay of zero or more,"
                    + " got " + delay);
        }
        ActorTimers.start(cell(), "startSingleTimer", key, message, ActorTimers.nanos(delay), 0, false);
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
        startTimerAtFixedRate(key, message, period, period);
    }

    /**
     * As {@link #startTimerAtFixedRate(Object, Object, Duration)}, the first send after {@code initialDelay}
     * (zero: at once) instead of one period from now.
     *
     * <pre>{@code
     * startTimerAtFixedRate("poll", new Poll(), Duration.ZERO, Duration.ofSeconds(5));   // now, then every 5 s
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code initialDelay} is negative or {@code period} is shorter than a
     *         millisecond
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final void startTimerAtFixedRate(Object key, M message, Duration initialDelay, Duration period) {
        ActorTimers.requirePeriod(cell(), "startTimerAtFixedRate", period);
        long first = ActorTimers.initialDelay(cell(), "startTimerAtFixedRate", initialDelay);
        ActorTimers.start(cell(), "startTimerAtFixedRate", key, message, first, ActorTimers.nanos(period), false);
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
        startTimerWithFixedDelay(key, message, delay, delay);
    }

    /**
     * As {@link #startTimerWithFixedDelay(Object, Object, Duration)}, the first send after {@code initialDelay}
     * (zero: at once) instead of one delay from now.
     *
     * @throws IllegalArgumentException if {@code initialDelay} is negative or {@code delay} is shorter than a
     *         millisecond
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final void startTimerWithFixedDelay(Object key, M message, Duration initialDelay, Duration delay) {
        ActorTimers.requirePeriod(cell(), "startTimerWithFixedDelay", delay);
        long first = ActorTimers.initialDelay(cell(), "startTimerWithFixedDelay", initialDelay);
        ActorTimers.start(cell(), "startTimerWithFixedDelay", key, message, first, ActorTimers.nanos(delay), true);
    }

    /**
     * Cancels the timer started with {@code key}, if one is active; returns whether one was. Once it has returned,
     * none of the timer's messages is processed, not even one already in the mailbox. After this actor has
     * terminated it returns false (termination cancelled every timer).
     *
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final boolean cancelTimer(Object key) {
        return ActorTimers.cancel(cell(), key);
    }

    /**
     * Cancels every timer of this actor, as {@link #cancelTimer} does each: once it has returned, no message of any
     * timer started before it is processed. Timers started after it run as usual. After this actor has terminated
     * it does nothing.
     *
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final void cancelAllTimers() {
        ActorTimers.cancelAllOf(cell());
    }

    /**
     * Whether the timer started with {@code key} is active: a single timer until this actor takes its message, a
     * periodic one until cancelled.
     *
     * @throws IllegalStateException as for {@link #startSingleTimer}
     */
    protected final boolean isTimerActive(Object key) {
        return ActorTimers.isActive(cell(), key);
    }

    // ------------------------------------------------------------------------------------------ death watch

    /**
     * Watches {@code target}: when it ends (it exits, fails, or its runtime closes), this actor receives
     * {@code message.apply(terminated)}, once {@code target} and every task it spawned have ended: after the last
     * message it processed and after what its {@code onExit()} sent. If {@code target} has ended already, the
     * message is sent at once. Watching again replaces the watch (a message of the old one still to be processed
     * never is); {@link #unwatch} stops watching; when this actor ends first, it stops watching (a message of the
     * watch still in its mailbox then is dropped, not a dead letter).
     *
     * <pre>{@code
     * record WorkerGone(Terminated end) implements Msg {}
     *
     * protected void onStart() { workers.forEach(w -> watch(w, WorkerGone::new)); }
     * protected void process(Msg m) {
     *     switch (m) {
     *         case WorkerGone g -> { if (--alive == 0) exit(); }
     *         ...
     *     }
     * }
     * }</pre>
     *
     * <p>The mapping runs, and the message is sent, on the thread that ends {@code target}, as a send of that actor
     * would be, possibly while this actor processes a message of its own: keep the mapping a constructor
     * ({@code Gone::new}) that touches nothing of this actor. A full bounded mailbox makes the message a
     * {@code MAILBOX_FULL} dead letter; a mapping that throws fails this actor. A selector's message goes where it
     * routes, or use {@code Selector.watch(target, mailbox, message)}.
     *
     * <p>An actor of another place is watched the same way: its place tells when it ends, and if that place is lost,
     * the message comes with {@link Terminated.Reason#PLACE_LOST}.
     *
     * @throws IllegalStateException         once started, if called from outside this actor's processing and the
     *                                       tasks it spawned
     * @throws IllegalArgumentException      if {@code target} is this actor
     * @throws UnsupportedOperationException if {@code target} is an actor of another JVM whose route cannot tell
     *                                       when it ends
     */
    protected final void watch(ActorRef<?> target, Function<? super Terminated, ? extends M> message) {
        ActorWatch.watch(this, target, message, -1);
    }

    /**
     * Stops watching {@code target}: once this has returned, no message of that watch is processed, not even one
     * already on its way or in the mailbox ({@code target} has just ended), which is dropped when its turn comes,
     * counted neither as processed nor as a dead letter. Returns whether a message of the watch was still to come:
     * false if this actor did not watch {@code target}, or has processed the watch's message already (a stateless
     * actor's message running in parallel, or a monitor's, may be processing it).
     *
     * @throws IllegalStateException as for {@link #watch}
     */
    protected final boolean unwatch(ActorRef<?> target) {
        return ActorWatch.unwatch(this, target);
    }

    // ------------------------------------------------------------------------------------------ supervision

    /**
     * Builds an actor with {@code factory}, starts it as this actor's child, and supervises it with
     * {@code strategy}: when the child fails, the strategy restarts it (a fresh instance from {@code factory}
     * behind the same reference, its queued messages kept), resumes it, stops it, or escalates the failure to this
     * actor. The child joins this actor's current finish, as {@code start()} does; a failure the strategy handled
     * does not reach that finish. The child is stopped when this actor ends or restarts.
     *
     * <pre>{@code
     * private ActorRef<Job> worker;
     *
     * protected void onStart() {
     *     worker = startChild(() -> new Worker(db), SupervisorStrategy.restart().withLimit(5, Duration.ofMinutes(1)));
     * }
     * }</pre>
     *
     * <p>The factory must build a new instance of the same class each time (a restart calls it on the child's
     * processing). An {@link Actor} or a {@link Selector} can be supervised; a stateless actor, and an actor bound
     * to a policy (a monitor, a transactional actor), cannot: their messages run in parallel, as tasks a restart
     * could not take back.
     *
     * @param factory  builds the child, now and on every restart
     * @param strategy what to do when the child fails
     * @param <X>      the type of message the child accepts
     * @return the child's reference, which stays the same across restarts (a selector's is a {@link SelectorRef})
     * @throws IllegalStateException    if not called while this actor processes a message or from a task it spawned
     * @throws IllegalArgumentException if the child cannot be supervised, or was started already
     */
    protected final <X> ActorRef<X> startChild(Supplier<? extends ActorCore<X>> factory, SupervisorStrategy strategy) {
        return Supervision.startChild(cell(), null, factory, strategy);
    }

    /**
     * {@link #startChild(Supplier, SupervisorStrategy)}, with a name for the child (see {@link #start(String)}).
     *
     * @param name     the child's name
     * @param factory  builds the child, now and on every restart
     * @param strategy what to do when the child fails
     * @param <X>      the type of message the child accepts
     * @return the child's reference
     * @throws IllegalStateException    if not called while this actor processes a message or from a task it spawned
     * @throws IllegalArgumentException if the child cannot be supervised, was started already, or the name is not
     *                                  valid
     */
    protected final <X> ActorRef<X> startChild(String name, Supplier<? extends ActorCore<X>> factory,
            SupervisorStrategy strategy) {
        Objects.requireNonNull(name, "name");
        return Supervision.startChild(cell(), name, factory, strategy);
    }

    // ------------------------------------------------------------------------------------------ replies

    /**
     * Asks {@code to}, and runs {@code onReply} with the answer when it arrives; until then this actor processes
     * no further message — a synchronous receive that blocks no thread ([Unified] §5.2, Fig. 11 and 16). The
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
        ActorCore<M> cell = cell();
        OwnerChecks.requireOwnContext(cell, "awaitReply");
        Objects.requireNonNull(onReply, "onReply");
        AwaitedReplies.await(cell, to, request, new PendingReply<R>(cell, to, onReply, null,
                cell.scheduler().roughNanoTime()));
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
        ActorCore<M> cell = cell();
        OwnerChecks.requireOwnContext(cell, "awaitReply");
        Objects.requireNonNull(onResult, "onResult");
        ActorTimers.requirePositive(cell, timeout, "awaitReply");
        PendingReply<R> pending = new PendingReply<>(cell, to, null, onResult, cell.scheduler().roughNanoTime());
        AwaitedReplies.await(cell, to, request, pending);
        pending.timeoutAfter(timeout, ActorTimers.started(cell, "awaitReply"));
    }

    /**
     * Why this actor terminated, for {@link #onExit()} (a parent that restarts a failed child, a resource released
     * differently): the first exception that escaped {@link #process}, {@link #onStart()}, a reply handler, a
     * guard or selection policy, or the runtime's handling of it; null if none did (it called {@link #exit()} and
     * nothing escaped after, or its runtime closed), or if it has not terminated. The same exception reaches the
     * actor's finish.
     */
    protected final Throwable failure() {
        return ActorFailures.kept(cell());
    }

    // ------------------------------------------------------------------------------------------ observation

    /** The current life-cycle state. */
    public final ActorState state() {
        int s = cell().status();
        if ((s & ActorCore.TERMINATED) != 0) {
            return ActorState.TERMINATED;
        }
        if ((s & ActorCore.STARTED) == 0) {
            return ActorState.NEW;
        }
        return (s & ActorCore.HELD) != 0 ? ActorState.PAUSED : ActorState.STARTED;
    }


    /** Messages sent to this actor that became dead letters. */
    public final long deadLetterCount() {
        ActorExtras x = cell().extrasOrNull();
        return x == null ? 0 : x.deadLetters;
    }


    /** Messages this actor has processed so far. */
    public final long processedCount() {
        Activation a = cell().activation();
        return a == null ? 0 : a.processed();
    }


    /** Messages waiting in this actor's mailbox(es). */
    public final int mailboxSize() {
        return mailbox.size();
    }


    /** The runtime this actor was started in, or null before {@link #start()}. */
    public final TaskRuntime runtime() {
        ActorCore<M> c = cell();
        Scheduler s = c.status() != 0 ? c.scheduler() : null;
        return s == null ? null : (TaskRuntime) s.facade();
    }

    /** {@code name@id}, as its reference shows it ({@link ActorRef#toString()}). */
    @Override
    public String toString() {
        return self.toString();
    }
}

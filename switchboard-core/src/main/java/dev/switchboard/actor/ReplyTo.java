package dev.switchboard.actor;

import dev.switchboard.internal.SendInterception;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where the answer to one request goes. The requester creates it ({@link ActorRef#ask} from anywhere,
 * {@code awaitReply} inside an actor) and puts it into the request, so the reply's type is part of the request's
 * type and a wrong reply does not compile:
 *
 * <pre>{@code
 * sealed interface BankMsg {}
 * record Balance(String account, ReplyTo<Long> replyTo) implements BankMsg {}
 *
 * // the bank
 * protected void process(BankMsg m) {
 *     switch (m) {
 *         case Balance b -> b.replyTo().reply(balances.getOrDefault(b.account(), 0L));
 *     }
 * }
 *
 * // anyone
 * CompletableFuture<Long> balance = bank.ask(replyTo -> new Balance("alice", replyTo), Duration.ofSeconds(1));
 * }</pre>
 *
 * <p>A request is answered once: {@link #reply} or {@link #fail}, by the actor that received it or by whoever it
 * hands the {@code ReplyTo} on to (another actor, a task). A reply that comes after the requester stopped
 * waiting (its timeout passed, its future was cancelled, it exited) is a {@linkplain DeadLetter dead letter}
 * ({@link DeadLetter.Reason#REPLY_TOO_LATE} or {@link DeadLetter.Reason#REPLY_AFTER_EXIT}); the replier is not
 * disturbed. If the receiver terminates before it processes the request, or its processing of the request fails
 * (an exception escapes) before it answered, the requester gets a {@link NoReplyException} at once; a
 * {@code ReplyTo} it had handed on is then answered too late, and that answer is a dead letter. A request the
 * receiver processes without answering stays open for whoever holds its {@code ReplyTo}, even if the receiver
 * then exits (a session actor may hand the request on and exit): a timeout (which {@code ask} always has) or the
 * runtime's hang report says so.
 *
 * @param <R> the type of the reply
 */
public final class ReplyTo<R> {
    /*
     * Implementation notes. `state` leaves OPEN once, by a CAS: to REPLIED by the first reply or failure from the
     * replier's side (reply, fail), or to GAVE_UP when the runtime answers for it (the request became a dead
     * letter, or its processing failed). A second answer from the replier after REPLIED is
     * a usage error; after GAVE_UP it goes to the waiter, which finds its future done and counts the answer as a
     * dead letter, so a replier the runtime gave up on is not disturbed. The waiter decides what an answer does:
     * it completes an ask's future or an awaitReply's pending reply, or, when the requester has stopped waiting,
     * turns the answer into a dead letter.
     */
    private static final VarHandle STATE;
    private static final int OPEN = 0;
    private static final int REPLIED = 1;
    private static final int GAVE_UP = 2;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ReplyTo.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What receives the answer: an ask's future or an awaitReply's pending reply. */
    interface Waiter {
        /**
         * The replier's answer: a reply ({@code failure} null) or a failure. An answer after the waiter stopped
         * waiting is a dead letter. Never throws for a late answer.
         */
        void answer(Object reply, Throwable failure);

        /** The runtime's answer when none can come; ignored if the waiter stopped waiting already. */
        void gaveUp(Throwable cause);

        /** Whether the requester still waits for the answer (an answer now would not be a dead letter). */
        default boolean awaited() {
            return true;
        }
    }

    private final Waiter waiter;
    /** The actor the request was sent to. */
    final ActorRef<?> target;
    /** The request, once built (written before the request is sent, which publishes it). */
    Object request;
    /**
     * The actor the request was handed on to last (by {@link #forward}, or a router to its routee), or null: a
     * timeout names it, and only its failure fails the request.
     */
    volatile ActorRef<?> routedTo;
    private volatile int state;

    ReplyTo(Waiter waiter, ActorRef<?> target) {
        this.waiter = waiter;
        this.target = target;
    }

    /**
     * Builds the request around this {@code ReplyTo} with the caller's function ({@code op} names the call, for
     * the error when it builds none), and remembers it for diagnostics.
     */
    <M> M build(Function<? super ReplyTo<R>, ? extends M> request, Object target, String op) {
        M message = request.apply(this);
        if (message == null) {
            throw new NullPointerException("the function given to " + op + "() for " + target + " built a null request");
        }
        this.request = message;               // published with the request by its enqueue
        return message;
    }

    /**
     * Answers the request with {@code reply} (null is a reply too, for a {@code ReplyTo<Void>}).
     *
     * @throws IllegalStateException if the request was already answered
     */
    public void reply(R reply) {
        answer(reply, null);
    }

    /**
     * Answers the request with a failure: the requester's future fails with {@code cause}, or its
     * {@code awaitReply} handler receives it.
     *
     * @throws IllegalStateException if the request was already answered
     */
    public void fail(Throwable cause) {
        Objects.requireNonNull(cause, () -> "null failure for " + describe());
        answer(null, cause);
    }

    /**
     * Sends {@code request}, which carries this {@code ReplyTo}, on to {@code to}, which is to answer it (Pekko's
     * {@code forward}). It goes as a send would, and the runtime knows the request travels with it: if {@code to}
     * has ended before it processes the request, or drops it (a full bounded mailbox, its runtime's close), or its
     * processing of the request fails before it answered, the requester hears so at once, a
     * {@link NoReplyException} naming {@code to}; a requester whose timeout passes is told that the actor it asked
     * handed the request on to {@code to}. The actor that hands it on is no longer the one to answer: its own
     * failure afterwards does not fail the request. A plain {@code to.send(request)} carries the {@code ReplyTo}
     * too, and none of this: the requester then hears at its timeout, which names the actor it asked.
     *
     * <pre>{@code
     * case Get g -> g.replyTo().forward(shardFor(g.key()), g);      // the shard answers the asker
     * }</pre>
     *
     * <p>To an actor of another place, and inside a transaction (whose sends are held until it commits), it is a
     * send.
     *
     * @throws MailboxFullException if {@code to}'s bounded mailbox is full and fails sends, as a send would
     */
    public <M> void forward(ActorRef<M> to, M request) {
        Objects.requireNonNull(to, () -> "null actor given to forward() of " + this);
        Objects.requireNonNull(request, () -> "null request given to forward() of " + this);
        if (!(to instanceof LocalRef<M> local) || SendInterception.used() && SendInterception.current() != null) {
            to.send(request);
            return;
        }
        routedTo = to;                                // before the send publishes it: the new holder's failure fails it
        MailboxAdmission.request(local.actor, new Request(request, this), request, -1);
    }

    /**
     * Whether {@code actor}, which received this request, is the one to answer it: the request was not handed on
     * since (by {@link #forward} or a router), or was handed on to it.
     */
    boolean isHeldBy(ActorCore<?> actor) {
        ActorRef<?> to = routedTo;
        return to == null || to instanceof LocalRef<?> l && l.actor == actor.cell();
    }

    /** Whether the request has been answered (by the replier, or by the runtime when no answer can come). */
    public boolean isAnswered() {
        return state != OPEN;
    }

    private void answer(Object reply, Throwable failure) {
        if (SendInterception.interceptReply(this, reply, failure)) {
            return;                                   // held (a transaction answers when it commits)
        }
        answerNow(reply, failure);
    }

    /** Answers past any interceptor ({@code Seam.replyNow}). */
    void answerNow(Object reply, Throwable failure) {
        if (!STATE.compareAndSet(this, OPEN, REPLIED) && state != GAVE_UP) {
            throw new IllegalStateException(describe() + " was already answered");
        }
        waiter.answer(reply, failure);         // after GAVE_UP: a dead letter
    }

    /**
     * The runtime's answer when none can come (the request became a dead letter, or its processing failed);
     * ignored after a reply, and by a waiter that stopped waiting.
     */
    void failUnanswered(Throwable cause) {
        if (STATE.compareAndSet(this, OPEN, GAVE_UP)) {
            waiter.gaveUp(cause);
        }
    }

    /** What receives the answer (an ask's future, an awaitReply's pending reply, another place's). */
    Waiter waiter() {
        return waiter;
    }

    private String describe() {
        return "the request " + ActorDiagnostics.brief(request) + " to " + target;
    }

    /**
     * {@code replyTo(request to bank@3)}: the actor the request went to, which answers it (not the request, which
     * holds this object and would print it in turn).
     */
    @Override
    public String toString() {
        return "replyTo(request to " + target + ")";
    }
}

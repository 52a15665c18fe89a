package dev.switchboard.spi;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.ReplyTo;
import dev.switchboard.internal.ActorAccess;
import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.RemoteAnswer;
import dev.switchboard.internal.RemoteSend;
import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import dev.switchboard.internal.Threads;
import dev.switchboard.task.TaskRuntime;
import java.util.List;
import java.util.Objects;

/**
 * The entry points of the dispatch seam, for actor kinds built outside the core (the parallel actor monitors,
 * transactional actors, places). Applications do not need it.
 *
 * <pre>{@code
 * public abstract class CountingActor<M> extends Actor<M> {
 *     protected CountingActor() {
 *         Seam.bind(this, new OneAtATime());          // every message now goes through the policy
 *     }
 * }
 *
 * try (Seam.Interception held = Seam.interceptSends((to, mailbox, m) -> buffer.add(new Held(to, mailbox, m)))) {
 *     runTransaction();                             // its sends are held ...
 * }
 * buffer.forEach(h -> Seam.sendNow(h.to(), h.mailbox(), h.message()));   // ... and go out at commit
 * }</pre>
 */
public final class Seam {
    private Seam() {
    }

    /** The actor package's operations, which initializing ActorCore installs (here, if nothing has yet). */
    private static ActorAccess access() {
        ActorAccess a = ActorAccess.get();
        if (a == null) {
            try {
                Class.forName(ActorCore.class.getName(), true, Seam.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = ActorAccess.get();
        }
        return a;
    }

    /**
     * Binds {@code policy} to {@code actor}: from now on every message to the actor is the policy's to start.
     * Call it before the actor starts (its constructor, typically).
     *
     * @throws IllegalStateException if the actor was started already or has a policy, or is a stateless actor,
     *         or a selector with several bounded mailboxes
     */
    public static void bind(ActorCore<?> actor, DispatchPolicy policy) {
        access().bind(Objects.requireNonNull(actor, "actor"), Objects.requireNonNull(policy, "policy"));
    }

    /**
     * Installs {@code interceptor} for the sends this thread makes until the returned interception is closed
     * (which puts back the interceptor it replaced, if any). Sends through references ({@code send} and the
     * selector forms), replies ({@code ReplyTo.reply}, {@code fail}), the actor's {@code exit()}, the starts and
     * spawns, the requests of {@code ask} and the stops ({@code stop}, {@code stopNow}) are intercepted;
     * {@code awaitReply} is not. Interception belongs to the thread, not to a task: every send this thread
     * makes meanwhile is seen, including those of work the thread runs inline (a task it helps while waiting in
     * a nested finish, a turn of a policy that a send of its runs).
     */
    public static Interception interceptSends(SendInterceptor interceptor) {
        Interceptor installed = new InstalledInterceptor(Objects.requireNonNull(interceptor, "interceptor"));
        return new Interception(installed, SendInterception.install(installed), Thread.currentThread());
    }

    /**
     * Tells an effect an interceptor held ({@link SendInterceptor#interceptEffect}) that it will not run (its
     * transaction's attempt rolled back): an ask's future fails with a {@code CancellationException} saying
     * {@code why}, instead of waiting for its timeout. Other effects need not be told; telling them does nothing.
     */
    public static void dropEffect(Runnable effect, String why) {
        if (effect instanceof dev.switchboard.internal.DroppableEffect d) {
            d.drop(Objects.requireNonNull(why, "why"));
        }
    }

    /**
     * Sends {@code message} to {@code to} now, past any interceptor of this thread: into {@code mailbox}, or, if
     * {@code mailbox} is -1, wherever a plain {@code send} would put it.
     *
     * @throws ClassCastException       never checked: the message must be of the type the actor accepts
     * @throws IllegalArgumentException if {@code to} has no mailbox {@code mailbox}
     */
    public static void sendNow(ActorRef<?> to, int mailbox, Object message) {
        access().sendNow(Objects.requireNonNull(to, "to"), mailbox, message);
    }

    /**
     * Answers {@code replyTo} now ({@code reply}, or {@code failure} if not null), past any interceptor of this
     * thread: an answer an interceptor held.
     *
     * @throws IllegalStateException if the request was already answered
     */
    public static void replyNow(ReplyTo<?> replyTo, Object reply, Throwable failure) {
        access().replyNow(Objects.requireNonNull(replyTo, "replyTo"), reply, failure);
    }

    // ------------------------------------------------------------------------------------ places

    /**
     * A reference to an actor of another JVM: sends through it go to {@code route}. Equal to every reference with
     * the same id, local or remote.
     *
     * @param mailboxes the number of mailboxes of the selector it names (a {@code SelectorRef}), or -1 for an
     *                  actor (an {@code ActorRef})
     * @throws IllegalArgumentException if {@code mailboxes} is 0 or below -1, or {@code name} is not a valid name
     *         (blank, longer than 200 characters, a control character), as for {@code start(name)}
     */
    public static ActorRef<?> remoteRef(long id, String name, int mailboxes, RemoteRoute route) {
        if (mailboxes == 0 || mailboxes < -1) {
            throw new IllegalArgumentException("mailboxes is -1 (an actor) or at least 1 (a selector), not "
                    + mailboxes);
        }
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(route, "route");
        return (ActorRef<?>) access().remoteRef(id, name, mailboxes, new RemoteSend() {
            @Override
            public void send(Object to, int mailbox, Object message) {
                route.send((ActorRef<?>) to, mailbox, message);
            }

            @Override
            public Scheduler scheduler() {
                TaskRuntime runtime = route.runtime();
                return runtime == null ? null : RuntimeAccess.scheduler(runtime);
            }

            @Override
            public java.util.concurrent.CompletionStage<?> whenTerminated(Object ref) {
                return route.whenTerminated((ActorRef<?>) ref);
            }
        });
    }

    /**
     * A reply handle for a request that came from another JVM to the actor {@code target} of this one: its answer,
     * or the runtime's when none can come, goes to {@code reply}. Put it where the request's own was (the places
     * module decodes it in the request's place).
     */
    public static ReplyTo<?> remoteReplyTo(ActorRef<?> target, RemoteReply reply) {
        return (ReplyTo<?>) access().remoteReplyTo(Objects.requireNonNull(target, "target"),
                new SpiAnswer(Objects.requireNonNull(reply, "reply")));
    }

    /** A {@link RemoteReply} as the actor package sees it. */
    private record SpiAnswer(RemoteReply reply) implements RemoteAnswer {
        @Override
        public void answer(Object r, Throwable failure) {
            reply.answer(r, failure);
        }

        @Override
        public void gaveUp(Throwable cause) {
            reply.gaveUp(cause);
        }

        @Override
        public String toString() {
            return reply.toString();
        }
    }

    /** The {@link RemoteReply} of a handle {@link #remoteReplyTo} made, or null for a request made in this JVM. */
    public static RemoteReply remoteReplyOf(ReplyTo<?> replyTo) {
        return access().remoteAnswerOf(Objects.requireNonNull(replyTo, "replyTo")) instanceof SpiAnswer a ? a.reply()
                : null;
    }

    /** Whether the requester of a request made in this JVM still waits for the answer to {@code replyTo}. */
    public static boolean isAwaited(ReplyTo<?> replyTo) {
        return access().isAwaited(Objects.requireNonNull(replyTo, "replyTo"));
    }

    /** The runtime's answer when none can come ({@code NoReplyException} or the like); ignored once answered. */
    public static void giveUp(ReplyTo<?> replyTo, Throwable cause) {
        access().giveUp(Objects.requireNonNull(replyTo, "replyTo"), Objects.requireNonNull(cause, "cause"));
    }

    /** The actor the request answered through {@code replyTo} was sent to. */
    public static ActorRef<?> requestTarget(ReplyTo<?> replyTo) {
        return (ActorRef<?>) access().requestTarget(Objects.requireNonNull(replyTo, "replyTo"));
    }

    /**
     * Sends {@code message}, a request answered through {@code replyTo}, to the actor of this JVM {@code to}, into
     * {@code mailbox} (or where it routes, if -1), as {@code ask} does: if the actor ends before it processes the
     * request, or its processing fails before it answered, {@code replyTo} is given up on at once.
     */
    public static void sendRequest(ActorRef<?> to, int mailbox, Object message, ReplyTo<?> replyTo) {
        access().sendRequest(Objects.requireNonNull(to, "to"), mailbox, Objects.requireNonNull(message, "message"),
                Objects.requireNonNull(replyTo, "replyTo"));
    }

    /**
     * The reference of {@code actor}, the one its {@code self()} gives, before or after it started: messages sent to
     * it before the start wait in its mailbox.
     */
    public static ActorRef<?> referenceOf(ActorCore<?> actor) {
        return (ActorRef<?>) access().referenceOf(Objects.requireNonNull(actor, "actor"));
    }

    /**
     * Whether the actor of this JVM that {@code ref} names has terminated (a snapshot: an actor that has not may
     * terminate at any moment; one that has stays so).
     *
     * @throws IllegalArgumentException if {@code ref} is a reference to an actor of another JVM
     */
    public static boolean hasTerminated(ActorRef<?> ref) {
        return access().hasTerminated(Objects.requireNonNull(ref, "ref"));
    }

    /**
     * The internal state of {@code actor} in words (a snapshot, from any thread): the bits of its status word, its
     * activation, and the indices of its mailbox's queues. For stress tests that report an actor whose counts do
     * not add up; the wording is not an API and may change.
     */
    public static String internals(ActorCore<?> actor) {
        return access().internals(Objects.requireNonNull(actor, "actor"));
    }

    /**
     * Whether the current thread runs {@code actor}'s processing or a task it spawned, rather than another actor's
     * work (a waiting thread helps with whatever work is queued, another actor's too).
     */
    public static boolean runsFor(ActorCore<?> actor) {
        return access().runsFor(Objects.requireNonNull(actor, "actor"));
    }

    /** Whether {@code ref} is a reference to an actor of another JVM ({@link #remoteRef}). */
    public static boolean isRemote(ActorRef<?> ref) {
        return access().isRemote(Objects.requireNonNull(ref, "ref"));
    }

    /**
     * Gives {@code actor}, which nobody has asked for its id yet, the id {@code id}: the one the place that created
     * it allocated. Call it before the actor starts (it may hand out its reference in {@code onStart}).
     *
     * @throws IllegalStateException if the actor's reference has an id already
     */
    public static void presetId(ActorCore<?> actor, long id) {
        access().presetId(Objects.requireNonNull(actor, "actor"), id);
    }

    /**
     * Sets the top 24 bits of every actor id this JVM takes from now on: the place's number as place of creation
     * and of residence ({@code ActorRef.id()}).
     *
     * @throws IllegalStateException    if they were set already, or an actor already has an id
     * @throws IllegalArgumentException if {@code bits} has bits below the top 24
     */
    public static void usePlaceBits(long bits) {
        access().usePlaceBits(bits);
    }

    /** The classes of references, local and remote, which a serializer registers. */
    public static List<Class<?>> referenceClasses() {
        return access().referenceClasses();
    }

    /**
     * Runs {@code action} on this thread in {@code runtime}'s global scope: the actors it starts and the tasks it
     * spawns belong to no finish, and their failures go to the runtime's unscoped-failure handler, as does one
     * {@code action} throws.
     */
    public static void runUnscoped(TaskRuntime runtime, Runnable action) {
        RuntimeAccess.scheduler(Objects.requireNonNull(runtime, "runtime"))
                .runInGlobalScope(Objects.requireNonNull(action, "action"));
    }

    /** How many actors and tasks of {@code runtime}'s global scope have not ended (a snapshot). */
    public static int openUnscopedWork(TaskRuntime runtime) {
        return RuntimeAccess.scheduler(Objects.requireNonNull(runtime, "runtime")).openUnscoped();
    }

    /** An installed {@link SendInterceptor}; closing it uninstalls it. */
    public static final class Interception implements AutoCloseable {
        private final Interceptor installed;
        private final Interceptor previous;
        private final Thread thread;
        private boolean closed;

        private Interception(Interceptor installed, Interceptor previous, Thread thread) {
            this.installed = installed;
            this.previous = previous;
            this.thread = thread;
        }

        /**
         * Uninstalls the interceptor, putting back the one it replaced. Idempotent. Interceptions nest: the one
         * installed last is closed first (try-with-resources does that).
         *
         * @throws IllegalStateException if called on another thread than the one that installed it, or while an
         *         interception installed after this one is still open
         */
        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("an interception installed on thread '" + Threads.name(thread)
                        + "' must be closed there, not on '" + Threads.name(Thread.currentThread()) + "'");
            }
            if (closed) {
                return;
            }
            if (SendInterception.current() != installed) {
                throw new IllegalStateException("an interception was closed while one installed after it is still"
                        + " open: close them in the reverse order of installing (try-with-resources does)");
            }
            closed = true;
            SendInterception.restore(previous);
        }
    }
}

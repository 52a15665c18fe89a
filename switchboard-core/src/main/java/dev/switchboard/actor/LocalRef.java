package dev.switchboard.actor;

import dev.switchboard.internal.Context;
import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.Scheduler;
import dev.switchboard.internal.SendInterception;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The reference to an actor of this JVM: the actor, its mailbox and its id. Each actor creates its one reference
 * when it is constructed ({@link ActorCore}); {@link OfActor} for an actor or stateless actor, {@link OfSelector}
 * for a selector, whose reference can also name a mailbox.
 *
 * <h2>Implementation notes</h2>
 * The id is taken from a JVM-wide counter the first time anyone asks for it (an id, an equality test, a hash, a
 * {@code toString}), and installed with a CAS, so an actor nobody compares or prints never touches the shared
 * counter; under a deterministic scheduler (the test kit's), from the runtime's own counter instead.
 *
 * <p>A reference keeps the actor's mailbox beside the actor: a sender reads both from the reference at once and
 * goes on to the mailbox's queue, rather than reading the actor and then the mailbox from it, so a send through
 * a reference is no longer a chain of loads than a send on the actor object would be. A reference is 32 bytes
 * with compressed oops. The name, which few actors have, is kept with the actor's other rarely used state,
 * written by {@code start(name)} before the start publishes the actor (the release of its status word); a thread
 * that holds the reference from the constructor and has not seen the start may read the class name instead,
 * which is what the reference showed until then.
 *
 * <p>Every send first reads whether a send interceptor was ever installed in this JVM (see
 * {@code SendInterception}); only then does it look for one on this thread.
 */
abstract sealed class LocalRef<M> implements ActorRef<M> permits LocalRef.OfActor, LocalRef.OfSelector {
    /** The bits of an id below the places' numbers (ActorRef.id()). */
    static final int SEQUENCE_BITS = 40;
    private static final AtomicLong IDS = new AtomicLong();
    /**
     * The places' bits of every id this JVM takes from {@link #IDS}: 0, unless this JVM is a place of a program on
     * several places, which sets them before any id is taken ({@link #usePlaceBits}).
     */
    private static volatile long placeBits;
    private static final VarHandle ID;

    static {
        try {
            ID = MethodHandles.lookup().findVarHandle(LocalRef.class, "id", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ActorCore<M> actor;
    /** The actor's mailbox, which a sender reads with {@link #actor}. */
    final Mailbox mailbox;
    /** 0 until the first {@link #id()}. */
    private volatile long id;

    LocalRef(ActorCore<M> actor) {
        this.actor = actor;
        this.mailbox = actor.mailbox;
    }

    @Override
    public final <R> CompletableFuture<R> ask(Function<? super ReplyTo<R>, ? extends M> request, Duration timeout) {
        return AskFuture.ask(actor, request, timeout, -1);
    }

    /** A send past any interceptor ({@code Seam.sendNow}). */
    abstract void sendUnintercepted(Object message);

    /** Whether an interceptor on this thread holds the send ({@code mailbox} -1: routed). */
    final boolean intercepted(int mailbox, Object message) {
        Interceptor i = SendInterception.current();
        if (i == null) {
            return false;
        }
        Objects.requireNonNull(message, () -> "null message sent to " + this);
        return i.interceptSend(this, mailbox, message);
    }

    @Override
    public final CompletionStage<Terminated> whenTerminated() {
        return ActorWatch.whenTerminated(actor);
    }

    @Override
    public final void stop() {
        if (SendInterception.used() && heldEffect(() -> ActorStop.stop(actor))) {
            return;                                    // a transaction stops it when it commits
        }
        ActorStop.stop(actor);
    }

    @Override
    public final void stopNow() {
        ActorStop.requireStarted(actor);               // checked now, in a transaction too: its attempt rolls back
        if (SendInterception.used()) {
            Interceptor i = SendInterception.current();
            if (i != null && i.interceptStopNow(this, () -> ActorStop.stopNow(actor))) {
                return;                                // a transaction stops it when it commits
            }
        }
        ActorStop.stopNow(actor);
    }

    /** Whether an interceptor on this thread holds {@code effect} (a stop). */
    private static boolean heldEffect(Runnable effect) {
        Interceptor i = SendInterception.current();
        return i != null && i.interceptEffect(effect);
    }

    @Override
    public final long id() {
        long i = id;
        if (i == 0) {
            long fresh = freshId();
            i = ID.compareAndSet(this, 0L, fresh) ? fresh : id;
        }
        return i;
    }

    /**
     * An id for this reference: from its runtime if the runtime numbers its actors itself (a deterministic one:
     * the actor's once it is started, before that the runtime of the code asking), else the JVM's next one.
     */
    private long freshId() {
        Scheduler s = actor.scheduler;
        if (s == null) {
            Node context = Context.current();
            s = context == null ? null : context.scheduler();
        }
        long own = s == null ? 0 : s.nextOwnActorId();
        if (own != 0) {
            return own;
        }
        long fresh = IDS.incrementAndGet();
        if (fresh >>> SEQUENCE_BITS != 0) {
            throw new IllegalStateException("more than 2^40 actor ids taken in this JVM");
        }
        return fresh | placeBits;
    }

    /**
     * Gives this reference {@code id} (an id the places module allocated for an actor created from another place).
     *
     * @throws IllegalStateException if the reference has an id already
     */
    final void presetId(long id) {
        if (id == 0 || !ID.compareAndSet(this, 0L, id)) {
            throw new IllegalStateException(this + " has an id already; the id " + id + " cannot be given to it");
        }
    }

    /**
     * Sets the places' bits of the ids this JVM takes from now on.
     *
     * @throws IllegalStateException if they are set already, or an id was taken already
     * @throws IllegalArgumentException if {@code bits} has bits below the top 24
     */
    static synchronized void usePlaceBits(long bits) {
        if (bits << (64 - SEQUENCE_BITS) != 0) {
            throw new IllegalArgumentException("place bits " + Long.toHexString(bits) + " have bits below the top "
                    + (64 - SEQUENCE_BITS));
        }
        if (placeBits != 0 || IDS.get() != 0) {
            throw new IllegalStateException("the places' bits of this JVM's actor ids are set once, before any actor"
                    + " has an id (" + IDS.get() + " ids taken, bits " + Long.toHexString(placeBits) + ")");
        }
        placeBits = bits;
    }

    @Override
    public final String name() {
        ActorExtras x = actor.extrasOrNull();
        String n = x == null ? null : x.name;
        return n != null ? n : simpleName(actor.getClass());
    }

    /** The simple name of an actor class; for an anonymous class, its binary name after the package. */
    static String simpleName(Class<?> c) {
        String s = c.getSimpleName();
        return s.isEmpty() ? c.getName().substring(c.getName().lastIndexOf('.') + 1) : s;
    }

    /**
     * Checks a name given to {@code start(name)}: not blank, at most 200 characters, no control characters
     * (it is printed in single-line diagnostics).
     */
    static String checkName(String name, Object actor) {
        Objects.requireNonNull(name, () -> "null name given to start() of " + actor);
        String problem = name.isBlank() ? "is blank"
                : name.length() > 200 ? "is longer than 200 characters"
                : name.chars().anyMatch(Character::isISOControl) ? "contains a control character"
                : null;
        if (problem != null) {
            throw new IllegalArgumentException("the name given to start() of " + actor + " " + problem + ": \""
                    + ActorDiagnostics.brief(name) + "\"");
        }
        return name;
    }

    @Override
    public final boolean equals(Object o) {
        return o == this || o instanceof ActorRef<?> r && r.id() == id();
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(id());
    }

    @Override
    public final String toString() {
        return name() + "@" + id();
    }

    /** The reference to an {@link Actor} or {@link StatelessActor}. */
    static final class OfActor<M> extends LocalRef<M> {
        OfActor(ActorCore<M> actor) {
            super(actor);
        }

        @Override
        public void send(M message) {
            if (SendInterception.used() && intercepted(-1, message)) {
                return;
            }
            MailboxAdmission.tell(actor, mailbox, message);
        }

        @Override
        @SuppressWarnings("unchecked")
        void sendUnintercepted(Object message) {
            MailboxAdmission.tell(actor, mailbox, (M) message);
        }
    }

    /** The reference to a {@link Selector}. */
    static final class OfSelector<M, B extends Enum<B>> extends LocalRef<M> implements SelectorRef<M, B> {
        OfSelector(Selector<M, B> selector) {
            super(selector);
        }

        /** The selector (a cast, not a second field). */
        @SuppressWarnings("unchecked")
        private Selector<M, B> selector() {
            return (Selector<M, B>) actor;
        }

        @Override
        public void send(M message) {
            if (SendInterception.used() && intercepted(-1, message)) {
                return;
            }
            selector().tellRouted(mailbox, message);
        }

        @Override
        public void send(int number, M message) {
            if (SendInterception.used() && intercepted(number, message)) {
                return;
            }
            selector().tell(mailbox, number, message);
        }

        @Override
        public void send(B name, M message) {
            if (SendInterception.used() && intercepted(selector().index(name), message)) {
                return;
            }
            selector().tell(mailbox, name, message);
        }

        @Override
        public <R> CompletableFuture<R> ask(B name, Function<? super ReplyTo<R>, ? extends M> request,
                Duration timeout) {
            return AskFuture.ask(actor, request, timeout, selector().index(name));
        }

        @Override
        @SuppressWarnings("unchecked")
        void sendUnintercepted(Object message) {
            selector().tellRouted(mailbox, (M) message);
        }

        @SuppressWarnings("unchecked")
        void sendUnintercepted(int number, Object message) {
            selector().tell(mailbox, number, (M) message);
        }

        @Override
        public int mailboxCount() {
            return selector().mailboxCount();
        }
    }
}

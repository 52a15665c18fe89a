package dev.switchboard.actor;

import dev.switchboard.internal.RuntimeEvents;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A cell hosting a fresh instance of its actor behind the same reference: the seam a supervisor restarts an actor
 * through. An actor's reference points at its cell (the first instance, {@link ActorCore}, which keeps the status
 * word, the mailbox and the token); {@link #create} builds a new instance of the same class for that cell, and
 * {@link #host} makes it the one whose {@code process}, {@code onStart()} and {@code onExit()} run from the next
 * message on. The messages queued in the mailbox stay there, and every holder of the reference keeps sending to
 * it.
 *
 * <p>An instance built by {@link #create} shares the cell's reference, mailbox, bound and dispatch (its
 * constructor takes them from the cell, so what its constructor enables or disables in a selector's mailboxes
 * applies to the cell's at once: create it in the cell's processing), and all it does on itself ({@code self()}, {@code exit()},
 * {@code become}, timers, {@code awaitReply}, a selector's {@code enable}) acts on the cell. It is never started
 * on its own. What the cell keeps: its timers, the replies it awaits, its selector's guards and routing, its
 * throughput budget; what it drops when it hosts a new instance: the behaviors {@code become} stacked. Owns the
 * extras' {@code instance} field and the constructor's view of the cell being hosted for ({@link #hostOfNew}).
 */
final class ActorHosting {
    /*
     * Implementation notes. `used` is a plain static field, set by the first create() and never cleared: every
     * ActorCore constructor reads it, and only then (for the life of the JVM, once some code has hosted) the
     * thread-local. The thread that creates an instance for a
     * cell sets both before it runs the factory and sees its own writes in program order; a constructor on
     * another thread that reads a stale false is not building for a cell anyway.
     */
    private static final ThreadLocal<ActorCore<?>> HOST = new ThreadLocal<>();
    private static boolean used;

    private ActorHosting() {
    }

    /**
     * The cell the actor {@code constructing} (in its constructor, on this thread) is for, or null (the common
     * case: a new actor). The first actor of the cell's class constructed inside {@link #create}'s factory takes the cell;
     * any other actor the factory builds (a child, a helper) is an actor of its own.
     */
    static ActorCore<?> hostOfNew(Object constructing) {
        if (!used) {
            return null;
        }
        ActorCore<?> cell = HOST.get();
        if (cell == null || cell.getClass() != constructing.getClass()) {
            return null;
        }
        HOST.set(null);
        return cell;
    }

    /**
     * Creates, with {@code factory}, an instance of the cell's class that uses the cell's reference and mailbox.
     *
     * @throws IllegalStateException if the factory returns an instance it did not create now, or of another class
     */
    static <M, A extends ActorCore<M>> A create(ActorCore<M> cell, Supplier<A> factory) {
        Objects.requireNonNull(factory, "factory");
        if (cell.cell() != cell) {
            throw new IllegalStateException(cell + " is an instance hosted by a cell, not a cell");
        }
        ActorCore<?> previous = HOST.get();
        used = true;
        HOST.set(cell);
        A fresh;
        try {
            fresh = factory.get();
        } finally {
            HOST.set(previous);
        }
        if (fresh != null && fresh.getClass() != cell.getClass()) {
            throw new IllegalStateException("the factory for " + cell + " returned a " + fresh.getClass().getName()
                    + ": a cell hosts instances of its own class, " + cell.getClass().getName());
        }
        if (fresh == null || fresh == cell || fresh.cell() != cell) {
            throw new IllegalStateException("the factory for " + cell + " returned " + (fresh == null ? "null"
                    : fresh == cell ? "the instance it replaces" : "an instance it did not create for it") + "; it must"
                    + " return a new instance each time");
        }
        return fresh;
    }

    /**
     * Makes {@code fresh} the instance that processes the cell's messages, from the next one on; its
     * {@code onStart()} runs before that message if its class overrides it. Called by the cell's own processing
     * (the token held).
     *
     * @throws IllegalArgumentException if {@code fresh} was not created for this cell by {@link #create}
     * @throws IllegalStateException    if not called by the cell's processing of a message or a reply
     */
    static <M> void host(ActorCore<M> cell, ActorCore<M> fresh) {
        host(cell, fresh, null);
    }

    /** {@link #host(ActorCore, ActorCore)} for a restart: {@code cause} is the failure it answers (for events). */
    static <M> void host(ActorCore<M> cell, ActorCore<M> fresh, Throwable cause) {
        if (fresh.cell() != cell || fresh == cell) {
            throw new IllegalArgumentException(fresh + " was not created for " + cell + " by ActorHosting.create");
        }
        OwnerChecks.requireProcessingOnceStarted(cell, "host");
        ActorExtras x = cell.extras();
        x.instance = fresh;
        x.become = null;
        cell.behavior = fresh::process;
        if ((ActorLifecycle.HOOKS.get(fresh.getClass()) & ActorLifecycle.START_HOOK) != 0) {
            x.startPending = true;
        }
        cell.scheduler().events().publish(RuntimeEvents.Kind.RESTART, cell.self, null, cause,
                "a fresh instance takes the cell's messages from the next one on");
    }

    /** The instance whose {@code process} and hooks run for {@code cell}: the cell, unless it hosts another. */
    static ActorCore<?> instanceOf(ActorCore<?> cell) {
        ActorExtras x = cell.extrasOrNull();
        ActorCore<?> i = x == null ? null : x.instance;
        return i == null ? cell : i;
    }
}

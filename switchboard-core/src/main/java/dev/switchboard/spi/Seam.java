package dev.switchboard.spi;

import dev.switchboard.actor.ActorCore;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.internal.ActorAccess;
import dev.switchboard.internal.SendInterception;
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

    /**
     * Binds {@code policy} to {@code actor}: from now on every message to the actor is the policy's to start.
     * Call it before the actor starts (its constructor, typically).
     *
     * @throws IllegalStateException if the actor was started already or has a policy, or is a stateless actor,
     *         or a selector with several bounded mailboxes
     */
    public static void bind(ActorCore<?> actor, DispatchPolicy policy) {
        ActorAccess.get().bind(Objects.requireNonNull(actor, "actor"), Objects.requireNonNull(policy, "policy"));
    }

    /**
     * Installs {@code interceptor} for the sends this thread makes until the returned interception is closed
     * (which puts back the interceptor it replaced, if any). Sends through references ({@code send} and the
     * selector forms) are intercepted; requests ({@code ask}, {@code awaitReply}) are not.
     */
    public static Interception interceptSends(SendInterceptor interceptor) {
        Objects.requireNonNull(interceptor, "interceptor");
        return new Interception(SendInterception.install(interceptor), Thread.currentThread());
    }

    /**
     * Sends {@code message} to {@code to} now, past any interceptor of this thread: into {@code mailbox}, or, if
     * {@code mailbox} is -1, wherever a plain {@code send} would put it.
     *
     * @throws ClassCastException       never checked: the message must be of the type the actor accepts
     * @throws IllegalArgumentException if {@code to} has no mailbox {@code mailbox}
     */
    public static void sendNow(ActorRef<?> to, int mailbox, Object message) {
        ActorAccess.get().sendNow(Objects.requireNonNull(to, "to"), mailbox, message);
    }

    /** An installed {@link SendInterceptor}; closing it uninstalls it. */
    public static final class Interception implements AutoCloseable {
        private final SendInterceptor previous;
        private final Thread thread;
        private boolean closed;

        private Interception(SendInterceptor previous, Thread thread) {
            this.previous = previous;
            this.thread = thread;
        }

        /**
         * Uninstalls the interceptor, putting back the one it replaced. Idempotent.
         *
         * @throws IllegalStateException if called on another thread than the one that installed it
         */
        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("an interception installed on thread '" + thread.getName()
                        + "' must be closed there, not on '" + Thread.currentThread().getName() + "'");
            }
            if (!closed) {
                closed = true;
                SendInterception.restore(previous);
            }
        }
    }
}

package dev.switchboard.actor;

import dev.switchboard.internal.Interceptor;
import dev.switchboard.internal.RemoteSend;
import dev.switchboard.internal.SendInterception;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The reference to an actor of another JVM (a place): its global id, its name, and the route its messages take
 * there (the places module's {@code RemoteRoute}, given through {@code Seam.remoteRef}). {@link OfActor} for an
 * actor, {@link OfSelector} for a selector, whose mailboxes a sender may name by number (the mailbox enum of a
 * selector in another JVM is not known here: {@code send(B, M)} sends to the constant's ordinal).
 *
 * <h2>Implementation notes</h2>
 * Equality is by id, as for {@link LocalRef}: a remote reference and the local reference of the same actor (the
 * same global id, on the actor's own place) are equal. Sends are intercepted as local ones are (a transaction
 * holds them until it commits). A request ({@code ask}, {@code awaitReply}) goes through the route like any
 * message, with its {@link ReplyTo}, which the places module writes as a handle the replier's place answers
 * through; its timeout runs on the route's runtime (a route without one refuses requests).
 */
abstract sealed class RemoteRef<M> implements ActorRef<M> permits RemoteRef.OfActor, RemoteRef.OfSelector {
    private final long id;
    private final String name;
    final RemoteSend route;

    RemoteRef(long id, String name, RemoteSend route) {
        this.id = id;
        this.name = Objects.requireNonNull(name, "name");
        this.route = Objects.requireNonNull(route, "route");
    }

    /** A remote reference: of a selector with {@code mailboxes} mailboxes, or of an actor if that is -1. */
    static ActorRef<?> of(long id, String name, int mailboxes, RemoteSend route) {
        return mailboxes < 0 ? new OfActor<>(id, name, route) : new OfSelector<>(id, name, mailboxes, route);
    }

    final void route(int mailbox, Object message) {
        Objects.requireNonNull(message, () -> "null message sent to " + this);
        if (SendInterception.used()) {
            Interceptor i = SendInterception.current();
            if (i != null && i.interceptSend(this, mailbox, message)) {
                return;
            }
        }
        route.send(this, mailbox, message);
    }

    /** Sends past any interceptor ({@code Seam.sendNow}). */
    final void sendUnintercepted(int mailbox, Object message) {
        route.send(this, mailbox, message);
    }

    @Override
    public final void send(M message) {
        route(-1, message);
    }

    @Override
    public final <R> CompletableFuture<R> ask(Function<? super ReplyTo<R>, ? extends M> request, Duration timeout) {
        return AskFuture.ask(this, request, timeout, -1);
    }

    /** Why a request to this actor is refused. */
    final UnsupportedOperationException requestRefused(String what) {
        return new UnsupportedOperationException(what + " to " + this + ", an actor of another JVM, is not"
                + " supported by its route: send it a request that carries a reference to answer to (self(), or a"
                + " local actor's), and answer with a message");
    }

    @Override
    public final CompletionStage<Terminated> whenTerminated() {
        return ActorWatch.whenTerminated(this);
    }

    @Override
    public final void stop() {
        throw new UnsupportedOperationException("stop() of " + this + ", an actor of another place, is not supported"
                + " yet: send it a message it answers with exit()");
    }

    @Override
    public final void stopNow() {
        throw new UnsupportedOperationException("stopNow() of " + this + ", an actor of another place, is not"
                + " supported yet: send it a message it answers with exit()");
    }

    @Override
    public final long id() {
        return id;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean equals(Object o) {
        return o == this || o instanceof ActorRef<?> r && r.id() == id;
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public final String toString() {
        return name + "@" + id;
    }

    /** The reference to an actor of another place. */
    static final class OfActor<M> extends RemoteRef<M> {
        OfActor(long id, String name, RemoteSend route) {
            super(id, name, route);
        }
    }

    /** The reference to a selector of another place. */
    static final class OfSelector<M, B extends Enum<B>> extends RemoteRef<M> implements SelectorRef<M, B> {
        private final int mailboxes;

        OfSelector(long id, String name, int mailboxes, RemoteSend route) {
            super(id, name, route);
            if (mailboxes < 1) {
                throw new IllegalArgumentException("a selector has at least one mailbox, not " + mailboxes);
            }
            this.mailboxes = mailboxes;
        }

        @Override
        public void send(int mailbox, M message) {
            if (mailbox < 0 || mailbox >= mailboxes) {
                throw new IllegalArgumentException("send to mailbox " + mailbox + " of " + this + ", which has "
                        + mailboxes + " mailboxes (0 to " + (mailboxes - 1) + ")");
            }
            route(mailbox, message);
        }

        @Override
        public void send(B mailbox, M message) {
            send(Objects.requireNonNull(mailbox, "mailbox").ordinal(), message);
        }

        @Override
        public <R> CompletableFuture<R> ask(B mailbox, Function<? super ReplyTo<R>, ? extends M> request,
                Duration timeout) {
            return AskFuture.ask(this, request, timeout, Objects.requireNonNull(mailbox, "mailbox").ordinal());
        }

        @Override
        public int mailboxCount() {
            return mailboxes;
        }
    }
}

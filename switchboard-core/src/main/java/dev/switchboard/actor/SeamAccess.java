package dev.switchboard.actor;

import dev.switchboard.internal.ActorAccess;
import dev.switchboard.spi.DispatchPolicy;
import dev.switchboard.spi.RemoteRoute;
import java.util.List;

/** The operations {@code dev.switchboard.spi} reaches in this package; installed when ActorCell is initialized. */
final class SeamAccess extends ActorAccess {
    static void install() {
        ActorAccess.install(new SeamAccess());
    }

    @Override
    public void bind(ActorCore<?> actor, DispatchPolicy policy) {
        PolicyDispatch.bind(actor, policy);
    }

    @Override
    public ActorRef<?> remoteRef(long id, String name, int mailboxes, RemoteRoute route) {
        return RemoteRef.of(id, name, mailboxes, route);
    }

    @Override
    public void presetId(ActorCore<?> actor, long id) {
        actor.self.presetId(id);
    }

    @Override
    public void usePlaceBits(long bits) {
        LocalRef.usePlaceBits(bits);
    }

    @Override
    public ActorRef<?> referenceOf(ActorCore<?> actor) {
        return actor.self;
    }

    @Override
    public boolean hasTerminated(ActorRef<?> ref) {
        if (!(ref instanceof LocalRef<?> local)) {
            throw new IllegalArgumentException(ref + " is not the reference of an actor of this JVM");
        }
        return local.actor.state() == ActorState.TERMINATED;
    }

    @Override
    public boolean isRemote(ActorRef<?> ref) {
        return ref instanceof RemoteRef<?>;
    }

    @Override
    public List<Class<?>> referenceClasses() {
        return List.of(LocalRef.OfActor.class, LocalRef.OfSelector.class, RemoteRef.OfActor.class,
                RemoteRef.OfSelector.class);
    }

    @Override
    public void replyNow(ReplyTo<?> replyTo, Object reply, Throwable failure) {
        replyTo.answerNow(reply, failure);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void sendNow(ActorRef<?> to, int mailbox, Object message) {
        if (to instanceof RemoteRef<?> remote) {
            remote.sendUnintercepted(mailbox, message);
            return;
        }
        LocalRef r = (LocalRef) to;
        if (mailbox < 0) {
            r.sendUnintercepted(message);
        } else if (r instanceof LocalRef.OfSelector s) {
            s.sendUnintercepted(mailbox, message);
        } else if (mailbox == 0) {
            r.sendUnintercepted(message);
        } else {
            throw new IllegalArgumentException("send to mailbox " + mailbox + " of " + to
                    + ", which has one mailbox (0)");
        }
    }
}

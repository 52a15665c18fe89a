package dev.switchboard.actor;

import dev.switchboard.internal.ActorAccess;
import dev.switchboard.internal.Context;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.RemoteAnswer;
import dev.switchboard.internal.RemoteSend;
import dev.switchboard.spi.DispatchPolicy;
import java.util.List;

/**
 * The operations {@code dev.switchboard.spi} reaches in this package; installed when ActorCell is initialized. It
 * casts the actors, references, policies and reply handles {@code Seam} passes as the Objects of ActorAccess.
 */
final class SeamAccess extends ActorAccess {
    static void install() {
        ActorAccess.install(new SeamAccess());
    }

    @Override
    public void bind(Object actor, Object policy) {
        PolicyDispatch.bind((ActorCore<?>) actor, (DispatchPolicy) policy);
    }

    @Override
    public ActorRef<?> remoteRef(long id, String name, int mailboxes, RemoteSend route) {
        return RemoteRef.of(id, LocalRef.checkName(name, "the actor " + id + " of another place"), mailboxes, route);
    }

    @Override
    public void presetId(Object actor, long id) {
        ((ActorCore<?>) actor).self.presetId(id);
    }

    @Override
    public void usePlaceBits(long bits) {
        LocalRef.usePlaceBits(bits);
    }

    @Override
    public String withoutContents(Object deadLetter) {
        DeadLetter d = (DeadLetter) deadLetter;
        return d.describe(ActorDiagnostics.withArticle(ActorDiagnostics.typeOf(d.message())));
    }

    @Override
    public String internals(Object actor) {
        return ActorDiagnostics.internals((ActorCore<?>) actor);
    }

    @Override
    public ActorRef<?> referenceOf(Object actor) {
        return ((ActorCore<?>) actor).self;
    }

    @Override
    public boolean hasTerminated(Object ref) {
        if (!(ref instanceof LocalRef<?> local)) {
            throw new IllegalArgumentException(ref + " is not the reference of an actor of this JVM");
        }
        return local.actor.state() == ActorState.TERMINATED;
    }

    @Override
    public boolean runsFor(Object actor) {
        Node n = Context.current();
        return n != null && n.owner() == ((ActorCore<?>) actor).cell();
    }

    @Override
    public boolean hasActiveTimer(Object ref, Object key) {
        if (!(ref instanceof LocalRef<?> local)) {
            throw new IllegalArgumentException(ref + " is not the reference of an actor of this JVM");
        }
        return ActorTimers.activeNow(local.actor, key);
    }

    @Override
    public boolean isRemote(Object ref) {
        return ref instanceof RemoteRef<?>;
    }

    @Override
    public List<Class<?>> referenceClasses() {
        return List.of(LocalRef.OfActor.class, LocalRef.OfSelector.class, RemoteRef.OfActor.class,
                RemoteRef.OfSelector.class);
    }

    @Override
    public void replyNow(Object replyTo, Object reply, Throwable failure) {
        ((ReplyTo<?>) replyTo).answerNow(reply, failure);
    }

    @Override
    public ReplyTo<?> remoteReplyTo(Object target, RemoteAnswer answer) {
        return new ReplyTo<>(new RemoteAnswerWaiter(answer), (ActorRef<?>) target);
    }

    @Override
    public RemoteAnswer remoteAnswerOf(Object replyTo) {
        return ((ReplyTo<?>) replyTo).waiter() instanceof RemoteAnswerWaiter w ? w.answer() : null;
    }

    @Override
    public boolean isAwaited(Object replyTo) {
        return !((ReplyTo<?>) replyTo).isAnswered() && ((ReplyTo<?>) replyTo).waiter().awaited();
    }

    @Override
    public void giveUp(Object replyTo, Throwable cause) {
        ((ReplyTo<?>) replyTo).failUnanswered(cause);
    }

    @Override
    public ActorRef<?> requestTarget(Object replyTo) {
        return ((ReplyTo<?>) replyTo).target;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void sendRequest(Object to, int mailbox, Object message, Object replyTo) {
        if (!(to instanceof LocalRef<?> local)) {
            throw new IllegalArgumentException(to + " is not the reference of an actor of this JVM");
        }
        MailboxAdmission.request((ActorCore<Object>) local.actor, new Request(message, (ReplyTo<?>) replyTo), message,
                mailbox);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void sendNow(Object to, int mailbox, Object message) {
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

package dev.switchboard.seamtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.spi.RemoteRoute;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Runtimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** References to actors of another JVM, made through the seam: what they route, equality, what they refuse. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RemoteRefTest {
    enum Box { FIRST, SECOND, THIRD }

    record Routed(ActorRef<?> to, int mailbox, Object message) {
    }

    private final List<Routed> routed = new CopyOnWriteArrayList<>();
    private final RemoteRoute route = (to, mailbox, message) -> routed.add(new Routed(to, mailbox, message));
    private static final long ID = (3L << 52) | (5L << 40) | 77;

    @Test
    @SuppressWarnings("unchecked")
    void aRemoteActorReferenceRoutesEverySendWithItsMailbox() {
        ActorRef<String> actor = (ActorRef<String>) Seam.remoteRef(ID, "echo", -1, route);
        SelectorRef<String, Box> selector = (SelectorRef<String, Box>) Seam.remoteRef(ID + 1, "buffer", 3, route);
        actor.send("a");
        selector.send("b");
        selector.send(2, "c");
        selector.send(Box.SECOND, "d");
        assertThat(routed).containsExactly(new Routed(actor, -1, "a"), new Routed(selector, -1, "b"),
                new Routed(selector, 2, "c"), new Routed(selector, 1, "d"));
        assertThat(actor).isNotInstanceOf(SelectorRef.class);
        assertThat(selector.mailboxCount()).isEqualTo(3);
        assertThat(actor.id()).isEqualTo(ID);
        assertThat(actor).hasToString("echo@" + ID);
        assertThat(Seam.isRemote(actor)).isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void badSendsFailAtTheSenderNamingTheActor() {
        SelectorRef<String, Box> selector = (SelectorRef<String, Box>) Seam.remoteRef(ID, "buffer", 3, route);
        assertThatThrownBy(() -> selector.send(3, "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mailbox 3 of buffer@" + ID).hasMessageContaining("0 to 2");
        assertThatThrownBy(() -> selector.send(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("buffer@" + ID);
        assertThatThrownBy(() -> selector.ask(r -> "q", Duration.ofSeconds(1)))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("another JVM, is not supported by its route")
                .hasMessageContaining("buffer@" + ID);
        assertThatThrownBy(() -> Seam.remoteRef(ID, "x", 0, route)).isInstanceOf(IllegalArgumentException.class);
        assertThat(routed).isEmpty();
    }

    static final class Sink extends Actor<String> {
        @Override
        protected void process(String m) {
            exit();
        }
    }

    @Test
    void aLocalReferenceGivenAGlobalIdEqualsTheRemoteReferencesToIt() {
        try (TaskRuntime rt = Runtimes.workers(1)) {
            rt.finish(() -> {
                Sink sink = new Sink();
                Seam.presetId(sink, ID);
                ActorRef<String> local = sink.start();
                ActorRef<?> remote = Seam.remoteRef(ID, "Sink", -1, route);
                assertThat(remote).isEqualTo(local);
                assertThat(local).isEqualTo(remote);
                assertThat(remote.hashCode()).isEqualTo(local.hashCode());
                assertThatThrownBy(() -> Seam.presetId(sink, ID + 1)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("has an id already");
                local.send("end");
            });
        }
    }

    @Test
    void theTopBitsOfIdsAreSetOnceBeforeAnyIdIsTaken() {
        assertThatThrownBy(() -> Seam.usePlaceBits(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("top 24");
        try (TaskRuntime rt = Runtimes.workers(1)) {
            rt.finish(() -> {
                ActorRef<String> sink = new Sink().start();
                assertThat(sink.id()).isPositive();   // an id is taken in this JVM
                sink.send("end");
            });
        }
        assertThatThrownBy(() -> Seam.usePlaceBits(1L << 40)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before any actor");
    }

    /** An actor that asks a remote actor: awaitReply is refused at the call, and the failure reaches the finish. */
    @Test
    @SuppressWarnings("unchecked")
    void awaitReplyToARemoteActorIsRefusedAtTheCall() {
        ActorRef<Object> remote = (ActorRef<Object>) Seam.remoteRef(ID, "far", -1, route);
        AtomicReference<Throwable> refused = new AtomicReference<>();
        try (TaskRuntime rt = Runtimes.workers(1)) {
            rt.finish(() -> {
                Actor<String> asker = new Actor<>() {
                    @Override
                    protected void process(String m) {
                        try {
                            awaitReply(remote, r -> r, (Object answer) -> { });
                        } catch (UnsupportedOperationException e) {
                            refused.set(e);
                        }
                        exit();
                    }
                };
                asker.start().send("go");
            });
        }
        assertThat(refused.get()).hasMessageContaining("awaitReply() to far@" + ID);
    }
}

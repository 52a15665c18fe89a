package dev.switchboard.seamtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Selector;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.spi.Seam;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Seam.interceptSends holds the sends of one thread; Seam.sendNow lets them go. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SendInterceptionTest {
    enum Box { LOW, HIGH }

    /** Records (mailbox, message) until "end". */
    static final class Recorder extends Selector<String, Box> {
        final List<String> got = new CopyOnWriteArrayList<>();

        Recorder() {
            super(Box.class);
        }

        @Override
        protected void process(String m) {
            if (m.equals("end")) {
                exit();
            } else {
                got.add(currentMailbox() + ":" + m);
            }
        }
    }

    record Held(ActorRef<?> to, int mailbox, Object message) {
    }

    @Test
    void sendsOnTheInterceptingThreadAreHeldUntilSentNow() {
        try (TaskRuntime rt = TaskRuntime.create(2)) {
            Recorder recorder = new Recorder();
            List<Held> outer = new ArrayList<>();
            List<Held> inner = new ArrayList<>();
            rt.finish(() -> {
                SelectorRef<String, Box> ref = recorder.start();
                try (Seam.Interception a = Seam.interceptSends((to, mailbox, m) -> outer.add(new Held(to, mailbox, m)))) {
                    ref.send("routed");
                    ref.send(Box.HIGH, "by name");
                    try (Seam.Interception b = Seam.interceptSends((to, mailbox, m) -> inner.add(new Held(to, mailbox, m)))) {
                        ref.send(0, "by number");
                    }
                    ref.send(Box.LOW, "after the inner one closed");
                    // another thread is not intercepted
                    CompletableFuture.runAsync(() -> ref.send(Box.HIGH, "from another thread")).join();
                }
                Await.until("the other thread's message", () -> recorder.got.size() == 1);
                assertThat(recorder.got).containsExactly("1:from another thread");
                for (Held h : outer) {
                    Seam.sendNow(h.to(), h.mailbox(), h.message());
                }
                for (Held h : inner) {
                    Seam.sendNow(h.to(), h.mailbox(), h.message());
                }
                ref.send(Box.HIGH, "end");                    // no interceptor any more; after "by name" there
            });
            assertThat(outer).extracting(Held::mailbox).containsExactly(-1, 1, 0);
            assertThat(inner).extracting(Held::message).containsExactly("by number");
            assertThat(recorder.got).containsExactlyInAnyOrder("1:from another thread", "0:routed", "1:by name",
                    "0:after the inner one closed", "0:by number");
            assertThat(recorder.got).filteredOn(m -> m.startsWith("0:"))     // per mailbox, in the order sent now
                    .containsExactly("0:routed", "0:after the inner one closed", "0:by number");
        }
    }

    @Test
    void anInterceptionIsClosedOnItsOwnThreadAndSendNowChecksTheMailbox() throws Exception {
        Seam.Interception i = Seam.interceptSends((to, mailbox, m) -> true);
        Throwable elsewhere = CompletableFuture.supplyAsync(() -> {
            try {
                i.close();
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        }).get(20, TimeUnit.SECONDS);
        i.close();
        assertThat(elsewhere).hasMessageContaining("must be closed there");
        Seam.Interception outer = Seam.interceptSends((to, mailbox, m) -> true);
        Seam.Interception inner = Seam.interceptSends((to, mailbox, m) -> true);
        assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("close them in the reverse order");
        inner.close();
        outer.close();
        try (TaskRuntime rt = TaskRuntime.create(1)) {
            rt.finish(() -> {
                ActorRef<String> plain = new Actor<String>() {
                    @Override
                    protected void process(String m) {
                        exit();
                    }
                }.start("plain");
                assertThatThrownBy(() -> Seam.sendNow(plain, 1, "x")).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageMatching("send to mailbox 1 of plain@\\d+, which has one mailbox \\(0\\)");
                Seam.sendNow(plain, 0, "x");
            });
        }
    }
}

package dev.switchboard.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.actor.AwaitReplyEndTest.Fast;
import dev.switchboard.actor.AwaitReplyEndTest.FirstAnswerWins;
import dev.switchboard.actor.AwaitReplyEndTest.Get;
import dev.switchboard.actor.AwaitReplyEndTest.Keeper;
import dev.switchboard.internal.Node;
import dev.switchboard.internal.RuntimeAccess;
import dev.switchboard.internal.Scope;
import dev.switchboard.task.FinishTimeoutException;
import dev.switchboard.task.TaskRuntime;
import dev.switchboard.testing.Await;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
/**
 * The hold a finish keeps for a reply awaited by an actor that has ended: once the answer has come it is no longer
 * reported as open and leaves its scope's tracked list; the close of the runtime ends a hold made before it.
 */
class AwaitReplyHoldTest {

    static int replyHoldsTracked(Scope s) throws Exception {
        Field tracked = Scope.class.getDeclaredField("tracked");
        tracked.setAccessible(true);
        Field next = Node.class.getDeclaredField("nextTracked");
        next.setAccessible(true);
        Object list = tracked.get(s);                        // a TrackedNodes, or null before the first node
        if (list == null) {
            return 0;
        }
        Method first = list.getClass().getDeclaredMethod("first");
        first.setAccessible(true);
        int n = 0;
        for (Node x = (Node) first.invoke(list); x != null; x = (Node) next.get(x)) {
            if (x instanceof AwaitedReplies.ReplyHold) {
                n++;
                assertThat(x.isDone()).as("a completed ReplyHold is not done (not a root)").isFalse();
            }
        }
        return n;
    }

    /** After the late answer has come (and completed the hold), a report must not say the finish waits for it. */
    @Test
    void anAnsweredHoldIsNotReportedAsOpen() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().name("stale").workers(2).build()) {
            DeadLetter.subscribe(rt, dead::add);
            Keeper slow = new Keeper(false);                 // stays: keeps the finish open
            AtomicReference<FirstAnswerWins> client = new AtomicReference<>();
            assertThatThrownBy(() -> rt.finish(Duration.ofSeconds(3), () -> {
                ActorRef<Get> fast = new Fast().start();
                client.set(new FirstAnswerWins(fast, slow.start()));
                client.get().start();
                client.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                slow.kept.get(30, TimeUnit.SECONDS).reply("late");
                Await.until("the late answer is a dead letter", () -> dead.size() == 1);
                fast.stop();
            }))
                    .isInstanceOf(FinishTimeoutException.class)
                    .satisfies(e -> assertThat(((FinishTimeoutException) e).openItems())
                            .as("open items after the answer came")
                            .noneMatch(i -> i.contains("its finish waits for the reply")));
            slow.ref().stop();
        }
    }

    /** Actors outside every finish: each that exits with an unanswered reply leaves a hold on the global list. */
    @Test
    void answeredHoldsArePrunedFromTheGlobalScope() throws Exception {
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        try (TaskRuntime rt = TaskRuntime.builder().name("leak").workers(2).build()) {
            DeadLetter.subscribe(rt, dead::add);
            Scope global = RuntimeAccess.scheduler(rt).globalScope();
            int rounds = 300;
            for (int i = 0; i < rounds; i++) {
                Keeper slow = new Keeper(false);
                AtomicReference<FirstAnswerWins> client = new AtomicReference<>();
                AtomicReference<ActorRef<Get>> fast = new AtomicReference<>();
                rt.async(() -> {
                    fast.set(new Fast().start());
                    client.set(new FirstAnswerWins(fast.get(), slow.start()));
                    client.get().start();
                });
                Await.until("started", () -> client.get() != null);
                client.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                slow.kept.get(30, TimeUnit.SECONDS).reply("late");
                fast.get().stop();
                slow.ref().stop();
            }
            Await.until("all late answers dead letters", () -> dead.size() == rounds);
            Await.until("global quiet", () -> global.getPendingCount() == 0);
            List<String> items = global.openItems(RuntimeAccess.scheduler(rt).clock().nanoTime());
            assertThat(items).as("open items of a quiet global scope").isEmpty();
            assertThat(replyHoldsTracked(global)).as("answered holds still on the global list").isLessThan(70);
        }
    }

    /** A hold made before the close: the close does not end it, so the scope keeps a count for a reply nobody awaits. */
    @Test
    void theCloseEndsAHoldMadeBeforeIt() throws Exception {
        TaskRuntime other = TaskRuntime.create(1);
        try {
            Keeper slow = new Keeper(false);
            other.async(slow::start);
            TaskRuntime rt = TaskRuntime.builder().name("closed-hold").workers(2).build();
            Scope global = RuntimeAccess.scheduler(rt).globalScope();
            AtomicReference<FirstAnswerWins> client = new AtomicReference<>();
            AtomicReference<ActorRef<Get>> fast = new AtomicReference<>();
            rt.async(() -> {
                fast.set(new Fast().start());
                client.set(new FirstAnswerWins(fast.get(), slow.ref()));
                client.get().start();
            });
            Await.until("started", () -> client.get() != null);
            client.get().ref().whenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            ReplyTo<String> replyTo = slow.kept.get(30, TimeUnit.SECONDS);
            fast.get().stop();
            Await.until("only the hold is open", () -> global.getPendingCount() == 1);
            assertThat(rt.close(Duration.ofSeconds(30))).isTrue();
            assertThat(global.getPendingCount()).as("counts left in the closed runtime's global scope").isZero();
            replyTo.reply("after the close");
            assertThat(RuntimeMetrics.of(rt).deadLetters(DeadLetter.Reason.REPLY_AFTER_EXIT)).isEqualTo(1);
        } finally {
            other.close();
        }
    }
}

package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Terminated;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An actor's end racing with a watch and a {@code whenTerminated()} registered meanwhile: each is told exactly
 * once, whether it registered before the end (the ending thread tells it) or after (it sees the end and tells
 * itself). The actor ends with no child alive, so its end is marked in the same atomic that releases its finish.
 * r1: the late {@code whenTerminated()} completed (1); r2: how many times the watch's message was made (1).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both told, the watcher once")
@Outcome(expect = FORBIDDEN, desc = "an end was never told, or told twice")
@State
public class WatchVsEndTest {
    static final class ExitOnFirst extends dev.switchboard.actor.Actor<String> {
        @Override
        protected void process(String m) {
            exit();
        }
    }

    /** Watches the target when told to; ends once it hears of the target's end. */
    static final class Watcher extends dev.switchboard.actor.Actor<String> {
        final ActorRef<String> target;
        final AtomicInteger made = new AtomicInteger();
        volatile boolean heard;

        Watcher(ActorRef<String> target) {
            this.target = target;
        }

        @Override
        protected void process(String m) {
            if (m.equals("watch")) {
                watch(target, end -> {
                    made.incrementAndGet();
                    return "ended";
                });
            } else {
                heard = true;
                exit();
            }
        }
    }

    final ExitOnFirst target = new ExitOnFirst();
    final Watcher watcher = new Watcher(target.ref());
    /** Registered before the start: completed by the ending thread, after it has told the watchers it found. */
    final CompletionStage<Terminated> early;
    volatile CompletionStage<Terminated> late;

    public WatchVsEndTest() {
        target.ref().send("exit");
        early = target.ref().whenTerminated();
        watcher.start();
    }

    @Actor
    public void starter() {
        target.start();
    }

    @Actor
    public void registrant() {
        watcher.ref().send("watch");            // the watcher registers on its worker, racing with both
        late = target.ref().whenTerminated();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        Settle.until(() -> early.toCompletableFuture().isDone() && late != null
                && late.toCompletableFuture().isDone() && watcher.heard);
        CompletionStage<Terminated> l = late;
        r.r1 = l != null && l.toCompletableFuture().isDone() ? 1 : 0;
        r.r2 = watcher.made.get();
    }
}

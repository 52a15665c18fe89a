package dev.switchboard.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.switchboard.task.DataDrivenFuture;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Awaiting tasks stacked on two futures, with two puts racing the registration of a task that awaits both: a
 * waiter stack then holds several tasks as their own entries, linked through different fields (b's stack through
 * the both-task's first link, a's through its second), so a put that followed the wrong link would tell a task
 * too early, tell one twice, or lose the ones below. Each body checks, without blocking, that its inputs are done.
 * The a-task puts b, so that b's put (on a worker) and a's (on a test thread) both race the registration.
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "each task ran once, after all of its inputs were put")
@Outcome(expect = FORBIDDEN, desc = "a task never ran, ran twice, or ran before an input was put")
@State
public class DdfStackedAwaitsTest {
    final DataDrivenFuture<Integer> a = new DataDrivenFuture<>();
    final DataDrivenFuture<Integer> b = new DataDrivenFuture<>();
    final AtomicInteger onlyB = new AtomicInteger();
    final AtomicInteger onlyA = new AtomicInteger();
    final AtomicInteger both = new AtomicInteger();
    /** Bit 0: the b-task ran before b was put; bit 1: the a-task before a; bit 2: the both-task before either. */
    final AtomicInteger early = new AtomicInteger();

    public DdfStackedAwaitsTest() {
        TaskRuntime rt = TaskRuntime.defaultRuntime();
        rt.asyncAwait(b, () -> {
            if (!b.isDone()) {
                early.getAndAccumulate(1, (x, y) -> x | y);
            }
            onlyB.incrementAndGet();
        });
        rt.asyncAwait(a, () -> {
            if (!a.isDone()) {
                early.getAndAccumulate(2, (x, y) -> x | y);
            }
            onlyA.incrementAndGet();
            b.put(7);
        });
    }

    @Actor
    public void producerA() {
        a.put(3);
    }

    @Actor
    public void registrar() {
        TaskRuntime.defaultRuntime().asyncAwait(b, a, () -> {
            if (!a.isDone() || !b.isDone()) {
                early.getAndAccumulate(4, (x, y) -> x | y);
            }
            both.incrementAndGet();
        });
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        Settle.until(() -> onlyB.get() > 0 && onlyA.get() > 0 && both.get() > 0);
        r.r1 = onlyB.get();
        r.r2 = onlyA.get();
        r.r3 = both.get();
        r.r4 = early.get();
    }
}

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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two puts racing with an asyncAwait of both futures: the awaiting task is its own entry in both waiter stacks
 * (one link per input), and runs exactly once, after both values, whichever stack each producer closes first.
 * One put comes from a test thread, the other from a worker (a task that awaits the first), so that the two puts
 * and the registration run at once on two test threads.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the awaiting task ran once, after both puts")
@Outcome(expect = FORBIDDEN, desc = "the task never ran, ran twice, or ran before both puts")
@State
public class DdfPutsVsAwaitBothTest {
    final DataDrivenFuture<Integer> a = new DataDrivenFuture<>();
    final DataDrivenFuture<Integer> b = new DataDrivenFuture<>();
    final AtomicInteger runs = new AtomicInteger();
    volatile int sawBoth;

    public DdfPutsVsAwaitBothTest() {
        TaskRuntime.defaultRuntime().asyncAwait(a, () -> b.put(7));
    }

    @Actor
    public void producer() {
        a.put(3);
    }

    @Actor
    public void consumer() {
        TaskRuntime.defaultRuntime().asyncAwait(a, b, () -> {
            sawBoth = a.isDone() && b.isDone() ? 1 : 0;      // without blocking: a body run early shows
            runs.incrementAndGet();
        });
    }

    @Arbiter
    public void arbiter(II_Result r) {
        Settle.until(() -> runs.get() > 0);
        r.r1 = runs.get();
        r.r2 = sawBoth;
    }
}

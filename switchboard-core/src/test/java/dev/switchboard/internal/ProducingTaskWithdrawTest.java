package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.CountedCompleter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A cancelled future's task is withdrawn ({@link ProducingTask#withdraw}) unless a thread has started it: the
 * cancelling thread and a worker race for the one claim. Outcome: how many times the value was computed, whether
 * the withdrawal won, whether the task's node is done, and how many times it completed into its parent (1): one
 * of the two, never both and never neither, and the node completed exactly once.
 */
@JCStressTest
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "the worker claimed it first: computed, then completed")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "withdrawn first: never computed, completed by the cancel")
@Outcome(expect = FORBIDDEN, desc = "computed and withdrawn, neither, not completed, or completed twice")
@State
public class ProducingTaskWithdrawTest {
    /** One runtime for every instance: no work is ever submitted to it, it only gives the tasks a scope. */
    static final Scheduler SCHEDULER = new Scheduler("jcstress-withdraw", 1, 64, 64, 0);

    final Task task = new Task();
    int withdrawn;

    static final class Task extends ProducingTask {
        int produced;
        int completions;

        Task() {
            super(SCHEDULER);
        }

        @Override
        protected void produce() {
            produced++;
        }

        @Override
        protected void neverRun(Throwable cause) {
        }

        @Override
        protected boolean valueReady() {
            return produced > 0;
        }

        @Override
        public void onCompletion(CountedCompleter<?> caller) {
            completions++;
            super.onCompletion(caller);
        }
    }

    @Actor
    public void worker() {
        task.run();
    }

    @Actor
    public void cancel() {
        withdrawn = task.withdraw() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = task.produced;
        r.r2 = withdrawn;
        r.r3 = task.isDone() ? 1 : 0;
        r.r4 = task.completions;
    }
}

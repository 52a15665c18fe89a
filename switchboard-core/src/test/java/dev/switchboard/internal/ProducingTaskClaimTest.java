package dev.switchboard.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A future's task is run by whoever claims it first ({@link ProducingTask}): the thread waiting in {@code get()}
 * (inline), the pool, or - if the runtime refused it - the refusal (the same claim). Two threads race to run one
 * task: the waiter and the pool. Outcome: how many times the value was computed, how many times the future was
 * failed as never run, and whether the task's node completed (1): computed exactly once, and completed.
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "exactly one claimant computed the value")
@Outcome(expect = FORBIDDEN, desc = "computed twice, or not at all, or never completed")
@State
public class ProducingTaskClaimTest {
    /** One runtime for every instance: no work is ever submitted to it, it only gives the tasks a scope. */
    static final Scheduler SCHEDULER = new Scheduler("jcstress-claim", 1, 64, 64, 0);

    final Task task = new Task();

    static final class Task extends ProducingTask {
        int produced;
        int neverRun;

        Task() {
            super(SCHEDULER);
        }

        @Override
        protected void produce() {
            produced++;
        }

        @Override
        protected void neverRun(Throwable cause) {
            neverRun++;
        }

        @Override
        protected boolean valueReady() {
            return produced + neverRun > 0;
        }
    }

    @Actor
    public void waiter() {
        task.run();
    }

    @Actor
    public void pool() {
        task.run();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = task.produced;
        r.r2 = task.neverRun;
        r.r3 = task.isDone() ? 1 : 0;
    }
}

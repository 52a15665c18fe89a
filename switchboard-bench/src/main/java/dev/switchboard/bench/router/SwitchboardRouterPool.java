package dev.switchboard.bench.router;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.Router;
import dev.switchboard.task.TaskRuntime;
import java.util.concurrent.atomic.LongAdder;

/** The router pool on Switchboard: {@code Router.pool} with round-robin or smallest-mailbox routing. */
final class SwitchboardRouterPool {
    private SwitchboardRouterPool() {
    }

    static long run(TaskRuntime runtime, RouterPool.Params p, RouterPool.Kind kind) {
        LongAdder total = new LongAdder();
        int work = p.work();
        runtime.finish(() -> {
            Router.Builder<Long> builder = Router.pool(p.routees(), () -> new Worker(work, total));
            ActorRef<Long> pool = (kind == RouterPool.Kind.ROUND_ROBIN ? builder.roundRobin()
                    : builder.smallestMailbox()).start();
            for (long j = 0; j < p.jobs(); j++) {
                pool.send(j);
            }
            pool.stop();                                  // after the jobs: the routees end after theirs
        });
        return total.sum();
    }

    /** Computes a job and adds its result. */
    static final class Worker extends Actor<Long> {
        private final int work;
        private final LongAdder total;

        Worker(int work, LongAdder total) {
            this.work = work;
            this.total = total;
        }

        @Override
        protected void process(Long job) {
            total.add(RouterPool.compute(job, work));
        }
    }
}

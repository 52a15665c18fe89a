package dev.switchboard.bench.router;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;
import org.apache.pekko.routing.BalancingPool;
import org.apache.pekko.routing.RoundRobinPool;

/**
 * The router pool on Pekko classic: a {@code RoundRobinPool} or a {@code BalancingPool} of routees, as its users
 * write them; the run ends when every job is done and {@code gracefulStop} of the router has completed (the
 * routees, its children, stop before it).
 */
final class PekkoRouterPool {
    /** A name per pool: a BalancingPool's dispatcher is named after its actor, and "$a" is no valid config path. */
    private static final AtomicLong POOLS = new AtomicLong();

    private PekkoRouterPool() {
    }

    static long run(ActorSystem system, RouterPool.Params p, RouterPool.Kind kind) throws Exception {
        LongAdder total = new LongAdder();
        AtomicInteger left = new AtomicInteger(p.jobs());
        CompletableFuture<Void> done = new CompletableFuture<>();
        int work = p.work();
        Props routee = Props.create(Worker.class, () -> new Worker(work, total, left, done));
        ActorRef pool = system.actorOf(kind == RouterPool.Kind.ROUND_ROBIN
                ? new RoundRobinPool(p.routees()).props(routee)
                : new BalancingPool(p.routees()).props(routee), "pool-" + POOLS.incrementAndGet());
        for (long j = 0; j < p.jobs(); j++) {
            pool.tell(j, ActorRef.noSender());
        }
        done.get(5, TimeUnit.MINUTES);
        Patterns.gracefulStop(pool, Duration.ofMinutes(5)).toCompletableFuture().get(5, TimeUnit.MINUTES);
        return total.sum();
    }

    /** Computes a job and adds its result; the last job completes the run's future. */
    static final class Worker extends AbstractActor {
        private final int work;
        private final LongAdder total;
        private final AtomicInteger left;
        private final CompletableFuture<Void> done;

        Worker(int work, LongAdder total, AtomicInteger left, CompletableFuture<Void> done) {
            this.work = work;
            this.total = total;
            this.left = left;
            this.done = done;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Long.class, job -> {
                        total.add(RouterPool.compute(job, work));
                        if (left.decrementAndGet() == 0) {
                            done.complete(null);
                        }
                    })
                    .build();
        }
    }
}

package dev.switchboard.bench.router;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * A pool of routees behind a router, fed from outside the runtime: {@code jobs} jobs, each a short computation
 * ({@code work} rounds of a linear congruential generator, about a microsecond), spread over {@code routees}
 * routees. Round-robin on both sides ({@link Kind#ROUND_ROBIN}: Switchboard's {@code Router.pool(...).roundRobin()}
 * against Pekko's {@code RoundRobinPool}), or balanced ({@link Kind#BALANCING}: Switchboard's smallest-mailbox
 * routing against Pekko's {@code BalancingPool}, whose routees share one mailbox). A run ends when the router and
 * its routees have ended: Switchboard's finish waits for them after a graceful {@code stop()} of the router,
 * Pekko's side for {@code gracefulStop} of the router once every job is done. The checksum is the sum of every
 * job's result, which does not depend on which routee ran it.
 */
public final class RouterPool implements Benchmark {
    /** How the jobs are spread. */
    public enum Kind { ROUND_ROBIN, BALANCING }

    record Params(int routees, int jobs, int work) {
    }

    private final Kind kind;
    private final Params p;
    private final long expected;

    /** 8 routees, 200,000 jobs of 300 rounds each. */
    public RouterPool(Kind kind) {
        this(kind, 8, 200_000, 300);
    }

    public RouterPool(Kind kind, int routees, int jobs, int work) {
        this.kind = kind;
        this.p = new Params(routees, jobs, work);
        long sum = 0;
        for (int j = 0; j < jobs; j++) {
            sum += compute(j, work);
        }
        this.expected = sum;
    }

    /** The job: {@code work} rounds of a linear congruential generator from the job's number. */
    static long compute(long job, int work) {
        long x = job;
        for (int i = 0; i < work; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x >>> 40;
    }

    @Override
    public String name() {
        return kind == Kind.ROUND_ROBIN ? "RouterRoundRobin" : "RouterBalancing";
    }

    @Override
    public String description() {
        return p.jobs() + " jobs of ~1 us through a pool of " + p.routees() + " routees, "
                + (kind == Kind.ROUND_ROBIN ? "round-robin (Pekko: RoundRobinPool)"
                : "smallest mailbox (Pekko: BalancingPool, one shared mailbox)");
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("routees", p.routees());
        m.put("jobs", p.jobs());
        m.put("work_rounds", p.work());
        m.put("switchboard_routing", kind == Kind.ROUND_ROBIN ? "round-robin" : "smallest mailbox");
        m.put("pekko_pool", kind == Kind.ROUND_ROBIN ? "RoundRobinPool" : "BalancingPool");
        return m;
    }

    @Override
    public long expected() {
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardRouterPool.run(runtime, p, kind);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoRouterPool.run(system, p, kind);
    }
}

package dev.switchboard.bench.churn;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Short-lived actors, created and retired in bulk: {@code spawners} spawner actors each create
 * {@code perSpawner} workers, send each {@code messages} numbers and exit; a worker adds up its numbers and exits
 * after the last one. A spawner creates all its workers in one message, so most of them are alive at once: what
 * a run costs is mostly the creation, start, first message and termination of an actor, and the garbage
 * collections of the memory they held. The Switchboard worker is a plain actor ({@link Kind#ACTOR}), or a
 * selector of {@value #SELECTOR_MAILBOXES} mailboxes whose {@code k}-th message goes to mailbox {@code k}
 * ({@link Kind#SELECTOR}); the Pekko worker is a plain actor in both. The checksum is the sum of every worker's
 * total, which does not depend on the interleaving.
 */
public final class Churn implements Benchmark {
    /** What a Switchboard worker is. */
    public enum Kind { ACTOR, SELECTOR }

    /** Mailboxes of a selector worker (a worker receives fewer messages than that, so most stay unused). */
    public static final int SELECTOR_MAILBOXES = 11;

    private final Params p;
    private final Kind kind;
    private final long expected;

    /**
     * @param spawners   spawner actors, each creating its share of the workers in one message
     * @param perSpawner workers each spawner creates
     * @param messages   messages each worker is sent (at most {@link #SELECTOR_MAILBOXES})
     * @param kind       what a Switchboard worker is
     */
    public Churn(int spawners, int perSpawner, int messages, Kind kind) {
        if (spawners < 1 || perSpawner < 1 || messages < 1 || messages > SELECTOR_MAILBOXES) {
            throw new IllegalArgumentException("bad Churn parameters: spawners " + spawners + ", workers per spawner "
                    + perSpawner + ", messages " + messages + " (1 to " + SELECTOR_MAILBOXES + ")");
        }
        this.p = new Params(spawners, perSpawner, messages);
        this.kind = kind;
        long sum = 0;
        for (int s = 0; s < spawners; s++) {
            for (int w = 0; w < perSpawner; w++) {
                for (int k = 0; k < messages; k++) {
                    sum += p.value(s, w, k);
                }
            }
        }
        this.expected = sum;
    }

    /** 200,000 workers (4 spawners of 50,000), 3 messages each. */
    public Churn(Kind kind) {
        this(4, 50_000, 3, kind);
    }

    @Override
    public String name() {
        return kind == Kind.ACTOR ? "ActorChurn" : "SelectorChurn";
    }

    @Override
    public String description() {
        return "create, start, message and retire " + p.spawners() * p.perSpawner() + " short-lived "
                + (kind == Kind.ACTOR ? "actors" : SELECTOR_MAILBOXES + "-mailbox selectors (Pekko: actors)")
                + ", " + p.messages() + " messages each";
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("spawners", p.spawners());
        m.put("workers_per_spawner", p.perSpawner());
        m.put("messages_per_worker", p.messages());
        m.put("switchboard_worker", kind == Kind.ACTOR ? "actor" : SELECTOR_MAILBOXES + "-mailbox selector");
        return m;
    }

    @Override
    public long expected() {
        return expected;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardChurn.run(runtime, p, kind);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoChurn.run(system, p);
    }

    record Params(int spawners, int perSpawner, int messages) {
        /** The {@code k}-th number spawner {@code s} sends its worker {@code w}. */
        long value(int s, int w, int k) {
            return (long) s * 1_000_003L + (long) w * 7 + k;
        }
    }
}

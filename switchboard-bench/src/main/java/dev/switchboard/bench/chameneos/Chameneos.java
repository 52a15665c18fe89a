package dev.switchboard.bench.chameneos;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Savina Chameneos: {@code chameneos} creatures keep going to a mall actor, which pairs them up for
 * {@code meetings} meetings. Every creature hammers one mailbox: it measures contention on a hot receiver.
 */
public final class Chameneos implements Benchmark {
    private final int chameneos;
    private final int meetings;

    public Chameneos(int chameneos, int meetings) {
        this.chameneos = chameneos;
        this.meetings = meetings;
    }

    /** Savina's defaults: 100 chameneos, 200,000 meetings. */
    public Chameneos() {
        this(100, 200_000);
    }

    @Override
    public String name() {
        return "Chameneos";
    }

    @Override
    public String description() {
        return "creatures meet pairwise through one mall actor (Savina chameneos)";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("chameneos", chameneos, "meetings", meetings);
    }

    /** Every meeting is counted by both of its creatures. */
    @Override
    public long expected() {
        return 2L * meetings;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardChameneos.run(runtime, chameneos, meetings);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoChameneos.run(system, chameneos, meetings);
    }

    /** The colour a creature takes after meeting one of colour {@code other}. */
    static int complement(int mine, int other) {
        return mine == other ? mine : 3 - mine - other;
    }
}

package dev.switchboard.bench.monitordict;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.task.TaskRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * [PAM] §8.1: a client sends reads (and, in the mix, writes) to a dictionary actor whose lookups scan an
 * association list, and waits for every answer. On Switchboard the dictionary is the same plain actor, run
 * serially, under a mutual-exclusion monitor, or under a readers-writer monitor; on Pekko it is the serial
 * dictionary actor, or a coordinator that forwards reads round-robin to one replica per worker and broadcasts
 * writes to all ([PAM] Fig. 5, "Scala Replication").
 */
public final class MonitorDictionary implements Benchmark {
    /** How the Switchboard dictionary is run. */
    public enum Variant { ACTOR, MUTEX, READERS_WRITER }

    private final Workload workload;
    private final Variant variant;
    private final boolean replicas;

    /**
     * @param size         entries in the association list
     * @param operations   operations per run (the paper reads 100 per round; a run is many rounds)
     * @param writePercent writes among the operations
     * @param replicas     whether the Pekko side is the coordinator + replicas (else the serial actor)
     */
    public MonitorDictionary(int size, int operations, int writePercent, Variant variant, boolean replicas) {
        this.workload = new Workload(size, operations, writePercent);
        this.variant = variant;
        this.replicas = replicas;
    }

    @Override
    public String name() {
        String size = workload.size() % 1000 == 0 ? workload.size() / 1000 + "K" : Integer.toString(workload.size());
        String kind = workload.writePercent() == 0 ? "DictRead" : "DictMix";
        String sb = switch (variant) {
            case ACTOR -> "Actor";
            case MUTEX -> "Mutex";
            case READERS_WRITER -> "ReadersWriter";
        };
        return kind + size + "-" + sb + (replicas ? "-vsReplicas" : "");
    }

    @Override
    public String description() {
        return "[PAM] §8.1 dictionary (association list): Switchboard " + variant.name().toLowerCase()
                + " vs Pekko " + (replicas ? "coordinator + replicas" : "serial actor");
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("entries", workload.size());
        p.put("operations", workload.operations());
        p.put("write_percent", workload.writePercent());
        p.put("switchboard", variant.name());
        p.put("pekko", replicas ? "COORDINATOR_REPLICAS" : "SERIAL");
        return p;
    }

    @Override
    public long expected() {
        return workload.expected();
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        return SwitchboardDictionary.run(runtime, workload, variant);
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return replicas ? PekkoDictionary.runReplicas(system, workload, 2) : PekkoDictionary.runSerial(system, workload);
    }
}

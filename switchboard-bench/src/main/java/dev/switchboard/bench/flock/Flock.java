package dev.switchboard.bench.flock;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.examples.monitors.FlockCouples;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * Paper 001 §7: deriving the "couples" flock — {@code arriving} of {@code friends} come in range, then every one
 * of them is checked for a nearby, matching partner (an expensive profile comparison). Switchboard runs the
 * example's flock actor serially or under a readers-writer monitor; Pekko runs the same logic in a serial actor.
 */
public final class Flock implements Benchmark {
    private final int friends;
    private final int arriving;
    private final int dimensions;
    private final boolean readersWriter;
    private final FlockCouples.Person[] people;

    public Flock(int friends, int arriving, int dimensions, boolean readersWriter) {
        this.friends = friends;
        this.arriving = arriving;
        this.dimensions = dimensions;
        this.readersWriter = readersWriter;
        this.people = FlockCouples.friends(friends, dimensions, 7);
    }

    @Override
    public String name() {
        return "FlockCouples-" + (readersWriter ? "ReadersWriter" : "Serial");
    }

    @Override
    public String description() {
        return "paper 001 §7 couples flock: Switchboard " + (readersWriter ? "readers-writer monitor" : "serial actor")
                + " vs Pekko serial actor";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("friends", friends, "arriving", arriving, "profile_dimensions", dimensions);
    }

    /** Friends 0..arriving-1 arrive; half of them are in couples whose partner (the neighbour id) also arrives. */
    @Override
    public long expected() {
        return arriving / 2;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        int[] result = new int[1];
        runtime.finish(() -> result[0] = FlockCouples.derive(people, arriving, readersWriter));
        return result[0];
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoFlock.run(system, people, arriving);
    }
}

package dev.switchboard.bench.flock;

import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.examples.monitors.FlockCouples;
import dev.switchboard.task.TaskRuntime;
import java.util.Map;
import org.apache.pekko.actor.ActorSystem;

/**
 * [PAM] §7: deriving the "couples" flock — {@code arriving} of {@code friends} come in range, then every one
 * of them is checked for a nearby, matching partner (an expensive profile comparison). Switchboard runs the
 * example's flock actor serially or under a readers-writer monitor; Pekko runs the same logic in a serial actor.
 */
public final class Flock implements Benchmark {
    private final int friends;
    private final int arriving;
    private final int dimensions;
    private final boolean readersWriter;
    /** Built on first use: {@code Suite.all()} constructs every benchmark, most of which a run never selects. */
    private FlockCouples.Person[] people;

    public Flock(int friends, int arriving, int dimensions, boolean readersWriter) {
        this.friends = friends;
        this.arriving = arriving;
        this.dimensions = dimensions;
        this.readersWriter = readersWriter;
    }

    private FlockCouples.Person[] people() {
        if (people == null) {                  // the harness runs a benchmark from one thread
            people = FlockCouples.friends(friends, dimensions, 7);
        }
        return people;
    }

    @Override
    public String name() {
        return "FlockCouples-" + (readersWriter ? "ReadersWriter" : "Serial");
    }

    @Override
    public String description() {
        return "[PAM] §7 couples flock: Switchboard " + (readersWriter ? "readers-writer monitor" : "serial actor")
                + " vs Pekko serial actor";
    }

    @Override
    public Map<String, Object> params() {
        return Map.of("friends", friends, "arriving", arriving, "profile_dimensions", dimensions);
    }

    /**
     * Friends 0..arriving-1 arrive; those with {@code id % 4 < 2} are in couples with their neighbour
     * ({@code id ^ 1}), and are coupled if that partner arrives too (the profiles of partners match).
     */
    @Override
    public long expected() {
        long coupled = 0;
        for (int id = 0; id < arriving; id++) {
            if (id % 4 < 2 && (id ^ 1) < arriving) {
                coupled++;
            }
        }
        return coupled;
    }

    @Override
    public long runSwitchboard(TaskRuntime runtime) {
        FlockCouples.Person[] all = people();
        int[] result = new int[1];
        runtime.finish(() -> result[0] = FlockCouples.derive(all, arriving, readersWriter));
        return result[0];
    }

    @Override
    public long runPekko(ActorSystem system) throws Exception {
        return PekkoFlock.run(system, people(), arriving);
    }
}

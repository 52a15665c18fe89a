package dev.switchboard.task;

import dev.switchboard.actor.Actor;
import dev.switchboard.actor.ActorRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Run by {@link OutOfMemoryTest} in a JVM of its own with a small heap: exhausts the heap for real and prints what
 * the runtime did, one {@code key: value} line per fact.
 */
public final class OutOfMemoryScenario {
    private OutOfMemoryScenario() {
    }

    /** Never exits: a million of these fill any small heap. */
    static final class Idle extends Actor<String> {
        @Override
        protected void process(String m) {
            if (m.equals("stop")) {
                exit();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        actorsFillTheHeap();
        runtimeSurvivesAnOutOfMemoryErrorInItsOwnCode();
        System.out.println("done: true");
        System.out.flush();
        System.exit(0);
    }

    /** The program: 10^6 actors started through forasync, more than the heap holds. */
    private static void actorsFillTheHeap() {
        TaskRuntime rt = TaskRuntime.builder().name("fill").workers(2).onUnscopedFailure(t -> { }).build();
        long[] reserve = new long[512 * 1024];           // 4 MB, dropped to have room to report
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            rt.finish(() -> rt.forasync(0, 1_000_000, i -> new Idle().start()));
        } catch (Throwable t) {
            thrown = t;
        }
        reserve = null;
        String what = describe(thrown);
        System.out.println("fill.finish: " + what);
        System.out.println("fill.millis: " + (System.nanoTime() - start) / 1_000_000);
        System.out.println("fill.workerDeaths: " + rt.scheduler().workerDeaths());
        System.out.println("fill.watchdogAlive: " + threadAlive("fill-watchdog"));
        boolean ended = rt.close(Duration.ofSeconds(20));   // terminates the idle actors: their memory is free again
        System.out.println("fill.closed: " + ended);
    }

    /**
     * A ballast fills the heap, then a workload of actors and tasks runs until the runtime's own allocations (or
     * the workload's) fail; the ballast is dropped, and the same runtime must run the workload again, exactly.
     */
    private static void runtimeSurvivesAnOutOfMemoryErrorInItsOwnCode() {
        TaskRuntime rt = TaskRuntime.builder().name("survive").workers(2).onUnscopedFailure(t -> { }).build();
        List<long[]> ballast = new ArrayList<>();
        Throwable thrown = null;
        try {
            for (;;) {
                ballast.add(new long[16 * 1024]);
            }
        } catch (OutOfMemoryError full) {
            ballast.remove(ballast.size() - 1);              // a little room, so the workload starts
            ballast.remove(ballast.size() - 1);
        }
        try {
            workload(rt, 200, 2_000);
        } catch (Throwable t) {
            thrown = t;
        }
        ballast.clear();
        System.gc();
        System.out.println("survive.first: " + describe(thrown));
        long processed;
        try {
            processed = workload(rt, 200, 2_000);
        } catch (Throwable t) {
            System.out.println("survive.second: " + describe(t));
            processed = -1;
        }
        System.out.println("survive.second.processed: " + processed);
        System.out.println("survive.workerDeaths: " + rt.scheduler().workerDeaths());
        System.out.println("survive.watchdogAlive: " + threadAlive("survive-watchdog"));
        System.out.println("survive.closed: " + rt.close(Duration.ofSeconds(20)));
    }

    /** {@code actors} actors, each sent {@code messages} messages by a task; returns the messages processed. */
    private static long workload(TaskRuntime rt, int actors, int messages) {
        LongAdder processed = new LongAdder();
        AtomicBoolean keep = new AtomicBoolean(true);
        rt.finish(() -> {
            for (int i = 0; i < actors; i++) {
                Actor<Integer> a = new Actor<>() {
                    private final List<Integer> seen = new ArrayList<>();   // allocates as it goes

                    @Override
                    protected void process(Integer m) {
                        seen.add(m);
                        processed.increment();
                        if (m == messages - 1) {
                            exit();
                        }
                    }
                };
                ActorRef<Integer> ref = a.start();
                rt.async(() -> {
                    for (int j = 0; j < messages && keep.get(); j++) {
                        ref.send(j);
                    }
                });
            }
        });
        return processed.sum();
    }

    private static String describe(Throwable t) {
        if (t == null) {
            return "returned";
        }
        if (t instanceof MultiException m) {
            return "threw " + m.getClass().getSimpleName() + " with "
                    + m.failures().stream().map(f -> f.getClass().getSimpleName()).distinct().toList();
        }
        return "threw " + t.getClass().getSimpleName();
    }

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }
}

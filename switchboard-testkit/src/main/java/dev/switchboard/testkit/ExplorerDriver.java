package dev.switchboard.testkit;

import dev.switchboard.internal.DeterministicScheduler;
import dev.switchboard.internal.ManualClock;
import dev.switchboard.internal.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * The driver of one run of a {@link ScheduleExplorer}: the runtime runs nothing on its own (no worker threads);
 * each step, the run's chooser picks what goes next among the ready actor activations and tasks and, when a timer
 * is due by the time the test waits for, the timers; the step runs it on this thread and records it in the trace.
 * A wait is a series of steps, until its condition holds or nothing can happen by its deadline on the run's clock,
 * which is then moved to the deadline (the time the test waited).
 */
final class ExplorerDriver extends Driver {
    /** The timers, as one option: going next moves the clock to the earliest one's time. */
    private static final Object TIMERS = new Object() {
        @Override
        public String toString() {
            return "the timers";
        }
    };
    /** The address in a lambda's class name, which differs from JVM to JVM. */
    private static final Pattern HIDDEN_CLASS_ADDRESS = Pattern.compile("/0x[0-9a-f]+");

    private final DeterministicScheduler scheduler;
    private final ManualClock clock;
    private final Strategy.Chooser chooser;
    private final int maxSteps;
    private final List<String> trace = new ArrayList<>();
    private int steps;

    /** Made on the thread that will run the program, whose waits (a finish, a blocking get) then step it. */
    ExplorerDriver(DeterministicScheduler scheduler, ManualClock clock, Strategy.Chooser chooser, int maxSteps) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.chooser = chooser;
        this.maxSteps = maxSteps;
        // a wait with no deadline of its own: the timers may fire whenever the strategy picks them
        scheduler.driveWith(() -> step(clock.nanoTime() + Long.MAX_VALUE / 2));
    }

    @Override
    boolean await(BooleanSupplier done, Duration max) {
        long deadline = clock.nanoTime() + max.toNanos();
        while (!done.getAsBoolean()) {
            if (!step(deadline)) {
                long left = deadline - clock.nanoTime();
                if (left > 0) {
                    clock.advance(left);              // the test waited that long; nothing was due meanwhile
                }
                return done.getAsBoolean();
            }
        }
        return true;
    }

    /** Runs steps until nothing is ready and no timer is due now. */
    void runUntilQuiet() {
        while (step(clock.nanoTime())) {
            // each step runs one thing
        }
    }

    /** One decision: runs what the chooser picks; false if nothing could go (nothing ready, no timer by then). */
    private boolean step(long deadline) {
        List<Node> ready = scheduler.readyNodes();
        OptionalLong due = clock.nextDue();
        boolean timers = due.isPresent() && due.getAsLong() - deadline <= 0;
        if (ready.isEmpty() && !timers) {
            return false;
        }
        if (++steps > maxSteps) {
            throw new IllegalStateException("the program was still running after " + maxSteps + " scheduling steps"
                    + " (ready: " + ready.size() + "); a program that never quiesces cannot be explored, or raise"
                    + " maxSteps");
        }
        List<Object> options = new ArrayList<>(ready);
        if (timers) {
            options.add(TIMERS);
        }
        List<String> names = new ArrayList<>(ready.size());
        for (Node n : ready) {      // also takes the ids of the actors named, in the order they first get ready
            names.add(HIDDEN_CLASS_ADDRESS.matcher(n.describe()).replaceAll(""));
        }
        int i = chooser.choose(options, steps);
        if (i < 0 || i >= options.size()) {
            throw new IllegalStateException("the strategy chose " + i + " of " + options.size() + " options");
        }
        if (i == ready.size()) {
            long at = due.getAsLong();
            trace.add("timers at " + at + " ns");
            clock.advance(Math.max(0, at - clock.nanoTime()));
        } else {
            trace.add(names.get(i));
            StuckSteps.Step running = StuckSteps.started(steps, names.get(i));
            try {
                scheduler.run(ready.get(i));
            } finally {
                StuckSteps.ended(running);
            }
        }
        return true;
    }

    @Override
    void changed() {
        // nothing waits: the waits run the program themselves
    }

    @Override
    boolean deterministic() {
        return true;
    }

    int steps() {
        return steps;
    }

    List<String> trace() {
        return trace;
    }
}

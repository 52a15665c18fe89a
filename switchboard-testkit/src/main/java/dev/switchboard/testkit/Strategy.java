package dev.switchboard.testkit;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * How a {@link ScheduleExplorer} makes each scheduling decision of a run: which of the options (the ready actors and
 * tasks, and the runtime's timers when one is due) goes next. A strategy makes a fresh {@link Chooser} per run,
 * from the run's seed alone, so that a seed always makes the same decisions.
 */
interface Strategy {
    /**
     * The chooser of the run of {@code seed}; {@code steps} is how many decisions a run of the program takes, as
     * measured by one run in arrival order (what PCT spreads its change points over).
     */
    Chooser chooser(long seed, int steps);

    /** Whether {@link #chooser} uses {@code steps} (the explorer then measures it once). */
    boolean usesSteps();

    /** A choice of one option per step. */
    interface Chooser {
        /**
         * The index of the option that goes next. {@code options} (never empty, not to be kept) holds objects that
         * stay the same for the same actor from step to step (its activation), a new one for each task, and one
         * for the timers; {@code step} counts from 1.
         */
        int choose(List<Object> options, int step);
    }

    /** Uniformly at random among the options, at every step. */
    record RandomWalk() implements Strategy {
        @Override
        public Chooser chooser(long seed, int steps) {
            SplittableRandom random = new SplittableRandom(seed);   // mixes its seed: neighbouring seeds differ
            return (options, step) -> random.nextInt(options.size());
        }

        @Override
        public boolean usesSteps() {
            return false;
        }

        @Override
        public String toString() {
            return "random";
        }
    }

    /**
     * Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010), with actors
     * and tasks for threads and turns for steps: each actor (and task, and the timers) gets a random priority when
     * it first appears, above {@code depth}; the highest-priority option always goes next; at {@code depth - 1}
     * distinct steps chosen at random among the {@code steps} a run is expected to take, the one that goes has its
     * priority dropped below every other (to {@code depth - 1}, ..., 1). The paper's bound (a bug of depth
     * {@code d} found by a run with probability at least {@code 1 / (n * k^(d-1))}) holds here with {@code n}
     * counting every actor, task and the timers, and {@code k} the steps of a run, which are measured once, by a
     * run in arrival order; the test's own thread is not one of the options (it goes on as soon as what it
     * waits for holds).
     */
    record Pct(int depth) implements Strategy {
        public Pct {
            if (depth < 1) {
                throw new IllegalArgumentException("PCT's depth is at least 1, got " + depth);
            }
        }

        @Override
        public Chooser chooser(long seed, int steps) {
            SplittableRandom random = new SplittableRandom(seed);
            // d - 1 distinct change points among the steps (fewer if the run has fewer steps), the i-th earliest
            // lowering to d - i as in the paper's algorithm
            TreeSet<Integer> points = new TreeSet<>();
            while (points.size() < Math.min(depth - 1, Math.max(1, steps))) {
                points.add(1 + random.nextInt(Math.max(1, steps)));
            }
            Map<Integer, Integer> changeAt = new HashMap<>();
            int low = depth - 1;
            for (int point : points) {
                changeAt.put(point, low--);
            }
            Map<Object, Double> priority = new IdentityHashMap<>();
            return (options, step) -> {
                int best = 0;
                double top = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < options.size(); i++) {
                    double p = priority.computeIfAbsent(options.get(i), o -> depth + random.nextDouble());
                    if (p > top) {
                        top = p;
                        best = i;
                    }
                }
                Integer lowered = changeAt.get(step);
                if (lowered != null) {
                    priority.put(options.get(best), (double) lowered);
                }
                return best;
            };
        }

        @Override
        public boolean usesSteps() {
            return true;
        }

        @Override
        public String toString() {
            return "PCT (depth " + depth + ")";
        }
    }

    /** The oldest ready option first: the order things became ready in (the explorer's measuring run). */
    record ArrivalOrder() implements Strategy {
        @Override
        public Chooser chooser(long seed, int steps) {
            return (options, step) -> 0;
        }

        @Override
        public boolean usesSteps() {
            return false;
        }

        @Override
        public String toString() {
            return "arrival order";
        }
    }
}

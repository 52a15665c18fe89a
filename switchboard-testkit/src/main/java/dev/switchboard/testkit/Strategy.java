package dev.switchboard.testkit;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
            Random random = new Random(seed);
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
     * steps chosen at random among the run's {@code steps}, the one that goes has its priority dropped below every
     * other (to {@code depth - 1}, ..., 1). A bug that needs {@code d} orderings between turns to show is found by
     * a run with probability at least {@code 1 / (n * steps^(d-1))} for {@code n} actors, whatever the program.
     */
    record Pct(int depth) implements Strategy {
        public Pct {
            if (depth < 1) {
                throw new IllegalArgumentException("PCT's depth is at least 1, got " + depth);
            }
        }

        @Override
        public Chooser chooser(long seed, int steps) {
            Random random = new Random(seed);
            Map<Integer, Integer> changeAt = new HashMap<>();
            for (int i = 1; i < depth; i++) {
                changeAt.put(1 + random.nextInt(Math.max(1, steps)), depth - i);
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

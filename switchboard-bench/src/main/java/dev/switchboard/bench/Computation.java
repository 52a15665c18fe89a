package dev.switchboard.bench;

/** The unit of work Savina's ForkJoin benchmarks do per message ({@code ThroughputConfig.performComputation}). */
public final class Computation {
    private Computation() {
    }

    public static void perform(double theta) {
        double sint = Math.sin(theta);
        double res = sint * sint;
        if (res <= 0) {        // defeats dead-code elimination, as in Savina
            throw new IllegalStateException("unrealistic result " + res);
        }
    }
}
